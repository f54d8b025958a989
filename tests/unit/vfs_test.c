/* vfs_test.c: the VFS and the RAM filesystem: path walk, mounts, rename, open files, memory. */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/ktest.h>
#include <kobold/mm.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "vfs_helpers.h"

/* The absolute path name resolves to (following links), or "" on error. */
static const char *t_resolve(const struct path *cwd, const char *name, unsigned int flags)
{
	static char buf[PATH_MAX];
	struct path p;

	buf[0] = '\0';
	if (vfs_path_lookup(cwd, name, flags, &p))
		return buf;
	if (vfs_path_name(&p, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	path_put(&p);
	return buf;
}

static int t_write(const char *name, const char *text, unsigned int flags)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(NULL, name, O_WRONLY | O_CREAT | flags, 0644, &f);

	if (err)
		return err;
	n = vfs_write(f, text, strlen(text));
	vfs_close(f);
	return n < 0 ? (int)n : 0;
}

static void rm_rf(const char *dir)
{
	char name[128];
	struct vfs_dirent de;
	struct file *f;

	if (vfs_open(NULL, dir, O_RDONLY | O_DIRECTORY, 0, &f))
		return;
	while (vfs_readdir(f, &de) == 1) {
		scnprintf(name, sizeof(name), "%s/%s", dir, de.name);
		if (de.type == S_IFDIR)
			rm_rf(name);
		else
			vfs_unlink(NULL, name);
	}
	vfs_close(f);
	vfs_rmdir(NULL, dir);
}

static int vfs_suite_init(struct ktest *t)
{
	return vfs_mkdir(NULL, "/tmp/kt", 0755);
}

static void vfs_suite_exit(struct ktest *t)
{
	rm_rf("/tmp/kt");
}

static void vfs_boot_tree_exists(struct ktest *t)
{
	struct kstat st;

	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/etc", LOOKUP_FOLLOW, &st), 0);
	KTEST_EXPECT_TRUE(t, S_ISDIR(st.mode));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/mnt", LOOKUP_FOLLOW, &st), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/tmp", LOOKUP_FOLLOW, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode & 07777, 01777);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/sys/kernel/uevent_seqnum", LOOKUP_FOLLOW, &st), 0);
	KTEST_EXPECT_TRUE(t, S_ISREG(st.mode));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev", LOOKUP_FOLLOW, &st), 0);
}

static void vfs_walk_dots_and_slashes(struct ktest *t)
{
	struct path cwd;

	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/a", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/a/b", 0755), 0);
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "//tmp/./kt//a/b/", 0), "/tmp/kt/a/b");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/a/b/../..", 0), "/tmp/kt");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/../../..", 0), "/");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/../../../etc", 0), "/etc");
	/* ".." at a mount's root climbs to the mountpoint's directory */
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/sys/..", 0), "/");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/sys/kernel/../../tmp", 0), "/tmp");
	KTEST_ASSERT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/a", 0, &cwd), 0);
	KTEST_EXPECT_STREQ(t, t_resolve(&cwd, "b/..", 0), "/tmp/kt/a");
	KTEST_EXPECT_STREQ(t, t_resolve(&cwd, "../../../../../..", 0), "/");
	path_put(&cwd);
}

static void vfs_walk_errors(struct ktest *t)
{
	char *long_path = kmalloc(PATH_MAX + 8);
	char name[300];
	struct path p;

	KTEST_ASSERT_TRUE(t, long_path != NULL);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/nope", 0, &p), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "", 0, &p), -ENOENT);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/f", "x", 0), 0);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/f/x", 0, &p), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/f/", 0, &p), -ENOTDIR);
	memset(name, 'n', 256);
	name[256] = '\0';
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, name, 0755), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, name, 0, &p), -ENAMETOOLONG);
	memset(long_path, '/', PATH_MAX + 1);
	long_path[PATH_MAX + 1] = '\0';
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, long_path, 0, &p), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, long_path, 0755), -ENAMETOOLONG);
	kfree(long_path);
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/f", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/f/d", 0755), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, "/", 0755), -EEXIST);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/"), -EBUSY);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/tmp/kt/f"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_unlink(NULL, "/tmp"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/sys"), -EBUSY); /* a mountpoint */
	KTEST_EXPECT_EQ(t, vfs_mkdir(NULL, "/sys/newdir", 0755), -EPERM);
	KTEST_EXPECT_EQ(t, t_write("/sys/newfile", "x", 0), -EACCES);
	KTEST_EXPECT_EQ(t, vfs_unlink(NULL, "/sys/kernel/uevent_seqnum"), -EPERM);
}

