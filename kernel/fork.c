/*
 * fork.c: new processes (Linux's kernel/fork.c). A child is a thread made
 * by create_thread whose first act is to return to user space with a copy
 * of its parent's registers (eax 0); its address space is a copy-on-write
 * copy (CLONE_VM: the same one, as vfork's), its files and handlers copies
 * or shared by the clone flags glibc and busybox use.
 */
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <kobold/completion.h>
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/fdtable.h>
#include <kobold/mm_types.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/uaccess.h>

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000
#define MAX_PROCESSES 512 /* threads-max for Kobold's memory */

int nr_user_processes;

struct fork_start {
	struct pt_regs regs;
	u32 set_child_tid; /* CLONE_CHILD_SETTID: written in the child's own memory */
};

/*
 * A task leaves task_list and is freed at its last switch, which takes no
 * lock: a walk of the list runs with interrupts off (no switch meanwhile).
 */
struct task_struct *find_task_by_pid(int pid)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p, *found = NULL;

	list_for_each_entry(p, &task_list, tasks) {
		if (p->pid == pid) {
			found = p;
			break;
		}
	}
	local_irq_restore(flags);
	return found;
}

struct task_struct *get_task_by_pid(int pid)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p = find_task_by_pid(pid);

	if (p)
		get_task_struct(p);
	local_irq_restore(flags);
	return p;
}

static void init_children(struct task_struct *p)
{
	if (!p->user.children.next)
		INIT_LIST_HEAD(&p->user.children);
}

/* The child's first code: into ring 3 with its parent's registers. */
static int ret_from_fork(void *data)
{
	struct fork_start *start = data;
	struct pt_regs regs = start->regs;
	u32 tidptr = start->set_child_tid;

	kfree(start);
	if (tidptr)
		put_user(current->pid, (int __user *)tidptr);
	regs.vector = 0;
	user_trap_exit(&regs); /* a signal already pending, a reschedule */
	start_user(&regs);
}

static int fpu_alloc(struct task_struct *p)
{
	p->user.fpu_alloc = kmalloc(512 + 16);
	if (!p->user.fpu_alloc)
		return -ENOMEM;
	p->user.fpu = (void *)ALIGN_UP((unsigned long)p->user.fpu_alloc, 16);
	return 0;
}

static int count_user_processes(unsigned int uid)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p;
	int n = 0;

	list_for_each_entry(p, &task_list, tasks)
		if (p->user.mm && p->user.uid == uid)
			n++;
	local_irq_restore(flags);
	return n;
}

static int copy_process_state(struct task_struct *p, unsigned long flags)
{
	struct user_task *u = &p->user, *pu = &current->user;

	u->mm = flags & CLONE_VM ? pu->mm : dup_mm(pu->mm);
	if (flags & CLONE_VM)
		pu->mm->users++;
	u->files = flags & CLONE_FILES ? pu->files : dup_files(pu->files);
	if (u->files && (flags & CLONE_FILES))
		u->files->count++;
	u->sighand = flags & CLONE_SIGHAND ? pu->sighand : sighand_alloc(pu->sighand);
	if (u->sighand && (flags & CLONE_SIGHAND))
		u->sighand->count++;
	u->fs = kzalloc(sizeof(*u->fs));
	if (!u->mm || !u->files || !u->sighand || !u->fs || fpu_alloc(p))
		return -ENOMEM;
	u->fs->count = 1;
	u->fs->pwd = pu->fs->pwd;
	path_get(&u->fs->pwd);
	u->fs->umask = pu->fs->umask;
	return 0;
}

/* Frees what copy_process_state made, for a fork that failed. */
static void undo_process_state(struct task_struct *p)
{
	struct user_task *u = &p->user;

	mmput(u->mm);
	put_files(u->files);
	if (u->sighand)
		sighand_put(u->sighand);
	if (u->fs) {
		path_put(&u->fs->pwd);
		kfree(u->fs);
	}
	kfree(u->fpu_alloc);
}

