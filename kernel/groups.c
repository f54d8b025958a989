/*
 * groups.c: a process's supplementary groups, as 2.6's kernel/sys.c and
 * uid16.c keep them: setgroups (root only) gives the list, getgroups reads
 * it, fork shares it and in_group_p (<kobold/cred.h>) searches it.
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/uaccess.h>

#define NGROUPS_MAX 65536 /* 2.6's <linux/limits.h> */

struct group_info *get_group_info(struct group_info *gi)
{
	if (gi)
		atomic_add(1, &gi->usage);
	return gi;
}

void put_group_info(struct group_info *gi)
{
	if (gi && atomic_add_return(-1, &gi->usage) == 0)
		kfree(gi);
}

/* Shell sort: the order getgroups reports, and what groups_search halves. */
static void groups_sort(struct group_info *gi)
{
	unsigned int n = gi->ngroups, gap = 1;

	while (gap < n / 3)
		gap = gap * 3 + 1;
	for (; gap; gap /= 3) {
		for (unsigned int i = gap; i < n; i++) {
			unsigned int g = gi->gid[i], j = i;

			for (; j >= gap && gi->gid[j - gap] > g; j -= gap)
				gi->gid[j] = gi->gid[j - gap];
			gi->gid[j] = g;
		}
	}
}

/* n ids from list, each size bytes (2: the 16-bit calls, where 0xffff is -1). */
static struct group_info *groups_from_user(const void __user *list, int n, size_t size, long *err)
{
	struct group_info *gi = kmalloc(sizeof(*gi) + (size_t)n * sizeof(gi->gid[0]));

	*err = -ENOMEM;
	if (!gi)
		return NULL;
	atomic_set(&gi->usage, 1);
	gi->ngroups = (unsigned int)n;
	for (int i = 0; i < n; i++) {
		u16 g16;
		u32 g;

		if (size == 2 ? copy_from_user(&g16, (const u16 __user *)list + i, 2)
			      : copy_from_user(&g, (const u32 __user *)list + i, 4)) {
			kfree(gi);
			*err = -EFAULT;
			return NULL;
		}
		gi->gid[i] = size == 2 ? (g16 == 0xffff ? ~0u : g16) : g;
	}
	groups_sort(gi);
	return gi;
}

static long setgroups(int n, const void __user *list, size_t size)
{
	struct group_info *gi;
	long err;

	if (!fs_capable()) /* CAP_SETGID: root's */
		return -EPERM;
	if ((unsigned int)n > NGROUPS_MAX)
		return -EINVAL;
	gi = groups_from_user(list, n, size, &err);
	if (!gi)
		return err;
	put_group_info(current->user.group_info);
	current->user.group_info = gi;
	return 0;
}

/* The count; with n > 0 the list too, if it fits (else EINVAL). A gid past 16 bits reads 65534. */
static long getgroups(int n, void __user *list, size_t size)
{
	struct group_info *gi = current->user.group_info;
	unsigned int count = gi ? gi->ngroups : 0;

	if (n < 0)
		return -EINVAL;
	if (!n)
		return count;
	if (count > (unsigned int)n)
		return -EINVAL;
	for (unsigned int i = 0; i < count; i++) {
		u32 g = gi->gid[i];
		u16 g16 = g > 0xffff ? 65534 : (u16)g;

		if (size == 2 ? copy_to_user((u16 __user *)list + i, &g16, 2)
			      : copy_to_user((u32 __user *)list + i, &g, 4))
			return -EFAULT;
	}
	return count;
}

long sys_setgroups(int n, const u32 __user *list) { return setgroups(n, list, 4); }
long sys_getgroups(int n, u32 __user *list) { return getgroups(n, list, 4); }
long sys_setgroups16(int n, const u16 __user *list) { return setgroups(n, list, 2); }
long sys_getgroups16(int n, u16 __user *list) { return getgroups(n, list, 2); }
