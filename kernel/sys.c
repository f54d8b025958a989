/*
 * sys.c: the small system calls (Linux's kernel/sys.c, time.c, sched.c):
 * identity, process groups and sessions, uname, rlimits, time and sleep,
 * random bytes, reboot.
 */
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/mm.h>
#include <kobold/random.h>
#include <kobold/reboot.h>
#include <kobold/rtc.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/uaccess.h>
#include <kobold/version.h>

#define RLIMIT_NPROC 6
#define RLIM_INFINITY (~0UL)
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define TIMER_ABSTIME 1
#define NSEC_PER_SEC 1000000000ULL

long sys_getpid(void) { return current->user.tgid; }
long sys_gettid(void) { return current->pid; }
long sys_getppid(void)
{
	struct task_struct *p = current->user.parent;

	return p ? p->pid : 0;
}
long sys_getuid(void) { return current->user.uid; }
long sys_geteuid(void) { return current->user.euid; }
long sys_getgid(void) { return current->user.gid; }
long sys_getegid(void) { return current->user.egid; }

long sys_getresuid(u32 __user *r, u32 __user *e, u32 __user *s)
{
	if (put_user(current->user.uid, r) || put_user(current->user.euid, e) ||
	    put_user(current->user.euid, s))
		return -EFAULT;
	return 0;
}

long sys_getresgid(u32 __user *r, u32 __user *e, u32 __user *s)
{
	if (put_user(current->user.gid, r) || put_user(current->user.egid, e) ||
	    put_user(current->user.egid, s))
		return -EFAULT;
	return 0;
}

long sys_setuid(unsigned int uid)
{
	if (current->user.euid != 0 && uid != current->user.uid)
		return -EPERM;
	current->user.uid = current->user.euid = uid;
	return 0;
}

long sys_setgid(unsigned int gid)
{
	if (current->user.euid != 0 && gid != current->user.gid)
		return -EPERM;
	current->user.gid = current->user.egid = gid;
	return 0;
}

long sys_setpgid(int pid, int pgid)
{
	unsigned long flags = local_irq_save(); /* p cannot go meanwhile */
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;
	long err = 0;

	if (pgid < 0)
		err = -EINVAL;
	else if (!p || !p->user.mm || (p != current && p->user.parent != current))
		err = -ESRCH;
	else
		p->user.pgrp = pgid ? pgid : p->pid;
	local_irq_restore(flags);
	return err;
}

long sys_getpgid(int pid)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;
	long r = p && p->user.sighand ? p->user.pgrp : -ESRCH;

	local_irq_restore(flags);
	return r;
}

long sys_getpgrp(void) { return current->user.pgrp; }

long sys_getsid(int pid)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;
	long r = p && p->user.sighand ? p->user.session : -ESRCH;

	local_irq_restore(flags);
	return r;
}

long sys_setsid(void)
{
	if (current->user.pgrp == current->pid)
		return -EPERM;
	current->user.session = current->user.pgrp = current->pid;
	return current->pid;
}

long sys_set_tid_address(u32 tidptr)
{
	current->user.clear_child_tid = tidptr;
	return current->pid;
}

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

