/*
 * base.c: /proc/PID and /proc/self (Linux's fs/proc/base.c and array.c):
 * a directory per process with stat, status, cmdline and maps in Linux's
 * formats (what busybox's ps, top and pidof read), and the exe link;
 * /proc/self links to the reader's own directory; /proc/loadavg.
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/irqflags.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/proc_fs.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>

#define PROC_PID_INO_BASE 0x10000
#define PROC_BUF 4096

enum pid_kind { PID_DIR,
		PID_STAT,
		PID_STATUS,
		PID_CMDLINE,
		PID_MAPS,
		PID_EXE,
		SELF_LINK };

struct proc_pid_node {
	const char *name; /* first, as struct proc_entry: root.c's proc_name reads it */
	void *unused;
	enum pid_kind kind;
	int pid;
	char namebuf[16];
};

static const struct {
	const char *name;
	enum pid_kind kind;
} pid_files[] = { /* sorted */
		  { "cmdline", PID_CMDLINE },
		  { "exe", PID_EXE },
		  { "maps", PID_MAPS },
		  { "stat", PID_STAT },
		  { "status", PID_STATUS }
};

static const struct inode_operations pid_dir_iops, pid_link_iops;
static const struct file_operations pid_dir_fops, pid_file_fops;

static struct proc_pid_node *node_of(struct inode *inode) { return inode->i_private; }

bool proc_pid_inode(struct inode *inode)
{
	return inode->i_fop == &pid_dir_fops || inode->i_fop == &pid_file_fops ||
	       inode->i_op == &pid_link_iops;
}

void proc_pid_evict(struct inode *inode) { kfree(inode->i_private); }

/* Counted: put_task_struct when done. */
static struct task_struct *task_of(int pid) { return get_task_by_pid(pid); }

static struct inode *pid_inode(struct super_block *sb, enum pid_kind kind, int pid,
			       const char *name)
{
	struct inode *inode = kzalloc(sizeof(*inode));
	struct proc_pid_node *n = kzalloc(sizeof(*n));

	if (!inode || !n) {
		kfree(inode);
		kfree(n);
		return NULL;
	}
	n->kind = kind;
	n->pid = pid;
	strscpy(n->namebuf, name, sizeof(n->namebuf));
	n->name = n->namebuf;
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_private = n;
	inode->i_ino = PROC_PID_INO_BASE + (unsigned long)pid * 8 + kind;
	inode->i_nlink = 1;
	if (kind == PID_DIR) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &pid_dir_iops;
		inode->i_fop = &pid_dir_fops;
	} else if (kind == PID_EXE || kind == SELF_LINK) {
		inode->i_mode = S_IFLNK | 0777;
		inode->i_op = &pid_link_iops;
		inode->i_fop = &pid_file_fops;
	} else {
		inode->i_mode = S_IFREG | 0444;
		inode->i_fop = &pid_file_fops;
	}
	return inode;
}

static bool parse_pid(const char *s, int *pid)
{
	int v = 0;

	if (!*s || *s == '0')
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 1000000)
			return false;
		v = v * 10 + (*s - '0');
	}
	*pid = v;
	return true;
}

/* /proc's names beyond its fixed files: "self" and a directory per process. */
int proc_pid_lookup(struct inode *dir, const char *name, struct inode **out)
{
	int pid;

	if (strcmp(name, "self") == 0)
		*out = pid_inode(dir->i_sb, SELF_LINK, 0, "self");
	else if (parse_pid(name, &pid) && find_task_by_pid(pid))
		*out = pid_inode(dir->i_sb, PID_DIR, pid, name);
	else
		return -ENOENT;
	return *out ? 0 : -ENOMEM;
}

/* The first of "self" and the PIDs (as text) that sorts after `after`: 1, or 0. */
int proc_pid_readdir(const char *after, struct vfs_dirent *out)
{
	unsigned long flags;
	struct task_struct *p;
	char name[16];
	bool found = false;

	if (!after || strcmp("self", after) > 0) {
		strscpy(out->name, "self", sizeof(out->name));
		out->type = S_IFLNK;
		found = true;
	}
	flags = local_irq_save(); /* the list changes at a task's last switch */
	list_for_each_entry(p, &task_list, tasks) {
		scnprintf(name, sizeof(name), "%d", p->pid);
		if ((!after || strcmp(name, after) > 0) && (!found || strcmp(name, out->name) < 0)) {
			strscpy(out->name, name, sizeof(out->name));
			out->type = S_IFDIR;
			found = true;
		}
	}
	local_irq_restore(flags);
	return found;
}

