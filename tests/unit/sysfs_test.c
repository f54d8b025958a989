/* sysfs_test.c: the sysfs tree: lookup, listing, attribute I/O, links, removal. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/ktest.h>
#include <kobold/module.h>
#include <kobold/shell_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

struct sobj {
	struct kobject kobj;
	int releases;
	int shows;
	int stores;
	int refcnt_at_release; /* of owner_mod, when release ran */
	size_t last_count;
	size_t last_len; /* strlen of what store saw: proves the NUL */
	bool page_was_zero;
	char value[16];
};

static struct module owner_mod = { .name = "ktest_owner" };

static void sobj_release(struct kobject *kobj)
{
	struct sobj *o = container_of(kobj, struct sobj, kobj);

	o->releases++; /* the test frees */
	o->refcnt_at_release = owner_mod.refcnt;
}

static ssize_t sobj_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct sobj *o = container_of(kobj, struct sobj, kobj);
	int i;

	o->shows++;
	o->page_was_zero = true;
	for (i = 0; i < SYSFS_PAGE_SIZE; i++)
		o->page_was_zero &= buf[i] == 0;
	if (strcmp(attr->name, "big") == 0) {
		memset(buf, 'x', SYSFS_PAGE_SIZE);
		return SYSFS_PAGE_SIZE;
	}
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s=%s\n", attr->name, o->value);
}

static ssize_t sobj_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			  size_t count)
{
	struct sobj *o = container_of(kobj, struct sobj, kobj);

	o->stores++;
	o->last_count = count;
	o->last_len = strlen(buf);
	strscpy(o->value, buf, sizeof(o->value));
	if (strcmp(attr->name, "short") == 0) /* takes two bytes at a time */
		return (ssize_t)min(count, (size_t)2);
	if (strcmp(attr->name, "zero") == 0) /* a store that forgot its return */
		return 0;
	return (ssize_t)count;
}

static const struct sysfs_ops sobj_ops = { .show = sobj_show, .store = sobj_store };
static const struct sysfs_ops sobj_ops_noshow = { .store = sobj_store };
static struct kobj_type sobj_ktype = { .release = sobj_release, .sysfs_ops = &sobj_ops };
static struct kobj_type sobj_ktype_noshow = { .release = sobj_release,
					      .sysfs_ops = &sobj_ops_noshow };
static const struct sysfs_ops sobj_ops_nostore = { .show = sobj_show };
static struct kobj_type sobj_ktype_nostore = { .release = sobj_release,
					       .sysfs_ops = &sobj_ops_nostore };

static struct attribute attr_rw = { .name = "rw", .mode = 0644 };
static struct attribute attr_ro = { .name = "ro", .mode = 0444 };
static struct attribute attr_wo = { .name = "wo", .mode = 0200 };
static struct attribute attr_big = { .name = "big", .mode = 0444 };
static struct attribute attr_short = { .name = "short", .mode = 0644 };
static struct attribute attr_zero = { .name = "zero", .mode = 0644 };
static struct attribute attr_owned = { .name = "owned", .owner = &owner_mod, .mode = 0644 };

static struct sobj *sobj_add(const char *name, struct kobject *parent)
{
	struct sobj *o = kzalloc(sizeof(*o));

	if (!o)
		return NULL;
	o->kobj.ktype = &sobj_ktype;
	o->kobj.parent = parent;
	kobject_init(&o->kobj);
	kobject_set_name(&o->kobj, "%s", name);
	if (kobject_add(&o->kobj)) {
		kobject_put(&o->kobj);
		kfree(o);
		return NULL;
	}
	return o;
}

static void sobj_remove(struct sobj *o)
{
	if (!o)
		return;
	kobject_del(&o->kobj);
	kobject_put(&o->kobj);
	kfree(o);
}

static bool same_node(const char *a, struct sysfs_dirent *cwd, const char *b)
{
	struct sysfs_dirent *x, *y;
	bool same;

	if (sysfs_lookup(NULL, a, true, &x))
		return false;
	if (sysfs_lookup(cwd, b, true, &y)) {
		sysfs_put(x);
		return false;
	}
	same = x == y;
	sysfs_put(x);
	sysfs_put(y);
	return same;
}