static void vfs_symlinks(struct ktest *t)
{
	char buf[64];
	struct path p;

	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/d", 0755), 0);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/d/f", "hello\n", 0), 0);
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "d/f", "/tmp/kt/rel"), 0);
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "/tmp/kt/d", "/tmp/kt/abs"), 0);
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "../../../../../../etc", "/tmp/kt/up"), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/rel", buf, sizeof(buf)), 6);
	KTEST_EXPECT_STREQ(t, buf, "hello\n");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/abs/f", 0), "/tmp/kt/d/f");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/up", LOOKUP_FOLLOW), "/etc");
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/rel", 0), "/tmp/kt/rel");
	KTEST_EXPECT_EQ(t, vfs_readlink(NULL, "/tmp/kt/rel", buf, sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "d/f");
	KTEST_EXPECT_EQ(t, vfs_readlink(NULL, "/tmp/kt/d", buf, sizeof(buf)), -EINVAL);
	/* a loop, and a dangling link */
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "loop2", "/tmp/kt/loop1"), 0);
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "loop1", "/tmp/kt/loop2"), 0);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/loop1", LOOKUP_FOLLOW, &p), -ELOOP);
	KTEST_ASSERT_EQ(t, vfs_symlink(NULL, "nowhere", "/tmp/kt/dangling"), 0);
	KTEST_EXPECT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/dangling", LOOKUP_FOLLOW, &p), -ENOENT);
	/* sysfs's relative links resolve through the VFS as through sysfs */
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/sys/kernel/../class", 0), "/sys/class");
}

static void vfs_read_write_append_truncate(struct ktest *t)
{
	char buf[64];
	struct file *f;
	struct kstat st;

	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/f", "one\n", 0), 0);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/f", "two\n", O_APPEND), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/f", buf, sizeof(buf)), 8);
	KTEST_EXPECT_STREQ(t, buf, "one\ntwo\n");
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/f", "3\n", O_TRUNC), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/f", buf, sizeof(buf)), 2);
	/* a write past the end leaves a hole that reads as zeros */
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/f", O_RDWR, 0, &f), 0);
	vfs_llseek(f, 10000);
	KTEST_EXPECT_EQ(t, vfs_write(f, "z", 1), 1);
	vfs_llseek(f, 5000);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 4), 4);
	KTEST_EXPECT_TRUE(t, !buf[0] && !buf[1] && !buf[2] && !buf[3]);
	KTEST_EXPECT_EQ(t, vfs_fstat(f, &st), 0);
	KTEST_EXPECT_EQ(t, st.size, 10001);
	KTEST_EXPECT_EQ(t, st.blocks, 16); /* pages 0 and 2: the hole takes none */
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/f", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_write(f, "x", 1), -EBADF);
	vfs_close(f);
	KTEST_EXPECT_EQ(t, vfs_open(NULL, "/tmp/kt", O_WRONLY, 0, &f), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_open(NULL, "/tmp/kt/f", O_CREAT | O_EXCL | O_WRONLY, 0644, &f),
			-EEXIST);
}

static void vfs_rename_cases(struct ktest *t)
{
	char buf[16];

	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/a", "A", 0), 0);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/b", "B", 0), 0);
	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/d", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/d/sub", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/e", 0755), 0);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/a", "/tmp/kt/b"), 0); /* replaces b */
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/b", buf, sizeof(buf)), 1);
	KTEST_EXPECT_STREQ(t, buf, "A");
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/a", buf, sizeof(buf)), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/b", "/tmp/kt/d/b2"), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/d/b2", buf, sizeof(buf)), 1);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/d", "/tmp/kt/d/sub/x"), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/e", "/tmp/kt/d"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/e", "/tmp/kt/d/b2"), -ENOTDIR);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/d/b2", "/tmp/kt/e"), -EISDIR);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/d/b2", "/sys/x"), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/nope", "/tmp/kt/x"), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/d", "/tmp/kt/moved"), 0);
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/moved/sub/..", 0), "/tmp/kt/moved");
}