static int pid_dir_lookup(struct inode *dir, const char *name, struct inode **out)
{
	for (size_t i = 0; i < ARRAY_SIZE(pid_files); i++) {
		if (strcmp(pid_files[i].name, name) == 0) {
			*out = pid_inode(dir->i_sb, pid_files[i].kind, node_of(dir)->pid, name);
			return *out ? 0 : -ENOMEM;
		}
	}
	return -ENOENT;
}

static int pid_dir_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(pid_files); i++) {
		if (!after || strcmp(pid_files[i].name, after) > 0) {
			strscpy(out->name, pid_files[i].name, sizeof(out->name));
			out->type = pid_files[i].kind == PID_EXE ? S_IFLNK : S_IFREG;
			return 1;
		}
	}
	return 0;
}

static int pid_readlink(struct inode *inode, char *buf, size_t size)
{
	struct proc_pid_node *n = node_of(inode);
	struct task_struct *p;
	int len;

	if (n->kind == SELF_LINK) {
		if (!current->user.sighand)
			return -ENOENT; /* a kernel thread has no /proc/self, as Linux's */
		return scnprintf(buf, size, "%d", current->user.tgid);
	}
	p = task_of(n->pid);
	if (!p)
		return -ENOENT;
	len = p->user.mm && p->user.mm->exe_path ? (int)strscpy(buf, p->user.mm->exe_path, size)
						 : -ENOENT;
	put_task_struct(p);
	return len;
}

static char task_state(const struct task_struct *p)
{
	if (p->user.exit_state)
		return 'Z';
	if (p->user.stopped)
		return 'T';
	if (p->state == TASK_RUNNING)
		return 'R';
	return p->state == TASK_UNINTERRUPTIBLE ? 'D' : 'S';
}

static const char *state_name(char s)
{
	return s == 'R' ? "running" : s == 'D' ? "disk sleep"
			      : s == 'Z'       ? "zombie"
			      : s == 'T'       ? "stopped"
					       : "sleeping";
}

static int ppid_of(const struct task_struct *p)
{
	return p->user.parent ? p->user.parent->pid : p->pid == 1 || p->pid == 2 ? 0
										 : 2;
}

static unsigned long vm_pages(struct mm_struct *mm)
{
	struct vm_area_struct *v;
	unsigned long n = 0;

	if (!mm)
		return 0;
	list_for_each_entry(v, &mm->mmap, vm_list)
		n += (v->vm_end - v->vm_start) >> PAGE_SHIFT;
	return n;
}

/* Linux 2.6's do_task_stat: the fields up to policy, in their order. */
static size_t show_stat(struct task_struct *p, char *buf, size_t size)
{
	struct mm_struct *mm = p->user.mm;
	unsigned long ut = p->utime * USER_HZ / HZ, st = p->stime * USER_HZ / HZ;

	return scnprintf(buf, size,
			 "%d (%s) %c %d %d %d 0 -1 %u 0 0 0 0 %lu %lu 0 0 20 0 1 0 %lu %lu %lu "
			 "4294967295 %lu %lu %lu 0 0 %lu %lu 0 0 0 0 0 17 %u 0 0\n",
			 p->pid, p->comm, task_state(p), ppid_of(p), p->user.pgrp,
			 p->user.session, p->flags & PF_KTHREAD ? 0x00200040u : 0x00400000u, ut,
			 st, p->user.start_time * 100 / HZ, vm_pages(mm) * PAGE_SIZE,
			 mm ? mm->rss : 0, mm ? mm->start_code : 0, mm ? mm->end_code : 0,
			 mm ? mm->start_stack : 0, (unsigned long)(p->user.pending & 0xffffffff),
			 (unsigned long)(p->user.blocked & 0xffffffff), p->cpu);
}

/* 2.6.15's Groups line: the first 32 supplementary groups, each with a space after it. */
static size_t show_groups(const struct group_info *gi, char *buf, size_t size)
{
	size_t n = scnprintf(buf, size, "Groups:\t");

	for (unsigned int i = 0; gi && i < gi->ngroups && i < 32; i++)
		n += scnprintf(buf + n, size - n, "%u ", gi->gid[i]);
	return n + scnprintf(buf + n, size - n, "\n");
}

