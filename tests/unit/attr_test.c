/* attr_test.c: owners and modes: new files take the caller's ids, chmod and chown's rules (fs/attr.c). */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>

#define DIR "/tmp/ktattr"

static unsigned int saved_euid, saved_egid;

static void be(unsigned int uid, unsigned int gid)
{
	current->user.euid = uid;
	current->user.egid = gid;
}

static int t_touch(const char *name)
{
	struct file *f;
	int err = vfs_open(NULL, name, O_WRONLY | O_CREAT, 0644, &f);

	if (!err)
		vfs_close(f);
	return err;
}

static int t_chmod(const char *name, unsigned int mode)
{
	struct iattr a = { .ia_valid = ATTR_MODE, .ia_mode = (umode_t)mode };

	return vfs_setattr(NULL, name, LOOKUP_FOLLOW, &a);
}

/* uid or gid -1: unchanged, as chown(2); follow 0: the link itself (lchown). */
static int t_chown(const char *name, int uid, int gid, unsigned int follow)
{
	struct iattr a = { .ia_valid = ATTR_KILL_SUID | ATTR_KILL_SGID };

	if (uid >= 0) {
		a.ia_valid |= ATTR_UID;
		a.ia_uid = (unsigned int)uid;
	}
	if (gid >= 0) {
		a.ia_valid |= ATTR_GID;
		a.ia_gid = (unsigned int)gid;
	}
	return vfs_setattr(NULL, name, follow, &a);
}

static struct kstat t_stat(const char *name, unsigned int flags)
{
	struct kstat st = { 0 };

	vfs_stat(NULL, name, flags, &st);
	return st;
}

static int attr_suite_init(struct ktest *t)
{
	saved_euid = current->user.euid;
	saved_egid = current->user.egid;
	be(0, 0);
	if (vfs_mkdir(NULL, DIR, 0777) || t_touch(DIR "/f"))
		return -1;
	be(1000, 100); /* a user's file and directory */
	if (t_touch(DIR "/mine") || vfs_mkdir(NULL, DIR "/d", 0755))
		return -1;
	be(0, 0);
	return 0;
}

static void attr_suite_exit(struct ktest *t)
{
	be(0, 0);
	vfs_unlink(NULL, DIR "/f");
	vfs_unlink(NULL, DIR "/l");
	vfs_unlink(NULL, DIR "/mine");
	vfs_rmdir(NULL, DIR "/d");
	vfs_rmdir(NULL, DIR);
	be(saved_euid, saved_egid);
}

/* The suite's init made f as root, mine and d as 1000:100. */
static void attr_new_files_take_the_callers_ids(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).uid, 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).gid, 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).uid, 1000);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).gid, 100);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/d", 0).uid, 1000);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/d", 0).gid, 100);
}

static void attr_chmod_keeps_the_type(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/f", S_IFDIR | 04751), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).mode, S_IFREG | 04751);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/d", 0700), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/d", 0).mode, S_IFDIR | 0700);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/nope", 0700), -ENOENT);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/f/x", 0700), -ENOTDIR);
}

static void attr_chown_minus_one_and_set_id_bits(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/f", 06755), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/f", 7, -1, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).uid, 7);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).gid, 0);
	/* both set-ID bits go: S_ISGID with group-exec is a set-group-ID program */
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).mode, S_IFREG | 0755);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/f", 02745), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/f", -1, 8, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).mode, S_IFREG | 02745); /* mandatory locking's mark stays */
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).uid, 7);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).gid, 8);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/d", 02755), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/d", 1000, 100, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/d", 0).mode, S_IFDIR | 02755); /* a directory keeps them */
}

static void attr_lchown_changes_the_link_itself(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, vfs_symlink(NULL, "f", DIR "/l"), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/l", 11, 12, 0), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/l", 0).uid, 11);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/l", 0).gid, 12);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).uid, 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/l", 13, 14, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).uid, 13);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/f", 0).gid, 14);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/l", 0).uid, 11);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/l", 0).mode, S_IFLNK | 0777);
}

static void attr_only_root_gives_files_away(struct ktest *t)
{
	be(1000, 100);
	/* another's file: no chmod, no chown */
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/f", 0600), -EPERM);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/f", 1000, -1, LOOKUP_FOLLOW), -EPERM);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/f", -1, 100, LOOKUP_FOLLOW), -EPERM);
	/* its own: chmod; a group of its own; never another owner or group */
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/mine", 0640), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", 0, -1, LOOKUP_FOLLOW), -EPERM);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", -1, 5, LOOKUP_FOLLOW), -EPERM);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", 1000, 100, LOOKUP_FOLLOW), 0);
	be(0, 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).mode, S_IFREG | 0640);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", -1, 5, LOOKUP_FOLLOW), 0);
	be(1000, 100);
	/* set-group-ID only for a group of one's own: dropped, the rest kept */
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/mine", 02750), 0);
	be(0, 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).mode, S_IFREG | 0750);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).gid, 5);
}