static void sysfs_lookup_handles_dots_slashes_and_links(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_sysfs", NULL);
	struct sobj *b = a ? sobj_add("b", &a->kobj) : NULL;
	struct sysfs_dirent *cwd, *sd;
	char path[128];

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&b->kobj, &a->kobj, "up"), 0);
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs/b", NULL, "//sys///ktest_sysfs//b/"));
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs", NULL, "/sys/ktest_sysfs/./b/.."));
	KTEST_EXPECT_TRUE(t, same_node("/sys", NULL, "/../../sys/./"));
	KTEST_EXPECT_TRUE(t, same_node("/", NULL, "/.."));
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs/rw", NULL, "/sys/ktest_sysfs/b/up/rw"));
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_sysfs/b", true, &cwd), 0);
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs/rw", cwd, "../rw"));
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs/rw", cwd, "up/rw"));
	KTEST_EXPECT_TRUE(t, same_node("/sys/ktest_sysfs/b", cwd, "."));
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "up", false, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_type(sd), SYSFS_KOBJ_LINK);
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "up", true, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_type(sd), SYSFS_DIR);
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "up/", false, &sd), 0); /* a slash follows */
	KTEST_EXPECT_EQ(t, sysfs_dirent_type(sd), SYSFS_DIR);
	KTEST_EXPECT_EQ(t, sysfs_path(sd, path, sizeof(path)), 16);
	KTEST_EXPECT_STREQ(t, path, "/sys/ktest_sysfs");
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "nope", true, &sd), -ENOENT);
	KTEST_EXPECT_TRUE(t, sd == NULL);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "", true, &sd), -ENOENT);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "../rw/", true, &sd), -ENOTDIR);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "../rw/x", true, &sd), -ENOTDIR);
	KTEST_EXPECT_EQ(t, sysfs_lookup(cwd, "../rw/..", true, &sd), -ENOTDIR);
	KTEST_EXPECT_EQ(t, sysfs_path(sysfs_root(), path, sizeof(path)), 1);
	KTEST_EXPECT_STREQ(t, path, "/");
	KTEST_EXPECT_EQ(t, sysfs_path(cwd, path, 8), -ENAMETOOLONG);
	sysfs_put(cwd);
	sobj_remove(b);
	sobj_remove(a);
}

/* "up/b/" repeated n times below /sys/ktest_loop/b. */
static char *loop_path(int n)
{
	char *p = kzalloc(32 + (size_t)n * 5);
	int i;

	if (!p)
		return NULL;
	strscpy(p, "/sys/ktest_loop/b/", 32);
	for (i = 0; i < n; i++)
		memcpy(p + strlen(p), "up/b/", 6);
	return p;
}

static void sysfs_lookup_limits_links_and_lengths(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_loop", NULL);
	struct sobj *b = a ? sobj_add("b", &a->kobj) : NULL;
	char *p40 = loop_path(40), *p41 = loop_path(41), *longp = kzalloc(SYSFS_PATH_MAX + 8);
	struct sysfs_dirent *sd;

	KTEST_ASSERT_TRUE(t, a && b && p40 && p41 && longp);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&b->kobj, &a->kobj, "up"), 0);
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, p40, true, &sd), 0);
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, p41, true, &sd), -ELOOP);
	memset(longp, 'a', SYSFS_PATH_MAX); /* 4096 characters */
	longp[0] = '/';
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, longp, true, &sd), -ENAMETOOLONG);
	longp[256] = '\0'; /* a 255-character name: allowed, absent */
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, longp, true, &sd), -ENOENT);
	longp[256] = 'a';
	longp[257] = '\0'; /* 256 characters: too long */
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, longp, true, &sd), -ENAMETOOLONG);
	kfree(p40);
	kfree(p41);
	kfree(longp);
	sobj_remove(b);
	sobj_remove(a);
}

