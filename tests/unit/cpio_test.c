/* cpio_test.c: the newc reader (lib/cpio.c) and its unpacking into the RAM filesystem (fs/initramfs.c). */
#include <kobold/cpio.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/initramfs.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "vfs_helpers.h"

#define ARCHIVE_MAX 2048
#define MAX_SEEN 8

struct archive {
	char buf[ARCHIVE_MAX];
	size_t len;
};

static unsigned int owner_uid, owner_gid; /* the next members' owner and group */

/* A member in newc, as gen_init_cpio writes it: header, name, padding, data, padding. */
static void add(struct archive *a, const char *name, unsigned int mode, const char *data,
		unsigned int rmajor, unsigned int rminor)
{
	size_t size = data ? strlen(data) : 0, namesize = strlen(name) + 1;

	a->len += (size_t)scnprintf(a->buf + a->len, ARCHIVE_MAX - a->len,
				    "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", 1u,
				    mode, owner_uid, owner_gid, 1u, 0u, (unsigned int)size, 0u, 0u, rmajor, rminor,
				    (unsigned int)namesize, 0u);
	memcpy(a->buf + a->len, name, namesize);
	a->len += namesize;
	while (a->len % 4)
		a->buf[a->len++] = '\0';
	if (size)
		memcpy(a->buf + a->len, data, size);
	a->len += size;
	while (a->len % 4)
		a->buf[a->len++] = '\0';
}

static void trailer(struct archive *a) { add(a, "TRAILER!!!", 0, NULL, 0, 0); }

struct seen {
	unsigned int n;
	char names[MAX_SEEN][32];
	u32 modes[MAX_SEEN], sizes[MAX_SEEN];
	int fail_at; /* the callback's error at this member (-1: never) */
};

static int record(const struct cpio_entry *e, void *arg)
{
	struct seen *s = arg;

	if ((int)s->n == s->fail_at)
		return -ENOSPC;
	if (s->n < MAX_SEEN) {
		strscpy(s->names[s->n], e->name, sizeof(s->names[0]));
		s->modes[s->n] = e->mode;
		s->sizes[s->n] = e->size;
	}
	s->n++;
	return 0;
}

static struct archive *sample(void)
{
	struct archive *a = kzalloc(sizeof(*a));

	if (!a)
		return NULL;
	add(a, "bin", S_IFDIR | 0755, NULL, 0, 0);
	add(a, "bin/busybox", S_IFREG | 0755, "\x7f"
					      "ELF...",
	    0, 0);
	add(a, "bin/sh", S_IFLNK | 0777, "busybox", 0, 0);
	trailer(a);
	return a;
}

static void cpio_walks_members_in_order(struct ktest *t)
{
	struct archive *a = sample();
	struct seen s = { .fail_at = -1 };
	struct cpio_error err;

	KTEST_ASSERT_TRUE(t, a != NULL);
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), 0);
	KTEST_EXPECT_EQ(t, s.n, 3);
	KTEST_EXPECT_STREQ(t, s.names[0], "bin");
	KTEST_EXPECT_EQ(t, s.modes[0], S_IFDIR | 0755);
	KTEST_EXPECT_STREQ(t, s.names[1], "bin/busybox");
	KTEST_EXPECT_EQ(t, s.sizes[1], 7);
	KTEST_EXPECT_STREQ(t, s.names[2], "bin/sh");
	KTEST_EXPECT_EQ(t, s.modes[2], S_IFLNK | 0777);
	kfree(a);
}

/* Every cut short of the trailer is an error, and only whole members came before it. */
static void cpio_truncated_anywhere_is_an_error(struct ktest *t)
{
	struct archive *a = sample();
	size_t trailer_at;

	KTEST_ASSERT_TRUE(t, a != NULL);
	trailer_at = a->len - 124; /* "TRAILER!!!" and its header: 110 + 11, padded */
	for (size_t len = 1; len < a->len; len++) {
		struct seen s = { .fail_at = -1 };
		struct cpio_error err;
		int ret = cpio_walk(a->buf, len, record, &s, &err);

		if (len < trailer_at + 121) {
			KTEST_EXPECT_EQ(t, ret, -EINVAL);
			KTEST_EXPECT_EQ(t, err.good, s.n);
			KTEST_EXPECT_TRUE(t, err.why != NULL);
		} else {
			KTEST_EXPECT_EQ(t, ret, 0); /* only the trailer's padding is gone */
		}
	}
	kfree(a);
}

