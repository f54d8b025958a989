/* fdtable_test.c: a process's open files by number: lowest free fd, dup's shared files, close-on-exec, fork's copy. */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>

static int released;

static int count_release(struct inode *inode, struct file *file)
{
	released++;
	return 0;
}

static const struct file_operations test_fops = { .release = count_release };

static struct file *new_file(void)
{
	struct file *f = kzalloc(sizeof(*f));

	if (f)
		f->f_op = &test_fops;
	return f;
}

static void fdtable_lowest_free_number(struct ktest *t)
{
	struct files_struct *fs = files_alloc();

	KTEST_ASSERT_TRUE(t, fs != NULL);
	released = 0;
	KTEST_EXPECT_EQ(t, fd_install_from(fs, new_file(), 0, false), 0);
	KTEST_EXPECT_EQ(t, fd_install_from(fs, new_file(), 0, false), 1);
	KTEST_EXPECT_EQ(t, fd_install_from(fs, new_file(), 0, false), 2);
	KTEST_EXPECT_EQ(t, fd_close(fs, 1), 0);
	KTEST_EXPECT_EQ(t, released, 1);
	KTEST_EXPECT_EQ(t, fd_close(fs, 1), -EBADF);
	KTEST_EXPECT_EQ(t, fd_install_from(fs, new_file(), 0, false), 1);
	KTEST_EXPECT_EQ(t, fd_install_from(fs, new_file(), 10, false), 10);
	KTEST_EXPECT_PTR_EQ(t, fget(fs, 9), NULL);
	KTEST_EXPECT_PTR_EQ(t, fget(fs, -1), NULL);
	put_files(fs);
	KTEST_EXPECT_EQ(t, released, 5);
}

static void fdtable_dup_shares_until_last_close(struct ktest *t)
{
	struct files_struct *fs = files_alloc();
	struct file *f = new_file();

	KTEST_ASSERT_TRUE(t, fs != NULL && f != NULL);
	released = 0;
	fd_install_from(fs, f, 0, false);
	KTEST_EXPECT_EQ(t, fd_replace(fs, 7, get_file(f), true), 7);
	KTEST_EXPECT_TRUE(t, fd_get_cloexec(fs, 7));
	KTEST_EXPECT_FALSE(t, fd_get_cloexec(fs, 0));
	KTEST_EXPECT_EQ(t, fd_close(fs, 0), 0);
	KTEST_EXPECT_EQ(t, released, 0); /* fd 7 still holds it */
	close_on_exec(fs);
	KTEST_EXPECT_EQ(t, released, 1);
	KTEST_EXPECT_PTR_EQ(t, fget(fs, 7), NULL);
	put_files(fs);
}

static void fdtable_fork_copy_holds_its_own_references(struct ktest *t)
{
	struct files_struct *parent = files_alloc(), *child;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	released = 0;
	fd_install_from(parent, new_file(), 0, false);
	fd_install_from(parent, new_file(), 0, true);
	child = dup_files(parent);
	KTEST_ASSERT_TRUE(t, child != NULL);
	KTEST_EXPECT_PTR_EQ(t, fget(child, 1), fget(parent, 1));
	KTEST_EXPECT_TRUE(t, fd_get_cloexec(child, 1));
	put_files(parent);
	KTEST_EXPECT_EQ(t, released, 0);
	put_files(child);
	KTEST_EXPECT_EQ(t, released, 2);
}

static void fdtable_full_table_is_emfile(struct ktest *t)
{
	struct files_struct *fs = files_alloc();
	struct file *f = new_file();

	KTEST_ASSERT_TRUE(t, fs != NULL && f != NULL);
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		fs->fd[i] = f; /* every slot taken (the same file: not closed below) */
	KTEST_EXPECT_EQ(t, fd_install_from(fs, f, 0, false), -EMFILE);
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		fs->fd[i] = NULL;
	kfree(f);
	put_files(fs);
}

static const struct ktest_case fdtable_cases[] = {
	KTEST_CASE(fdtable_lowest_free_number),
	KTEST_CASE(fdtable_dup_shares_until_last_close),
	KTEST_CASE(fdtable_fork_copy_holds_its_own_references),
	KTEST_CASE(fdtable_full_table_is_emfile),
	KTEST_END,
};

static const struct ktest_suite fdtable_suite = {
	.name = "fdtable",
	.cases = fdtable_cases,
};
KTEST_SUITE(fdtable_suite);