static void vfs_unlink_while_open(struct ktest *t)
{
	struct kmem_stats before, after;
	struct page_stats pb, pa;
	char buf[16];
	struct file *f;

	kmem_get_stats(&before);
	page_get_stats(&pb);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/open", "still here", 0), 0);
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/open", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(NULL, "/tmp/kt/open"), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/open", buf, sizeof(buf)), -ENOENT);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, 10), 10); /* the open file keeps its data */
	KTEST_EXPECT_EQ(t, memcmp(buf, "still here", 10), 0);
	vfs_close(f); /* the last holder: the node and its page go now */
	kmem_get_stats(&after);
	page_get_stats(&pa);
	KTEST_EXPECT_EQ(t, after.bytes_in_use, before.bytes_in_use);
	KTEST_EXPECT_EQ(t, pa.free, pb.free);
}

static void vfs_memory_returned_after_rm(struct ktest *t)
{
	static char chunk[3000];
	struct kmem_stats before, after;
	struct page_stats pb, pa;
	struct file *f;

	kmem_get_stats(&before);
	page_get_stats(&pb);
	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/big", 0755), 0);
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/big/f", O_WRONLY | O_CREAT, 0644, &f), 0);
	for (int i = 0; i < 100; i++)
		KTEST_EXPECT_EQ(t, vfs_write(f, chunk, sizeof(chunk)), (ssize_t)sizeof(chunk));
	vfs_close(f);
	page_get_stats(&pa);
	KTEST_EXPECT_EQ(t, pb.free - pa.free, (300000 + PAGE_SIZE - 1) / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/tmp/kt/big"), -ENOTEMPTY);
	KTEST_EXPECT_EQ(t, vfs_unlink(NULL, "/tmp/kt/big/f"), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/tmp/kt/big"), 0);
	kmem_get_stats(&after);
	page_get_stats(&pa);
	KTEST_EXPECT_EQ(t, after.bytes_in_use, before.bytes_in_use);
	KTEST_EXPECT_EQ(t, pa.free, pb.free);
}

static void vfs_failed_allocations_change_nothing(struct ktest *t)
{
	struct kmem_stats before, after;
	struct kstat st;

	kmem_get_stats(&before);
	for (unsigned long n = 1; n < 12; n++) {
		int err;

		kmalloc_fail_nth(n);
		err = vfs_mkdir(NULL, "/tmp/kt/m", 0755);
		kmalloc_fail_nth(0);
		if (!err)
			vfs_rmdir(NULL, "/tmp/kt/m");
		kmalloc_fail_nth(n);
		t_write("/tmp/kt/w", "data", 0);
		kmalloc_fail_nth(0);
		vfs_unlink(NULL, "/tmp/kt/w"); /* a failed write may leave an empty file */
		kmalloc_fail_nth(n);
		err = do_mount(NULL, "none", "/tmp/kt", "tmpfs");
		kmalloc_fail_nth(0);
		if (!err)
			KTEST_EXPECT_EQ(t, do_umount(NULL, "/tmp/kt"), 0);
	}
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/tmp/kt/m", 0, &st), -ENOENT);
	kmem_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.bytes_in_use, before.bytes_in_use);
}

static void vfs_mounts(struct ktest *t)
{
	struct kmem_stats before, after;
	struct kstatfs sfs;
	struct path cwd, p;
	struct file *f;

	KTEST_ASSERT_EQ(t, vfs_mkdir(NULL, "/tmp/kt/m", 0755), 0);
	kmem_get_stats(&before);
	KTEST_EXPECT_EQ(t, do_mount(NULL, "none", "/tmp/kt/m", "nosuchfs"), -ENODEV);
	KTEST_EXPECT_EQ(t, do_mount(NULL, "none", "/tmp/kt/nope", "tmpfs"), -ENOENT);
	KTEST_ASSERT_EQ(t, do_mount(NULL, "none", "/tmp/kt/m", "tmpfs"), 0);
	KTEST_ASSERT_EQ(t, t_write("/tmp/kt/m/inside", "x", 0), 0);
	KTEST_EXPECT_STREQ(t, t_resolve(NULL, "/tmp/kt/m/..", 0), "/tmp/kt");
	KTEST_ASSERT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/m", 0, &p), 0);
	KTEST_EXPECT_EQ(t, vfs_statfs(p.mnt, &sfs), 0);
	KTEST_EXPECT_EQ(t, sfs.f_blocks - sfs.f_bfree, 1);
	path_put(&p);
	KTEST_EXPECT_EQ(t, vfs_rename(NULL, "/tmp/kt/m/inside", "/tmp/kt/out"), -EXDEV);
	KTEST_EXPECT_EQ(t, vfs_rmdir(NULL, "/tmp/kt/m"), -EBUSY);
	/* an open file and a working directory each keep the mount busy */
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/m/inside", O_RDONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, do_umount(NULL, "/tmp/kt/m"), -EBUSY);
	vfs_close(f);
	KTEST_ASSERT_EQ(t, vfs_path_lookup(NULL, "/tmp/kt/m", 0, &cwd), 0);
	KTEST_EXPECT_EQ(t, do_umount(NULL, "/tmp/kt/m"), -EBUSY);
	path_put(&cwd);
	KTEST_EXPECT_EQ(t, do_umount(NULL, "/tmp/kt"), -EINVAL); /* not a mount */
	KTEST_EXPECT_EQ(t, do_umount(NULL, "/"), -EBUSY);
	KTEST_EXPECT_EQ(t, do_umount(NULL, "/tmp/kt/m"), 0);
	KTEST_EXPECT_EQ(t, t_read("/tmp/kt/m/inside", (char[4]){ 0 }, 4), -ENOENT);
	kmem_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.bytes_in_use, before.bytes_in_use);
}

