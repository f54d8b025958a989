/*
 * syscalls.h: the system-call table (kernel/syscall_table.c, by Linux i386's
 * numbers) and what the process code shares: the user registers of a task,
 * fork, exec, exit and wait for the kernel's own callers (init=, the shell).
 */
#ifndef KOBOLD_SYSCALLS_H
#define KOBOLD_SYSCALLS_H

#include <kobold/types.h>
#include <kobold/wait.h>

struct pt_regs;
struct task_struct;

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			     unsigned long, unsigned long);

struct syscall_entry {
	syscall_fn_t fn; /* NULL: not implemented, ENOSYS */
	const char *name;
};

#define NR_syscalls 440
extern const struct syscall_entry sys_call_table[NR_syscalls];
extern char boot_stack_top[];

/* The user registers saved at the top of p's kernel stack. */
struct pt_regs *task_pt_regs(struct task_struct *p);
/* A system call that sleeps lets go of the big kernel lock meanwhile. */
int sys_sleep_begin(void);
void sys_sleep_end(int depth);
/*
 * A process's sleep on wq until cond: 0, or -EINTR once a signal is pending.
 * The big kernel lock is let go meanwhile; cond is checked again by the
 * caller under it.
 */
#define wait_event_user(wq, cond)                         \
	({                                                \
		struct wait_queue_entry __w;              \
		int __r = 0, __depth = sys_sleep_begin(); \
		INIT_LIST_HEAD(&__w.entry);               \
		for (;;) {                                \
			prepare_to_wait(&(wq), &__w);     \
			if (cond)                         \
				break;                    \
			if (user_signal_pending()) {      \
				__r = -EINTR;             \
				break;                    \
			}                                 \
			user_sleep(&__w);                 \
		}                                         \
		finish_wait(&(wq), &__w);                 \
		sys_sleep_end(__depth);                   \
		__r;                                      \
	})
struct wait_queue_entry;
bool user_signal_pending(void);
/* Sleeps (interruptibly) unless the entry was woken or a signal came. */
void user_sleep(struct wait_queue_entry *w);

/* trap_dispatch's last step for a trap from ring 3: the system call, then signals. */
void user_trap_exit(struct pt_regs *regs);
/* Page faults (0: not handled, the kernel oopses) and other traps in ring 3. */
bool do_page_fault(struct pt_regs *regs, unsigned long address);
bool do_user_trap(struct pt_regs *regs);

/* kernel/fork.c, kernel/exit.c, fs/exec.c */
struct task_struct *find_task_by_pid(int pid);
/* The same, counted (put_task_struct when done): it stays valid if the task dies meanwhile. */
struct task_struct *get_task_by_pid(int pid);
/* Turns the running kernel thread into a process running path (init=, the shell's programs). */
int kernel_execve(const char *path, char *const argv[], char *const envp[]);
/* A new process that runs path with argv and the console as stdio; its PID, or -errno. */
int spawn_user_program(const char *path, char *const argv[], char *const envp[]);
/*
 * kernel/usermode.c: a process that will run fn(data) (which execs), its
 * stdio the console, not yet woken (ERR_PTR on failure); then the caller
 * adopts it as its child (autoreap: reaped as it exits, nobody waits).
 */
struct task_struct *user_process_create(int (*fn)(void *data), void *data, const char *name);
void user_process_adopt(struct task_struct *p, bool autoreap);
/* Waits for the child pid of the running (kernel) thread: its wait status, or -errno. */
int kernel_wait(int pid, int *status);
int kernel_wait_nohang(int pid, int *status); /* 0 while it runs */
/* The shell's hook: runs argv[0] from PATH and waits; its status, or -ENOENT if not found. */
int shell_run_program(int argc, char **argv);
bool init_requested(void);
__noreturn void run_init_process(void);
__noreturn void do_exit_user(int status);
/* After the exec is sure: the old address space and the vfork parent go. */
void exec_release_old(struct task_struct *p);
int user_task_init(struct task_struct *p); /* the first process's files, fs, signals */
extern int nr_user_processes;
long do_fork(unsigned long flags, unsigned long newsp, struct pt_regs *regs, u32 parent_tid,
	     u32 child_tid, u32 tls);
/* set_thread_area's work for p, from a struct user_desc at the user address u_info. */
long do_set_thread_area(struct task_struct *p, u32 u_info);
/* switch_to's companion: the next task's page directory, kernel stack, TLS and FPU. */
void switch_user_state(struct task_struct *prev, struct task_struct *next);
/* The task whose exit panics: PID 1 once it is a process. */
bool is_global_init(struct task_struct *p);
/* mm/oom_kill.c: no page for a fault: the largest process is killed. */
void out_of_memory(void);

#endif