static void sysfs_listing_is_sorted(struct ktest *t)
{
	static const char *const names[] = { "zeta", "alpha", "Mid", "beta", "alpha2", "_x", "0" };
	static const char *const sorted[] = { "0", "Mid", "_x", "alpha", "alpha2", "beta", "zeta" };
	struct attribute attrs[ARRAY_SIZE(names)];
	struct sobj *a = sobj_add("ktest_sorted", NULL);
	struct sysfs_dirent *dir, *sd;
	unsigned int i;

	KTEST_ASSERT_TRUE(t, a);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		attrs[i].name = names[i];
		attrs[i].mode = 0444;
		KTEST_EXPECT_EQ(t, sysfs_create_file(&a->kobj, &attrs[i]), 0);
	}
	KTEST_EXPECT_EQ(t, sysfs_create_file(&a->kobj, &attrs[0]), -EEXIST);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_sorted", true, &dir), 0);
	for (i = 0, sd = sysfs_dirent_first_child(dir); sd; sd = sysfs_dirent_next(sd), i++) {
		KTEST_ASSERT_TRUE(t, i < ARRAY_SIZE(sorted));
		KTEST_EXPECT_STREQ(t, sysfs_dirent_name(sd), sorted[i]);
		KTEST_EXPECT_EQ(t, sysfs_dirent_mode(sd), 0444);
	}
	KTEST_EXPECT_EQ(t, i, ARRAY_SIZE(sorted));
	sysfs_put(dir);
	sobj_remove(a);
}

static void sysfs_read_write_and_permissions(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_rw", NULL);
	char buf[64];
	char *big = kmalloc(SYSFS_PAGE_SIZE + 1);

	KTEST_ASSERT_TRUE(t, a && big);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_ro), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_wo), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_big), 0);
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_rw/rw", "hello\n"), 6);
	KTEST_EXPECT_EQ(t, a->last_count, 6);
	KTEST_EXPECT_EQ(t, t_cat("/sys/ktest_rw/rw", buf, sizeof(buf)), 10);
	KTEST_EXPECT_STREQ(t, buf, "rw=hello\n\n");
	KTEST_EXPECT_TRUE(t, a->page_was_zero);
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_rw/ro", "1"), -EACCES);
	KTEST_EXPECT_EQ(t, t_cat("/sys/ktest_rw/wo", buf, sizeof(buf)), -EACCES);
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_rw/wo", "1"), 1);
	KTEST_EXPECT_EQ(t, t_cat("/sys/ktest_rw/big", big, SYSFS_PAGE_SIZE + 1), SYSFS_PAGE_SIZE);
	KTEST_EXPECT_EQ(t, t_cat("/sys/ktest_rw", buf, sizeof(buf)), -EISDIR);
	memset(big, 'y', SYSFS_PAGE_SIZE);
	big[SYSFS_PAGE_SIZE - 1] = '\0'; /* 4095 bytes: accepted */
	a->stores = 0;
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_rw/rw", big), SYSFS_PAGE_SIZE - 1);
	KTEST_EXPECT_EQ(t, a->last_len, SYSFS_PAGE_SIZE - 1);
	big[SYSFS_PAGE_SIZE - 1] = 'y'; /* 4096 bytes: cut to 4095, a short count (2.6) */
	big[SYSFS_PAGE_SIZE] = '\0';
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_rw/rw", big), SYSFS_PAGE_SIZE - 1);
	KTEST_EXPECT_EQ(t, a->stores, 2);
	KTEST_EXPECT_EQ(t, a->last_count, SYSFS_PAGE_SIZE - 1);
	KTEST_EXPECT_EQ(t, a->last_len, SYSFS_PAGE_SIZE - 1);
	kfree(big);
	sobj_remove(a);
}

static void sysfs_missing_callbacks_deny_access(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_noshow", NULL);
	char buf[16];

	KTEST_ASSERT_TRUE(t, a);
	a->kobj.ktype = &sobj_ktype_noshow;
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_EXPECT_EQ(t, t_cat("/sys/ktest_noshow/rw", buf, sizeof(buf)), -EACCES);
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_noshow/rw", "1"), 1);
	a->kobj.ktype = &sobj_ktype;
	sobj_remove(a);
}

/* Opens the file at path, checked at open as flags say: look up, open, drop the lookup's reference. */
static int t_open_as(const char *path, int flags, struct sysfs_open_file **of)
{
	struct sysfs_dirent *sd;
	int err = sysfs_lookup(NULL, path, true, &sd);

	if (err)
		return err;
	err = sysfs_open(sd, flags, of);
	sysfs_put(sd);
	return err;
}

/* As the shell's open does: checked at each read and write only. */
static int t_open(const char *path, struct sysfs_open_file **of) { return t_open_as(path, 0, of); }

/* 0 if path opens as flags say (and closes it), else the open's error. */
static int t_open_check(const char *path, int flags)
{
	struct sysfs_open_file *of;
	int err = t_open_as(path, flags, &of);

	if (!err)
		sysfs_close(of);
	return err;
}