static void vfs_readdir_sorted(struct ktest *t)
{
	static const char *const names[] = { "b", "a", "c" };
	struct vfs_dirent de;
	char seen[8] = "";
	struct file *f;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char path[32];

		scnprintf(path, sizeof(path), "/tmp/kt/%s", names[i]);
		KTEST_ASSERT_EQ(t, t_write(path, "", 0), 0);
	}
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt", O_RDONLY, 0, &f), 0);
	while (vfs_readdir(f, &de) == 1)
		strscpy(seen + strlen(seen), de.name, sizeof(seen) - strlen(seen));
	vfs_close(f);
	KTEST_EXPECT_STREQ(t, seen, "abc");
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/sys", O_RDONLY, 0, &f), 0);
	seen[0] = '\0';
	while (vfs_readdir(f, &de) == 1) /* the sysfs tree's names, in order too */
		if (!strcmp(de.name, "class") || !strcmp(de.name, "devices") ||
		    !strcmp(de.name, "kernel"))
			strscpy(seen + strlen(seen), de.name, 2);
	vfs_close(f);
	KTEST_EXPECT_STREQ(t, seen, "cdk");
}

/* A char driver of a module of its own: its open counts, its read says hello. */
static struct module chr_mod = { .name = "ktest_chr", .live = true };
static int chr_opens;

static int chr_open(struct inode *inode, struct file *file)
{
	chr_opens++;
	return 0;
}

static ssize_t chr_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	size_t len = min(n, (size_t)3);

	memcpy(buf, "hi\n", len);
	return (ssize_t)len;
}

static const struct file_operations chr_fops = {
	.owner = &chr_mod, .open = chr_open, .read = chr_read
};

static void vfs_chrdev_open_pins_the_driver(struct ktest *t)
{
	char buf[8];
	struct file *f;
	int major = register_chrdev(0, "ktchr", &chr_fops);

	KTEST_ASSERT_TRUE(t, major > 0);
	KTEST_EXPECT_EQ(t, register_chrdev((unsigned int)major, "again", &chr_fops), -EBUSY);
	KTEST_ASSERT_EQ(t, vfs_mknod(NULL, "/tmp/kt/c", S_IFCHR | 0666, MKDEV(major, 7)), 0);
	chr_opens = 0;
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/tmp/kt/c", O_RDWR, 0, &f), 0);
	KTEST_EXPECT_EQ(t, chr_opens, 1);
	KTEST_EXPECT_EQ(t, chr_mod.refcnt, 1);
	KTEST_EXPECT_EQ(t, vfs_read(f, buf, sizeof(buf)), 3);
	KTEST_EXPECT_EQ(t, vfs_write(f, "x", 1), -EINVAL); /* no write op */
	vfs_close(f);
	KTEST_EXPECT_EQ(t, chr_mod.refcnt, 0);
	chr_mod.live = false; /* going: opens fail */
	KTEST_EXPECT_EQ(t, vfs_open(NULL, "/tmp/kt/c", O_RDWR, 0, &f), -ENXIO);
	chr_mod.live = true;
	unregister_chrdev((unsigned int)major, "ktchr");
	KTEST_EXPECT_EQ(t, vfs_open(NULL, "/tmp/kt/c", O_RDWR, 0, &f), -ENXIO);
}