static size_t show_status(struct task_struct *p, char *buf, size_t size)
{
	struct mm_struct *mm = p->user.mm;
	char s = task_state(p);
	size_t n;

	n = scnprintf(buf, size,
		      "Name:\t%s\nState:\t%c (%s)\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n"
		      "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n",
		      p->comm, s, state_name(s), p->user.tgid ? p->user.tgid : p->pid, p->pid,
		      ppid_of(p), p->user.uid, p->user.euid, p->user.euid, p->user.euid,
		      p->user.gid, p->user.egid, p->user.egid, p->user.egid);
	n += show_groups(p->user.group_info, buf + n, size - n);
	if (mm)
		n += scnprintf(buf + n, size - n, "VmSize:\t%8lu kB\nVmRSS:\t%8lu kB\n",
			       vm_pages(mm) * 4, mm->rss * 4);
	n += scnprintf(buf + n, size - n, "Threads:\t1\nSigPnd:\t%016llx\nSigBlk:\t%016llx\n",
		       (unsigned long long)p->user.pending, (unsigned long long)p->user.blocked);
	return n;
}

static size_t show_cmdline(struct task_struct *p, char *buf, size_t size)
{
	struct mm_struct *mm = p->user.mm;

	if (!mm || mm->arg_end <= mm->arg_start)
		return 0; /* a kernel thread's is empty */
	return (size_t)access_process_vm(mm, mm->arg_start, buf,
					 min(size, (size_t)(mm->arg_end - mm->arg_start)));
}

/* Linux 2.6's show_map: "start-end perms offset dev inode" then the name at column 50. */
static size_t show_maps(struct task_struct *p, char *buf, size_t size)
{
	struct vm_area_struct *v;
	size_t n = 0;

	if (!p->user.mm)
		return 0;
	list_for_each_entry(v, &p->user.mm->mmap, vm_list) {
		size_t start = n;

		n += scnprintf(buf + n, size - n, "%08lx-%08lx %c%c%c%c %08lx 00:00 0 ", v->vm_start,
			       v->vm_end, v->vm_flags & VM_READ ? 'r' : '-',
			       v->vm_flags & VM_WRITE ? 'w' : '-', v->vm_flags & VM_EXEC ? 'x' : '-',
			       v->vm_flags & VM_SHARED ? 's' : 'p', v->vm_pgoff << PAGE_SHIFT);
		if (v->vm_name)
			n += scnprintf(buf + n, size - n, "%*s%s", (int)(49 - (n - start) > 0 ? 49 - (n - start) : 1), "",
				       v->vm_name);
		n += scnprintf(buf + n, size - n, "\n");
	}
	return n;
}

struct pid_snapshot {
	size_t len;
	char text[PROC_BUF];
};

static int pid_file_open(struct inode *inode, struct file *file)
{
	struct proc_pid_node *nd = node_of(inode);
	struct task_struct *p = task_of(nd->pid);
	struct pid_snapshot *s;

	if (!p)
		return -ESRCH;
	s = kzalloc(sizeof(*s));
	if (!s) {
		put_task_struct(p);
		return -ENOMEM;
	}
	if (nd->kind == PID_STAT)
		s->len = show_stat(p, s->text, sizeof(s->text));
	else if (nd->kind == PID_STATUS)
		s->len = show_status(p, s->text, sizeof(s->text));
	else if (nd->kind == PID_CMDLINE)
		s->len = show_cmdline(p, s->text, sizeof(s->text));
	else if (nd->kind == PID_MAPS)
		s->len = show_maps(p, s->text, sizeof(s->text));
	put_task_struct(p);
	file->private_data = s;
	return 0;
}

static ssize_t pid_file_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct pid_snapshot *s = file->private_data;

	if (*pos >= (loff_t)s->len)
		return 0;
	n = min(n, s->len - (size_t)*pos);
	memcpy(buf, s->text + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static int pid_file_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct inode_operations pid_dir_iops = { .lookup = pid_dir_lookup };
static const struct inode_operations pid_link_iops = { .readlink = pid_readlink };
static const struct file_operations pid_dir_fops = { .readdir = pid_dir_readdir };
static const struct file_operations pid_file_fops = {
	.open = pid_file_open,
	.read = pid_file_read,
	.release = pid_file_release,
};

/* /proc/loadavg: Kobold keeps no load average; the runnable and total counts and the last PID are real. */
size_t proc_show_loadavg(char *buf, size_t size)
{
	struct task_struct *p;
	unsigned long flags = local_irq_save();
	int total = 0, running = 0, last = 0;

	list_for_each_entry(p, &task_list, tasks) {
		total++;
		running += p->state == TASK_RUNNING;
		last = max(last, p->pid);
	}
	local_irq_restore(flags);
	return scnprintf(buf, size, "0.00 0.00 0.00 %d/%d %d\n", running, total, last);
}