/* 2.6.15's check_perm: a read bit and show() to read, a write bit and store() to write. */
static void sysfs_open_checks_mode_and_callbacks(struct ktest *t)
{
	const int rw = SYSFS_OPEN_READ | SYSFS_OPEN_WRITE;
	struct sobj *a = sobj_add("ktest_perm", NULL);
	bool live = owner_mod.live;

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_ro), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_wo), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_owned), 0);
	owner_mod.live = true;
	owner_mod.refcnt = 0;
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/rw", rw), 0);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/ro", SYSFS_OPEN_READ), 0);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/ro", SYSFS_OPEN_WRITE), -EACCES);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/wo", SYSFS_OPEN_WRITE), 0);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/wo", rw), -EACCES);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/wo", 0), 0); /* checked at the read */
	a->kobj.ktype = &sobj_ktype_noshow;			      /* a read bit, but no show() */
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/rw", SYSFS_OPEN_READ), -EACCES);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/rw", SYSFS_OPEN_WRITE), 0);
	a->kobj.ktype = &sobj_ktype_nostore; /* a write bit, but no store() */
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/rw", SYSFS_OPEN_WRITE), -EACCES);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/rw", SYSFS_OPEN_READ), 0);
	KTEST_EXPECT_EQ(t, t_open_check("/sys/ktest_perm/owned", SYSFS_OPEN_WRITE), -EACCES);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 0); /* a refused open pins nothing */
	owner_mod.live = live;
	a->kobj.ktype = &sobj_ktype;
	sobj_remove(a);
}

static void sysfs_open_file_outlives_its_object(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_stale", NULL);
	struct sysfs_open_file *of;
	char buf[32];

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, t_open("/sys/ktest_stale/rw", &of), 0);
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), 4);
	kobject_del(&a->kobj); /* unregister while open */
	kobject_put(&a->kobj);
	KTEST_EXPECT_EQ(t, a->releases, 0);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&a->kobj), "deleted");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_stale"), -ENOENT);
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), -ENODEV);
	KTEST_EXPECT_EQ(t, sysfs_write(of, "1", 1), -ENODEV);
	KTEST_EXPECT_TRUE(t, sysfs_dirent_removed(sysfs_open_file_dirent(of)));
	sysfs_close(of);
	KTEST_EXPECT_EQ(t, a->releases, 1);
	kfree(a);
}

/* 2.6: show() once per open file; reads come from its snapshot, by offset. */
static void sysfs_read_serves_one_snapshot_by_offset(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_snap", NULL);
	struct sysfs_open_file *of;
	char buf[16];

	KTEST_ASSERT_TRUE(t, a);
	strscpy(a->value, "abc", sizeof(a->value));
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, t_open("/sys/ktest_snap/rw", &of), 0);
	KTEST_EXPECT_EQ(t, a->shows, 0);	       /* open alone calls nothing */
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, 4), 4); /* "rw=abc\n" in pieces */
	KTEST_EXPECT_EQ(t, memcmp(buf, "rw=a", 4), 0);
	strscpy(a->value, "XYZ", sizeof(a->value)); /* changes after the snapshot */
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), 3);
	KTEST_EXPECT_EQ(t, memcmp(buf, "bc\n", 3), 0);		 /* never torn */
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), 0); /* the end */
	KTEST_EXPECT_EQ(t, a->shows, 1);
	KTEST_EXPECT_EQ(t, sysfs_write(of, "q\n", 2), 2); /* a write: show() again next */
	/* show() ran again ("rw=q\n\n"), but the position is 9, past its end */
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, a->shows, 2);
	sysfs_close(of);
	sobj_remove(a);
}

/* A store() that takes less than it was given: the shell writes the rest, through the VFS. */
static void shell_write_all_retries_short_stores(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_short", NULL);
	struct file *f;

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_short), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_zero), 0);
	KTEST_EXPECT_EQ(t, t_echo("/sys/ktest_short/short", "hello\n"), 2); /* write(2) */
	a->stores = 0;
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/sys/ktest_short/short", O_WRONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, shell_write_all(f, "hello\n", 6), 6);
	KTEST_EXPECT_EQ(t, a->stores, 3); /* "he", "ll", "o\n" */
	KTEST_EXPECT_STREQ(t, a->value, "o\n");
	vfs_close(f);
	a->stores = 0;
	KTEST_ASSERT_EQ(t, vfs_open(NULL, "/sys/ktest_short/zero", O_WRONLY, 0, &f), 0);
	KTEST_EXPECT_EQ(t, shell_write_all(f, "1\n", 2), -ENOSPC); /* no endless loop */
	KTEST_EXPECT_EQ(t, a->stores, 1);
	vfs_close(f);
	sobj_remove(a);
}