static void vfs_devtmpfs_nodes(struct ktest *t)
{
	struct kstat st;

	KTEST_ASSERT_EQ(t, devtmpfs_create_node("ktnode", S_IFCHR | 0600, MKDEV(200, 3)), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktnode", 0, &st), 0);
	KTEST_EXPECT_TRUE(t, S_ISCHR(st.mode));
	KTEST_EXPECT_EQ(t, st.rdev, MKDEV(200, 3));
	KTEST_EXPECT_EQ(t, devtmpfs_delete_node("ktnode", MKDEV(200, 4)), -ENOENT); /* not its */
	KTEST_EXPECT_EQ(t, devtmpfs_delete_node("ktnode", MKDEV(200, 3)), 0);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktnode", 0, &st), -ENOENT);
}

static char *kt_devnode(struct device *dev, umode_t *mode)
{
	*mode = 0666;
	return kstrdup("ktsub/ktdev");
}

/* device_create() and class_device_add() of a device with a dev_t make its node; del removes it. */
static void vfs_device_add_makes_the_dev_node(struct ktest *t)
{
	struct class *cls = class_create(NULL, "ktvfs");
	struct kstat st;
	struct device *dev;

	KTEST_ASSERT_TRUE(t, !IS_ERR(cls));
	cls->devnode = kt_devnode;
	dev = device_create(cls, NULL, MKDEV(241, 9), NULL, "ktdev");
	KTEST_ASSERT_TRUE(t, !IS_ERR(dev));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktsub/ktdev", 0, &st), 0);
	KTEST_EXPECT_EQ(t, st.mode, S_IFCHR | 0666);
	KTEST_EXPECT_EQ(t, st.rdev, MKDEV(241, 9));
	device_destroy(cls, MKDEV(241, 9));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktsub", 0, &st), -ENOENT); /* its directory too */
	class_destroy(cls);
}

static int kt_devnode_calls;

/* devnode's name cannot be had the first time (its allocation failed), only later. */
static char *kt_devnode_fails_once(struct device *dev, umode_t *mode)
{
	return kt_devnode_calls++ ? kstrdup("ktsub/ktlate") : NULL;
}

/* The node made under the device's own name when devnode failed is the one del removes. */
static void vfs_device_del_removes_the_fallback_node(struct ktest *t)
{
	struct class *cls = class_create(NULL, "ktvfs");
	struct kstat st;
	struct device *dev;

	KTEST_ASSERT_TRUE(t, !IS_ERR(cls));
	cls->devnode = kt_devnode_fails_once;
	kt_devnode_calls = 0;
	dev = device_create(cls, NULL, MKDEV(241, 10), NULL, "ktlate");
	KTEST_ASSERT_TRUE(t, !IS_ERR(dev));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktlate", 0, &st), 0);
	device_destroy(cls, MKDEV(241, 10));
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/dev/ktlate", 0, &st), -ENOENT);
	class_destroy(cls);
}

static const struct ktest_case vfs_cases[] = {
	KTEST_CASE(vfs_boot_tree_exists),
	KTEST_CASE(vfs_walk_dots_and_slashes),
	KTEST_CASE(vfs_walk_errors),
	KTEST_CASE(vfs_symlinks),
	KTEST_CASE(vfs_read_write_append_truncate),
	KTEST_CASE(vfs_rename_cases),
	KTEST_CASE(vfs_unlink_while_open),
	KTEST_CASE(vfs_memory_returned_after_rm),
	KTEST_CASE(vfs_failed_allocations_change_nothing),
	KTEST_CASE(vfs_mounts),
	KTEST_CASE(vfs_readdir_sorted),
	KTEST_CASE(vfs_chrdev_open_pins_the_driver),
	KTEST_CASE(vfs_devtmpfs_nodes),
	KTEST_CASE(vfs_device_add_makes_the_dev_node),
	KTEST_CASE(vfs_device_del_removes_the_fallback_node),
	KTEST_END,
};

static const struct ktest_suite vfs_suite = {
	.name = "vfs",
	.cases = vfs_cases,
	.init = vfs_suite_init,
	.exit = vfs_suite_exit,
};
KTEST_SUITE(vfs_suite);