static void cpio_bad_headers_say_why(struct ktest *t)
{
	struct archive *a = sample();
	struct seen s = { .fail_at = -1 };
	struct cpio_error err;
	static const char gz[] = "\x1f\x8b\x08\x00rest";

	KTEST_ASSERT_TRUE(t, a != NULL);
	a->buf[1] = '8'; /* "080701" */
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "magic") != NULL);
	KTEST_EXPECT_EQ(t, err.offset, 0);
	a->buf[1] = '7';
	a->buf[6 + 8] = 'x'; /* the mode field */
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "hexadecimal") != NULL);
	a->buf[6 + 8] = '0';
	memcpy(a->buf + 6 + 11 * 8, "00000000", 8); /* namesize 0 */
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "name size") != NULL);
	memcpy(a->buf + 6 + 11 * 8, "00000003", 8); /* "bi" then 'n' where the NUL should be */
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "NUL") != NULL);
	memcpy(a->buf + 6 + 6 * 8, "7FFFFFFF", 8); /* a size past the end */
	memcpy(a->buf + 6 + 11 * 8, "00000004", 8);
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "truncated data") != NULL);
	KTEST_EXPECT_EQ(t, cpio_walk(gz, sizeof(gz) - 1, record, &s, &err), -EINVAL);
	KTEST_EXPECT_TRUE(t, strstr(err.why, "compressed") != NULL);
	kfree(a);
}

static void cpio_concatenated_archives_and_callback_errors(struct ktest *t)
{
	struct archive *a = sample();
	struct seen s = { .fail_at = -1 }, stop = { .fail_at = 1 };
	struct cpio_error err;

	KTEST_ASSERT_TRUE(t, a != NULL);
	memset(a->buf + a->len, 0, 512); /* padding between archives, as a boot loader's */
	a->len += 512;
	add(a, "etc", S_IFDIR | 0755, NULL, 0, 0);
	trailer(a);
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &s, &err), 0);
	KTEST_EXPECT_EQ(t, s.n, 4);
	KTEST_EXPECT_STREQ(t, s.names[3], "etc");
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, a->len, record, &stop, &err), -ENOSPC);
	KTEST_EXPECT_EQ(t, stop.n, 1);
	KTEST_EXPECT_EQ(t, cpio_walk(a->buf, 0, record, &s, &err), 0); /* empty: nothing */
	kfree(a);
}