/* As 2.6's sysfs: an open file pins attr->owner; a module going away cannot be pinned. */
static void sysfs_open_pins_the_owner_module(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_owned", NULL);
	struct sysfs_open_file *of, *of2;
	struct sysfs_dirent *sd;

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_owned), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_owned/owned", true, &sd), 0);
	owner_mod.live = true;
	owner_mod.refcnt = 0;
	KTEST_ASSERT_EQ(t, sysfs_open(sd, 0, &of), 0);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	owner_mod.live = false; /* being unloaded: open fails, as 2.6's try_module_get */
	KTEST_EXPECT_EQ(t, sysfs_open(sd, 0, &of2), -ENODEV);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	sysfs_put(sd);
	kobject_del(&a->kobj);
	kobject_put(&a->kobj);
	sysfs_close(of); /* the release runs before the module is let go */
	KTEST_EXPECT_EQ(t, a->releases, 1);
	KTEST_EXPECT_EQ(t, a->refcnt_at_release, 1);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 0);
	kfree(a);
}

static void owned_cd_release(struct class_device *cd)
{
	kfree(cd);
}

/* 2.6.15's rule: the core's uevent and dev files of a class device pin the class's owner. */
static void class_device_files_pin_the_class_owner(struct ktest *t)
{
	static struct class owned = {
		.name = "ktest_owned",
		.owner = &owner_mod,
		.release = owned_cd_release,
	};
	struct class_device *cd = kzalloc(sizeof(*cd));
	struct sysfs_open_file *of;

	KTEST_ASSERT_TRUE(t, cd != NULL);
	KTEST_ASSERT_EQ(t, class_register(&owned), 0);
	cd->class = &owned;
	cd->devt = MKDEV(250, 1);
	strscpy(cd->class_id, "own0", sizeof(cd->class_id));
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	owner_mod.live = true;
	owner_mod.refcnt = 0;
	KTEST_ASSERT_EQ(t, t_open("/sys/class/ktest_owned/own0/uevent", &of), 0);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	sysfs_close(of);
	KTEST_ASSERT_EQ(t, t_open("/sys/class/ktest_owned/own0/dev", &of), 0);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	sysfs_close(of);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 0);
	owner_mod.live = false;
	class_device_unregister(cd);
	class_unregister(&owned);
}

static void owned_dev_release(struct device *dev)
{
	kfree(dev);
}

/* 2.6.20's rule: a device bound before its add has uevent and dev owned by its driver's module (parentless and classless: /sys/devices/NAME, as 2.6). */
static void device_files_pin_the_driver_owner(struct ktest *t)
{
	static struct device_driver drv = { .name = "ktest_owner_drv", .owner = &owner_mod };
	struct device *dev = kzalloc(sizeof(*dev));
	struct sysfs_open_file *of;

	KTEST_ASSERT_TRUE(t, dev != NULL);
	strscpy(dev->bus_id, "ktbound", BUS_ID_SIZE);
	dev->devt = MKDEV(250, 2);
	dev->driver = &drv;
	dev->release = owned_dev_release;
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	owner_mod.live = true;
	owner_mod.refcnt = 0;
	KTEST_ASSERT_EQ(t, t_open("/sys/devices/ktbound/uevent", &of), 0);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	sysfs_close(of);
	KTEST_ASSERT_EQ(t, t_open("/sys/devices/ktbound/dev", &of), 0);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 1);
	sysfs_close(of);
	KTEST_EXPECT_EQ(t, owner_mod.refcnt, 0);
	owner_mod.live = false;
	dev->driver = NULL; /* no bus to unbind it from */
	device_unregister(dev);
}