static void copy_identity(struct task_struct *p, unsigned long flags)
{
	struct user_task *u = &p->user, *pu = &current->user;

	memcpy(u->tls_array, pu->tls_array, sizeof(u->tls_array));
	__asm__ volatile("fxsave (%0)" : : "r"(u->fpu) : "memory"); /* the parent's live state */
	u->blocked = pu->blocked;
	u->tgid = flags & CLONE_THREAD ? pu->tgid : p->pid;
	u->pgrp = pu->pgrp;
	u->session = pu->session;
	u->uid = pu->uid;
	u->euid = pu->euid;
	u->gid = pu->gid;
	u->egid = pu->egid;
	u->group_info = get_group_info(pu->group_info);
	u->nproc_limit = pu->nproc_limit;
	u->start_time = jiffies;
	u->parent = flags & CLONE_PARENT && pu->parent ? pu->parent : current;
	init_children(p);
	init_children(u->parent);
	list_add_tail(&u->sibling, &u->parent->user.children);
}

static int fork_allowed(void)
{
	struct user_task *u = &current->user;

	if (nr_user_processes >= MAX_PROCESSES)
		return -EAGAIN;
	if (u->uid != 0 && count_user_processes(u->uid) >= (int)u->nproc_limit)
		return -EAGAIN; /* RLIMIT_NPROC; root is exempt, as in Linux */
	return 0;
}

long do_fork(unsigned long flags, unsigned long newsp, struct pt_regs *regs, u32 parent_tid,
	     u32 child_tid, u32 tls)
{
	struct fork_start *start;
	struct completion vfork;
	struct task_struct *p;
	int err = fork_allowed(), pid;

	if (err)
		return err;
	start = kmalloc(sizeof(*start));
	if (!start)
		return -ENOMEM;
	start->regs = *regs;
	start->regs.eax = 0;
	if (newsp)
		start->regs.esp = newsp;
	start->set_child_tid = flags & CLONE_CHILD_SETTID ? child_tid : 0;
	p = create_thread(ret_from_fork, start, current->comm);
	if (!p) {
		kfree(start);
		return -ENOMEM;
	}
	p->flags = 0;
	err = copy_process_state(p, flags);
	if (err) {
		undo_process_state(p);
		kfree(start);
		task_list_del(p);
		put_task_struct(p);
		return err;
	}
	copy_identity(p, flags);
	get_task_struct(p); /* the parent's, dropped when it reaps the child */
	nr_user_processes++;
	pid = p->pid;
	if (flags & CLONE_SETTLS)
		do_set_thread_area(p, tls);
	if (flags & CLONE_CHILD_CLEARTID)
		p->user.clear_child_tid = child_tid;
	if (flags & CLONE_PARENT_SETTID)
		put_user(pid, (int __user *)parent_tid);
	if (flags & CLONE_VFORK) {
		init_completion(&vfork);
		p->user.vfork_done = &vfork;
	}
	wake_up_process(p);
	if (flags & CLONE_VFORK) {
		int depth = sys_sleep_begin();

		wait_for_completion(&vfork);
		sys_sleep_end(depth);
	}
	return pid;
}

long sys_fork(void) { return do_fork(17 /* SIGCHLD */, 0, task_pt_regs(current), 0, 0, 0); }

long sys_vfork(void)
{
	return do_fork(CLONE_VFORK | CLONE_VM | 17, 0, task_pt_regs(current), 0, 0, 0);
}

/* i386's argument order: flags, stack, parent_tid, tls, child_tid. */
long sys_clone(unsigned long flags, unsigned long newsp, u32 parent_tid, u32 tls, u32 child_tid)
{
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	return do_fork(flags, newsp, task_pt_regs(current), parent_tid, child_tid, tls);
}

/* The first process (init=, or the shell's child): files, cwd "/", handlers, FPU. */
int user_task_init(struct task_struct *p)
{
	struct user_task *u = &p->user;

	u->files = files_alloc();
	u->sighand = sighand_alloc(NULL);
	u->fs = kzalloc(sizeof(*u->fs));
	if (!u->files || !u->sighand || !u->fs || fpu_alloc(p))
		return -ENOMEM;
	u->fs->count = 1;
	u->fs->umask = 022;
	vfs_root(&u->fs->pwd);
	u->tgid = p->pid;
	u->pgrp = p->pid;
	u->session = p->pid;
	u->nproc_limit = 1024;
	u->start_time = jiffies;
	init_children(p);
	__asm__ volatile("fninit\n\tfxsave (%0)" : : "r"(u->fpu) : "memory");
	return 0;
}