/* 2.6's in_group_p: a supplementary group counts as the caller's, for chown and for S_ISGID. */
static void attr_owner_chgrp_to_a_supplementary_group(struct ktest *t)
{
	struct group_info *gi = kmalloc(sizeof(*gi) + 2 * sizeof(gi->gid[0]));

	KTEST_ASSERT_TRUE(t, gi);
	atomic_set(&gi->usage, 1);
	gi->ngroups = 2;
	gi->gid[0] = 7; /* sorted, as setgroups leaves them */
	gi->gid[1] = 9;
	current->user.group_info = gi;
	be(1000, 100);
	KTEST_EXPECT_TRUE(t, in_group_p(100) && in_group_p(7) && in_group_p(9) && !in_group_p(8));
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", -1, 9, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", -1, 8, LOOKUP_FOLLOW), -EPERM);
	KTEST_EXPECT_EQ(t, t_chmod(DIR "/mine", 02750), 0);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).gid, 9);
	KTEST_EXPECT_EQ(t, t_stat(DIR "/mine", 0).mode, S_IFREG | 02750); /* kept: 9 is its group */
	KTEST_EXPECT_EQ(t, t_chown(DIR "/mine", -1, 100, LOOKUP_FOLLOW), 0);
	be(0, 0);
	current->user.group_info = NULL;
	kfree(gi);
}

/* sysfs makes an inode per lookup: the change lives in its node, seen by the next stat. */
static void attr_sysfs_keeps_a_change(struct ktest *t)
{
	const char *seq = "/sys/kernel/uevent_seqnum";
	struct kstat st = t_stat(seq, 0);

	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0444);
	KTEST_EXPECT_EQ(t, t_chmod(seq, 0400), 0);
	KTEST_EXPECT_EQ(t, t_chown(seq, 3, 4, LOOKUP_FOLLOW), 0);
	st = t_stat(seq, 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFREG | 0400);
	KTEST_EXPECT_EQ(t, st.uid, 3);
	KTEST_EXPECT_EQ(t, st.gid, 4);
	KTEST_EXPECT_EQ(t, t_chmod(seq, 0444), 0);
	KTEST_EXPECT_EQ(t, t_chown(seq, 0, 0, LOOKUP_FOLLOW), 0);
	KTEST_EXPECT_EQ(t, t_stat(seq, 0).mode, S_IFREG | 0444);
	KTEST_EXPECT_EQ(t, t_stat("/sys/kernel", 0).uid, 0);
}

/* A device added in a user's call: its /dev node and directories are still root's. */
static void attr_devtmpfs_nodes_are_roots(struct ktest *t)
{
	struct kstat st;

	be(1000, 100);
	KTEST_ASSERT_EQ(t, devtmpfs_create_node("ktattr/node", S_IFCHR | 0600, MKDEV(200, 5)), 0);
	KTEST_EXPECT_EQ(t, current->user.euid, 1000); /* and the caller's ids are back */
	be(0, 0);
	st = t_stat("/dev/ktattr/node", 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFCHR | 0600);
	KTEST_EXPECT_EQ(t, st.uid, 0);
	KTEST_EXPECT_EQ(t, st.gid, 0);
	KTEST_EXPECT_EQ(t, t_stat("/dev/ktattr", 0).uid, 0);
	KTEST_EXPECT_EQ(t, devtmpfs_delete_node("ktattr/node", MKDEV(200, 5)), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktattr", 0, &st), -ENOENT);
}

static const struct ktest_case attr_cases[] = {
	KTEST_CASE(attr_new_files_take_the_callers_ids),
	KTEST_CASE(attr_chmod_keeps_the_type),
	KTEST_CASE(attr_chown_minus_one_and_set_id_bits),
	KTEST_CASE(attr_lchown_changes_the_link_itself),
	KTEST_CASE(attr_only_root_gives_files_away),
	KTEST_CASE(attr_owner_chgrp_to_a_supplementary_group),
	KTEST_CASE(attr_sysfs_keeps_a_change),
	KTEST_CASE(attr_devtmpfs_nodes_are_roots),
	KTEST_END,
};

static const struct ktest_suite attr_suite = {
	.name = "attr",
	.cases = attr_cases,
	.init = attr_suite_init,
	.exit = attr_suite_exit,
};
KTEST_SUITE(attr_suite);