static void sysfs_removed_file_gives_enodev(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_rmfile", NULL);
	struct sysfs_open_file *of, *of2;
	struct sysfs_dirent *sd;
	char buf[8];

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attr_rw), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_rmfile/rw", true, &sd), 0);
	KTEST_ASSERT_EQ(t, sysfs_open(sd, 0, &of), 0);
	sysfs_remove_file(&a->kobj, &attr_rw);
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), -ENODEV);
	KTEST_EXPECT_EQ(t, sysfs_open(sd, 0, &of2), -ENODEV);
	KTEST_EXPECT_TRUE(t, of2 == NULL);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_rmfile/rw"), -ENOENT);
	sysfs_close(of);
	sysfs_put(sd);
	sobj_remove(a);
}

static void sysfs_remove_dir_takes_everything_below(struct ktest *t)
{
	static struct attribute g1 = { .name = "g1", .mode = 0444 };
	static struct attribute *gattrs[] = { &g1, NULL };
	static const struct attribute_group grp = { .name = "grp", .attrs = gattrs };
	struct sobj *a = sobj_add("ktest_rmdir", NULL);
	struct sobj *b = a ? sobj_add("sub", &a->kobj) : NULL;
	struct sysfs_dirent *held;
	char path[64];

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_ASSERT_EQ(t, sysfs_create_group(&b->kobj, &grp), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&b->kobj, &a->kobj, "parent_link"), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&b->kobj, &attr_ro), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_rmdir/sub/grp/g1"), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_rmdir/sub/grp", true, &held), 0);
	sysfs_remove_dir(&b->kobj); /* the kobject lives on; its directory goes */
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_rmdir/sub"), -ENOENT);
	KTEST_EXPECT_TRUE(t, sysfs_dirent_removed(held));
	KTEST_EXPECT_TRUE(t, sysfs_dirent_first_child(held) == NULL);
	KTEST_EXPECT_EQ(t, sysfs_path(held, path, sizeof(path)) > 0, 1);
	KTEST_EXPECT_STREQ(t, path, "/sys/ktest_rmdir/sub/grp"); /* still printable */
	sysfs_put(held);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_rmdir"), 0);
	sobj_remove(b);
	sobj_remove(a);
}

static void sysfs_group_without_name_adds_to_the_dir(struct ktest *t)
{
	static struct attribute g1 = { .name = "g1", .mode = 0444 };
	static struct attribute g2 = { .name = "g2", .mode = 0444 };
	static struct attribute *gattrs[] = { &g1, &g2, NULL };
	static const struct attribute_group grp = { .attrs = gattrs };
	struct sobj *a = sobj_add("ktest_group", NULL);

	KTEST_ASSERT_TRUE(t, a);
	KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &g2), 0);
	KTEST_EXPECT_EQ(t, sysfs_create_group(&a->kobj, &grp), -EEXIST);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_group/g1"), -ENOENT); /* rolled back */
	sysfs_remove_file(&a->kobj, &g2);
	KTEST_EXPECT_EQ(t, sysfs_create_group(&a->kobj, &grp), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_group/g2"), 0);
	sysfs_remove_group(&a->kobj, &grp);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_group/g1"), -ENOENT);
	sobj_remove(a);
}

static void sysfs_links_read_relative(struct ktest *t)
{
	struct sobj *a = sobj_add("ktest_la", NULL);
	struct sobj *x = a ? sobj_add("x", &a->kobj) : NULL;
	struct sobj *y = x ? sobj_add("y", &x->kobj) : NULL;
	struct sobj *b = sobj_add("ktest_lb", NULL);
	char buf[64];

	KTEST_ASSERT_TRUE(t, a && x && y && b);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&y->kobj, &b->kobj, "to_b"), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&b->kobj, &y->kobj, "to_y"), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&y->kobj, &x->kobj, "to_x"), 0);
	KTEST_ASSERT_EQ(t, sysfs_create_link(&x->kobj, &x->kobj, "self"), 0);
	KTEST_EXPECT_EQ(t, sysfs_create_link(&x->kobj, &b->kobj, "self"), -EEXIST);
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_la/x/y/to_b", buf, sizeof(buf)), 17);
	KTEST_EXPECT_STREQ(t, buf, "../../../ktest_lb");
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_lb/to_y", buf, sizeof(buf)), 15);
	KTEST_EXPECT_STREQ(t, buf, "../ktest_la/x/y");
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_la/x/y/to_x", buf, sizeof(buf)), 7);
	KTEST_EXPECT_STREQ(t, buf, "../../x"); /* from y: up to ktest_la, down to x */
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_la/x/self", buf, sizeof(buf)), 4);
	KTEST_EXPECT_STREQ(t, buf, "../x");
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_la/x/y/to_b", buf, 8), -ENAMETOOLONG);
	KTEST_EXPECT_EQ(t, t_readlink("/sys/ktest_la/x", buf, sizeof(buf)), -EINVAL);
	sysfs_remove_link(&y->kobj, "to_b");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_la/x/y/to_b"), -ENOENT);
	sobj_remove(b); /* to_y goes with ktest_lb; the rest with their dirs */
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_la/x/y/to_x/y"), 0);
	sobj_remove(y);
	sobj_remove(x);
	sobj_remove(a);
}