long sys_newuname(struct new_utsname __user *name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strscpy(u.sysname, "Linux", sizeof(u.sysname)); /* what programs test for, as Linux's ABI */
	strscpy(u.nodename, "kobold", sizeof(u.nodename));
	strscpy(u.release, "2.6.0-kobold-" KOBOLD_VERSION, sizeof(u.release));
	strscpy(u.version, "#1 Kobold", sizeof(u.version));
	strscpy(u.machine, "i686", sizeof(u.machine));
	strscpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

struct rlimit {
	u32 cur, max;
};

long sys_getrlimit(unsigned int res, struct rlimit __user *r)
{
	struct rlimit l = { (u32)RLIM_INFINITY, (u32)RLIM_INFINITY };

	if (res >= 16)
		return -EINVAL;
	if (res == RLIMIT_NPROC)
		l.cur = l.max = (u32)current->user.nproc_limit;
	if (res == 7) /* RLIMIT_NOFILE */
		l.cur = l.max = 256;
	if (res == 3) /* RLIMIT_STACK */
		l.cur = l.max = 8 << 20;
	return copy_to_user(r, &l, sizeof(l)) ? -EFAULT : 0;
}

long sys_setrlimit(unsigned int res, const struct rlimit __user *r)
{
	struct rlimit l;

	if (res >= 16)
		return -EINVAL;
	if (copy_from_user(&l, r, sizeof(l)))
		return -EFAULT;
	if (res == RLIMIT_NPROC)
		current->user.nproc_limit = l.cur;
	return 0;
}

long sys_prlimit64(int pid, unsigned int res, const u64 __user *newl, u64 __user *oldl)
{
	u64 l[2] = { ~0ULL, ~0ULL };

	if (res >= 16)
		return -EINVAL;
	if (pid && pid != current->pid)
		return -ESRCH;
	if (res == RLIMIT_NPROC)
		l[0] = l[1] = current->user.nproc_limit;
	if (res == 7)
		l[0] = l[1] = 256;
	if (res == 3)
		l[0] = l[1] = 8 << 20;
	if (oldl && copy_to_user(oldl, l, sizeof(l)))
		return -EFAULT;
	if (newl) {
		if (copy_from_user(l, newl, sizeof(l)))
			return -EFAULT;
		if (res == RLIMIT_NPROC)
			current->user.nproc_limit = (unsigned long)min(l[0], (u64)~0UL);
	}
	return 0;
}

/* The wall clock: the CMOS clock read once, then the monotonic clock since. */
static u64 realtime_ns(void)
{
	static u64 boot_epoch_ns;
	struct rtc_time tm;

	if (!boot_epoch_ns && cmos_read_time(&tm) == 0)
		boot_epoch_ns = rtc_tm_to_time(&tm) * NSEC_PER_SEC - ktime_get_ns();
	return boot_epoch_ns + ktime_get_ns();
}

unsigned long boot_time_seconds(void) { return (unsigned long)((realtime_ns() - ktime_get_ns()) / NSEC_PER_SEC); }

static int clock_ns(int which, u64 *ns)
{
	switch (which) {
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_COARSE:
		*ns = realtime_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME:
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = (u64)(current->utime + current->stime) * (NSEC_PER_SEC / HZ);
		return 0;
	default:
		return -EINVAL;
	}
}

struct timespec64 {
	s64 tv_sec;
	s32 tv_nsec, pad;
};
struct timespec32 {
	s32 tv_sec, tv_nsec;
};

long sys_clock_gettime(int which, struct timespec64 __user *tp)
{
	struct timespec64 t = { 0 };
	u64 ns;
	int err = clock_ns(which, &ns);

	if (err)
		return err;
	t.tv_sec = (s64)(ns / NSEC_PER_SEC);
	t.tv_nsec = (s32)(ns % NSEC_PER_SEC);
	return copy_to_user(tp, &t, 12) ? -EFAULT : 0;
}

long sys_clock_gettime32(int which, struct timespec32 __user *tp)
{
	struct timespec32 t;
	u64 ns;
	int err = clock_ns(which, &ns);

	if (err)
		return err;
	t.tv_sec = (s32)(ns / NSEC_PER_SEC);
	t.tv_nsec = (s32)(ns % NSEC_PER_SEC);
	return copy_to_user(tp, &t, sizeof(t)) ? -EFAULT : 0;
}

long sys_clock_getres(int which, struct timespec64 __user *tp)
{
	struct timespec64 t = { 0, 1, 0 };
	u64 ns;

	if (clock_ns(which, &ns))
		return -EINVAL;
	return tp && copy_to_user(tp, &t, 12) ? -EFAULT : 0;
}

long sys_clock_getres32(int which, struct timespec32 __user *tp)
{
	struct timespec32 t = { 0, 1 };
	u64 ns;

	if (clock_ns(which, &ns))
		return -EINVAL;
	return tp && copy_to_user(tp, &t, sizeof(t)) ? -EFAULT : 0;
}

long sys_gettimeofday(s32 __user *tv, void __user *tz)
{
	u64 ns = realtime_ns();
	s32 t[2] = { (s32)(ns / NSEC_PER_SEC), (s32)(ns % NSEC_PER_SEC / 1000) };

	if (tv && copy_to_user(tv, t, sizeof(t)))
		return -EFAULT;
	if (tz && clear_user(tz, 8))
		return -EFAULT;
	return 0;
}

long sys_time(s32 __user *tloc)
{
	s32 t = (s32)(realtime_ns() / NSEC_PER_SEC);

	if (tloc && put_user(t, tloc))
		return -EFAULT;
	return t;
}

/*
 * Sleeps until the monotonic clock reaches deadline: 0, or, woken by a signal,
 * -ERESTART_RESTARTBLOCK with the time left: EINTR if a handler runs, else
 * restart_syscall sleeps on to the same deadline (a stop and SIGCONT), as
 * 2.6.15's nanosleep_restart and clock_nanosleep_restart.
 */
static long sleep_until(u64 deadline, u64 *left)
{
	u64 now;
	int depth;

	while ((now = ktime_get_ns()) < deadline) {
		if (user_signal_pending()) {
			*left = deadline - now;
			current->user.restart_deadline = deadline;
			return -ERESTART_RESTARTBLOCK;
		}
		u64 ticks = (deadline - now) / (NSEC_PER_SEC / HZ) + 1;

		depth = sys_sleep_begin();
		/* a sleep of years is slept in pieces: a tick count a long holds */
		schedule_timeout_interruptible(ticks < LONG_MAX / 2 ? (long)ticks : LONG_MAX / 2);
		sys_sleep_end(depth);
	}
	return 0;
}

/* a + b nanoseconds, held at the largest u64 (for ever, in effect) rather than wrapping. */
static u64 add_ns(u64 a, u64 b) { return b > ~0ull - a ? ~0ull : a + b; }

static u64 timespec_ns(s64 sec, s64 nsec)
{
	return (u64)sec > ~0ull / NSEC_PER_SEC - 1 ? ~0ull : (u64)sec * NSEC_PER_SEC + (u64)nsec;
}

static long do_nanosleep(s64 sec, s64 nsec, int flags, int which, u64 *left)
{
	u64 now, t;

	*left = 0;
	if (sec < 0 || nsec < 0 || nsec >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	if (clock_ns(which, &now))
		return -EINVAL;
	t = timespec_ns(sec, nsec);
	if (flags & TIMER_ABSTIME)
		t = t > now ? t - now : 0;
	return sleep_until(add_ns(ktime_get_ns(), t), left);
}

/*
 * An interrupted sleep's time left, to rmtp (if any) now and again at each
 * restart that is interrupted too, as 2.6's restart_block->arg1.
 */
static long put_time_left(void __user *rmtp, bool ts64, long err, u64 left)
{
	struct timespec64 t64 = { (s64)(left / NSEC_PER_SEC), (s32)(left % NSEC_PER_SEC), 0 };
	struct timespec32 t32 = { (s32)t64.tv_sec, (s32)t64.tv_nsec };

	current->user.restart_rmtp = rmtp;
	current->user.restart_rmtp64 = ts64;
	if (err != -ERESTART_RESTARTBLOCK || !rmtp)
		return err;
	if (ts64 ? copy_to_user(rmtp, &t64, 12) : copy_to_user(rmtp, &t32, sizeof(t32)))
		return -EFAULT;
	return err;
}

long sys_nanosleep(const struct timespec32 __user *rqtp, struct timespec32 __user *rmtp)
{
	struct timespec32 t;
	u64 left;
	long err;

	if (copy_from_user(&t, rqtp, sizeof(t)))
		return -EFAULT;
	err = do_nanosleep(t.tv_sec, t.tv_nsec, 0, CLOCK_MONOTONIC, &left);
	return put_time_left(rmtp, false, err, left);
}

/* An absolute sleep writes no time left, as 2.6.15's common_nsleep. */
long sys_clock_nanosleep32(int which, int flags, const struct timespec32 __user *rqtp,
			   struct timespec32 __user *rmtp)
{
	struct timespec32 t;
	u64 left;
	long err;

	if (copy_from_user(&t, rqtp, sizeof(t)))
		return -EFAULT;
	err = do_nanosleep(t.tv_sec, t.tv_nsec, flags, which, &left);
	return put_time_left(flags & TIMER_ABSTIME ? NULL : rmtp, false, err, left);
}

long sys_clock_nanosleep(int which, int flags, const struct timespec64 __user *rqtp,
			 struct timespec64 __user *rmtp)
{
	struct timespec64 t = { 0 };
	u64 left;
	long err;

	if (copy_from_user(&t, rqtp, 12))
		return -EFAULT;
	err = do_nanosleep(t.tv_sec, t.tv_nsec, flags, which, &left);
	return put_time_left(flags & TIMER_ABSTIME ? NULL : rmtp, true, err, left);
}

long sys_restart_syscall(void)
{
	u64 left;
	long err = sleep_until(current->user.restart_deadline, &left);

	return put_time_left(current->user.restart_rmtp, current->user.restart_rmtp64, err, left);
}

long sys_sched_yield(void)
{
	int depth = sys_sleep_begin();

	yield();
	sys_sleep_end(depth);
	return 0;
}

long sys_getrandom(char __user *buf, size_t count, unsigned int flags)
{
	u8 k[256];
	size_t done = 0;

	if (flags & ~7u)
		return -EINVAL;
	while (done < count) {
		size_t n = min(count - done, sizeof(k));

		get_random_bytes(k, n);
		if (copy_to_user(buf + done, k, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_CMD_RESTART 0x01234567
#define LINUX_REBOOT_CMD_HALT 0xCDEF0123
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321FEDC

long sys_reboot(unsigned int magic1, unsigned int magic2, unsigned int cmd)
{
	if (magic1 != LINUX_REBOOT_MAGIC1)
		return -EINVAL;
	if (current->user.euid != 0)
		return -EPERM;
	if (cmd == LINUX_REBOOT_CMD_RESTART)
		kernel_restart();
	if (cmd == LINUX_REBOOT_CMD_POWER_OFF || cmd == LINUX_REBOOT_CMD_HALT)
		kernel_power_off();
	return cmd == 0 || cmd == 0x89abcdef ? 0 : -EINVAL; /* CAD off/on */
}

struct sysinfo {
	s32 uptime;
	u32 loads[3];
	u32 totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	u32 totalhigh, freehigh, mem_unit;
	char f[8];
};

long sys_sysinfo(struct sysinfo __user *info)
{
	struct sysinfo s;
	struct page_stats st;

	memset(&s, 0, sizeof(s));
	page_get_stats(&st);
	s.uptime = (s32)(ktime_get_ns() / NSEC_PER_SEC);
	s.totalram = (u32)st.total;
	s.freeram = (u32)st.free;
	s.procs = (u16)nr_user_processes;
	s.mem_unit = PAGE_SIZE;
	return copy_to_user(info, &s, sizeof(s)) ? -EFAULT : 0;
}

long sys_times(u32 __user *buf)
{
	u32 t[4] = { (u32)(current->utime / (HZ / 100)), (u32)(current->stime / (HZ / 100)), 0, 0 };

	if (buf && copy_to_user(buf, t, sizeof(t)))
		return -EFAULT;
	return (long)(jiffies / (HZ / 100));
}

long sys_getrusage(int who, void __user *ru) { return clear_user(ru, 72) ? -EFAULT : 0; }

#define PR_SET_NAME 15
#define PR_GET_NAME 16

long sys_prctl(int option, unsigned long arg2)
{
	char name[TASK_COMM_LEN];

	if (option == PR_SET_NAME) {
		long n = strncpy_from_user(name, (const char __user *)arg2, sizeof(name) - 1);

		if (n < 0)
			return n;
		name[n] = '\0';
		strscpy(current->comm, name, sizeof(current->comm));
		return 0;
	}
	if (option == PR_GET_NAME)
		return copy_to_user((void __user *)arg2, current->comm, TASK_COMM_LEN) ? -EFAULT : 0;
	return -EINVAL;
}

/* No threads share an address space yet: nobody waits on a futex word. */
long sys_futex(u32 __user *uaddr, int op, u32 val)
{
	u32 cur;

	if ((op & 0x7f) == 0) { /* FUTEX_WAIT */
		if (get_user(cur, uaddr))
			return -EFAULT;
		return cur != val ? -EAGAIN : -EINTR;
	}
	return 0; /* FUTEX_WAKE: nobody to wake */
}

long sys_madvise(void) { return 0; }
long sys_getpriority(void) { return 20; }
long sys_setpriority(void) { return 0; }