static void t_cleanup(void)
{
	static const char *const files[] = { "/kt_cpio/bin/busybox", "/kt_cpio/bin/sh",
					     "/kt_cpio/dev/null", "/kt_cpio/etc/motd",
					     "/kt_cpio/etc/issue", "/kt_cpio/deep/a/b" };
	static const char *const dirs[] = { "/kt_cpio/bin", "/kt_cpio/dev", "/kt_cpio/etc",
					    "/kt_cpio/deep/a", "/kt_cpio/deep", "/kt_cpio" };

	for (unsigned int i = 0; i < ARRAY_SIZE(files); i++)
		vfs_unlink(NULL, files[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++)
		vfs_rmdir(NULL, dirs[i]);
}

/* Later over earlier; a corrupt archive loses nothing unpacked before it. */
static void cpio_unpacks_later_over_earlier(struct ktest *t)
{
	struct archive *a = kzalloc(sizeof(*a)), *b = kzalloc(sizeof(*b));
	struct initramfs_stats st;
	struct kstat ks;
	char buf[64];

	KTEST_ASSERT_TRUE(t, a && b);
	add(a, "./kt_cpio", S_IFDIR | 0755, NULL, 0, 0);
	add(a, "kt_cpio/bin/busybox", S_IFREG | 0750, "first", 0, 0);
	add(a, "kt_cpio/bin/sh", S_IFLNK | 0777, "busybox", 0, 0);
	add(a, "/kt_cpio/dev/null", S_IFCHR | 0666, NULL, 1, 3);
	add(a, "kt_cpio/etc/motd", S_IFREG | 0644, "hello\n", 0, 0);
	trailer(a);
	KTEST_EXPECT_EQ(t, unpack_to_rootfs(a->buf, a->len, "a.cpio", &st), 0);
	KTEST_EXPECT_EQ(t, st.unpacked, 5);
	KTEST_EXPECT_EQ(t, st.failed, 0);
	KTEST_EXPECT_EQ(t, t_read("/kt_cpio/bin/sh", buf, sizeof(buf)), 5);
	KTEST_EXPECT_STREQ(t, buf, "first");
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/bin/busybox", 0, &ks), 0);
	KTEST_EXPECT_EQ(t, ks.mode, S_IFREG | 0750);
	KTEST_EXPECT_EQ(t, vfs_readlink(NULL, "/kt_cpio/bin/sh", buf, sizeof(buf)), 7);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/dev/null", 0, &ks), 0);
	KTEST_EXPECT_TRUE(t, S_ISCHR(ks.mode));
	KTEST_EXPECT_EQ(t, ks.rdev, MKDEV(1, 3));

	/* b: a symlink where a file was, a file where a symlink was, a new deep path, then garbage */
	add(b, "kt_cpio/etc/motd", S_IFLNK | 0777, "issue", 0, 0);
	add(b, "kt_cpio/etc/issue", S_IFREG | 0600, "second\n", 0, 0);
	add(b, "kt_cpio/bin/sh", S_IFREG | 0755, "#!/bin/busybox sh\n", 0, 0);
	owner_uid = 1000; /* as gen_init_cpio's "file NAME SRC MODE 1000 100" */
	owner_gid = 100;
	add(b, "kt_cpio/deep/a/b", S_IFREG | 0644, "x", 0, 0);
	add(b, "kt_cpio/deep/a", S_IFDIR | 0750, NULL, 0, 0); /* there already: its owner changes */
	owner_uid = owner_gid = 0;
	add(b, "sys/kt_cpio", S_IFREG | 0644, "hidden", 0, 0); /* sysfs is mounted there */
	memcpy(b->buf + b->len, "070701garbage", 13);
	b->len += 13;
	KTEST_EXPECT_EQ(t, unpack_to_rootfs(b->buf, b->len, "b.cpio", &st), -EINVAL);
	KTEST_EXPECT_EQ(t, st.unpacked, 5);
	KTEST_EXPECT_EQ(t, st.skipped, 1);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/sys/kt_cpio", 0, &ks), -ENOENT);
	KTEST_EXPECT_EQ(t, t_read("/kt_cpio/etc/motd", buf, sizeof(buf)), 7);
	KTEST_EXPECT_STREQ(t, buf, "second\n");
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/etc/issue", 0, &ks), 0);
	KTEST_EXPECT_EQ(t, ks.mode, S_IFREG | 0600);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/bin/sh", 0, &ks), 0);
	KTEST_EXPECT_TRUE(t, S_ISREG(ks.mode));
	KTEST_EXPECT_EQ(t, t_read("/kt_cpio/bin/busybox", buf, sizeof(buf)), 5);
	KTEST_EXPECT_EQ(t, t_read("/kt_cpio/deep/a/b", buf, sizeof(buf)), 1);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/deep/a/b", 0, &ks), 0);
	KTEST_EXPECT_EQ(t, ks.uid, 1000);
	KTEST_EXPECT_EQ(t, ks.gid, 100);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/deep/a", 0, &ks), 0);
	KTEST_EXPECT_EQ(t, ks.uid, 1000);
	KTEST_EXPECT_EQ(t, ks.gid, 100);
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio/bin/sh", 0, &ks), 0);
	KTEST_EXPECT_EQ(t, ks.uid, 0);
	t_cleanup();
	KTEST_EXPECT_EQ(t, vfs_stat(NULL, "/kt_cpio", 0, &ks), -ENOENT);
	kfree(a);
	kfree(b);
}

static const struct ktest_case cpio_cases[] = {
	KTEST_CASE(cpio_walks_members_in_order),
	KTEST_CASE(cpio_truncated_anywhere_is_an_error),
	KTEST_CASE(cpio_bad_headers_say_why),
	KTEST_CASE(cpio_concatenated_archives_and_callback_errors),
	KTEST_CASE(cpio_unpacks_later_over_earlier),
	KTEST_END,
};

static const struct ktest_suite cpio_suite = {
	.name = "cpio",
	.cases = cpio_cases,
};
KTEST_SUITE(cpio_suite);