static void sysfs_big_directory_is_logarithmic(struct ktest *t)
{
	enum { N = 10000 };
	struct attribute *attrs = kzalloc(N * sizeof(*attrs));
	char *names = kzalloc(N * 16);
	struct sobj *a = sobj_add("ktest_big", NULL);
	struct sysfs_dirent *sd, *dir;
	unsigned long before;
	const char *prev = "";
	int i, n;

	KTEST_ASSERT_TRUE(t, attrs && names && a);
	for (i = 0; i < N; i++) {
		scnprintf(names + i * 16, 16, "f%d", (i * 7919) % N); /* scrambled order */
		attrs[i].name = names + i * 16;
		attrs[i].mode = 0444;
		before = sysfs_name_compares();
		KTEST_ASSERT_EQ(t, sysfs_create_file(&a->kobj, &attrs[i]), 0);
		KTEST_ASSERT_TRUE(t, sysfs_name_compares() - before < 64);
	}
	before = sysfs_name_compares();
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_big/f4242", true, &sd), 0);
	KTEST_EXPECT_TRUE(t, sysfs_name_compares() - before < 64);
	KTEST_EXPECT_TRUE(t, sysfs_name_compares() - before > 3); /* the counter counts */
	sysfs_put(sd);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/ktest_big", true, &dir), 0);
	for (n = 0, sd = sysfs_dirent_first_child(dir); sd; sd = sysfs_dirent_next(sd), n++) {
		if (strcmp(prev, sysfs_dirent_name(sd)) >= 0)
			break;
		prev = sysfs_dirent_name(sd);
	}
	KTEST_EXPECT_EQ(t, n, N);
	sysfs_put(dir);
	sobj_remove(a);
	kfree(names);
	kfree(attrs);
}

static void sysfs_kernel_uevent_seqnum(struct ktest *t)
{
	char buf[32], want[32];

	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices"), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus"), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class"), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/virtual"), 0);
	scnprintf(want, sizeof(want), "%llu\n", (unsigned long long)uevent_seqnum);
	KTEST_EXPECT_TRUE(t, t_cat("/sys/kernel/uevent_seqnum", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, want);
	KTEST_EXPECT_EQ(t, t_echo("/sys/kernel/uevent_seqnum", "1"), -EACCES);
}

static const struct ktest_case sysfs_cases[] = {
	KTEST_CASE(sysfs_lookup_handles_dots_slashes_and_links),
	KTEST_CASE(sysfs_lookup_limits_links_and_lengths),
	KTEST_CASE(sysfs_listing_is_sorted),
	KTEST_CASE(sysfs_read_write_and_permissions),
	KTEST_CASE(sysfs_missing_callbacks_deny_access),
	KTEST_CASE(sysfs_open_checks_mode_and_callbacks),
	KTEST_CASE(sysfs_open_file_outlives_its_object),
	KTEST_CASE(sysfs_read_serves_one_snapshot_by_offset),
	KTEST_CASE(shell_write_all_retries_short_stores),
	KTEST_CASE(sysfs_open_pins_the_owner_module),
	KTEST_CASE(class_device_files_pin_the_class_owner),
	KTEST_CASE(device_files_pin_the_driver_owner),
	KTEST_CASE(sysfs_removed_file_gives_enodev),
	KTEST_CASE(sysfs_remove_dir_takes_everything_below),
	KTEST_CASE(sysfs_group_without_name_adds_to_the_dir),
	KTEST_CASE(sysfs_links_read_relative),
	KTEST_CASE(sysfs_big_directory_is_logarithmic),
	KTEST_CASE(sysfs_kernel_uevent_seqnum),
	KTEST_END,
};

static const struct ktest_suite sysfs_suite = {
	.name = "sysfs",
	.cases = sysfs_cases,
};
KTEST_SUITE(sysfs_suite);
