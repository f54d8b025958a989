/*
 * select.c: poll, ppoll, select and pselect6 (Linux's fs/select.c), by asking each
 * file's poll operation for its ready mask (a file without one is always
 * ready, as a regular file is) and, if none is ready, looking again at
 * each tick until the timeout or a signal. poll's first look gives each
 * file a poll_table, whose poll_wait() puts the caller on the file's wait
 * queues, so that a wake_up() there ends the tick's sleep at once.
 *
 * A signal ends the wait as in 2.6.15 (ppoll and pselect6: 2.6.16, their
 * first): select, pselect6 and ppoll return -ERESTARTNOHAND, EINTR after a
 * handler and run again after a stop, with the time left written back for
 * that run; poll returns EINTR.
 */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/poll.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/uaccess.h>

#define MAX_POLL 1024

struct pollfd {
	int fd;
	short events, revents;
};

static unsigned int file_poll(struct file *f, poll_table *pt)
{
	return f->f_op->poll ? f->f_op->poll(f, pt) : POLLIN | POLLOUT;
}

/* poll_wait()'s work: the caller joins head's waiters until poll_freewait (table full: the tick alone). */
void __pollwait(struct file *file, struct wait_queue_head *head, poll_table *p)
{
	struct wait_queue_entry *w;

	if (p->nr == POLL_TABLE_ENTRIES)
		return;
	w = &p->entry[p->nr].wait;
	p->entry[p->nr++].head = head;
	INIT_LIST_HEAD(&w->entry);
	prepare_to_wait(head, w);
}

static void poll_freewait(poll_table *p)
{
	for (int i = 0; i < p->nr; i++)
		finish_wait(p->entry[i].head, &p->entry[i].wait);
	p->nr = 0;
}

static int poll_once(struct pollfd *fds, unsigned int n, poll_table *pt)
{
	int ready = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct file *f = fget(current->user.files, fds[i].fd);
		unsigned int m;

		if (fds[i].fd < 0) {
			fds[i].revents = 0;
			continue;
		}
		m = f ? file_poll(f, pt) & ((unsigned short)fds[i].events | POLLERR | POLLHUP) : POLLNVAL;
		fds[i].revents = (short)m;
		if (m)
			ready++;
	}
	return ready;
}

/* Ticks to wait: -1 for ever. */
static long sleep_tick(long *ticks)
{
	int depth;

	if (*ticks == 0)
		return 0;
	if (user_signal_pending())
		return -ERESTARTNOHAND;
	depth = sys_sleep_begin();
	schedule_timeout_interruptible(1);
	sys_sleep_end(depth);
	if (*ticks > 0)
		(*ticks)--;
	return 1;
}

static long do_poll(struct pollfd __user *ufds, unsigned int n, long *ticks)
{
	struct pollfd *k;
	poll_table *pt;
	bool first = true;
	long r;

	if (n > MAX_POLL)
		return -EINVAL;
	k = kmalloc(n * sizeof(*k) + 1);
	pt = kzalloc(sizeof(*pt));
	if (!k || !pt) {
		kfree(k);
		kfree(pt);
		return -ENOMEM;
	}
	r = copy_from_user(k, ufds, n * sizeof(*k)) ? -EFAULT : 0;
	while (!r) {
		r = poll_once(k, n, first ? pt : NULL); /* the queues joined once, as Linux */
		first = false;
		if (r)
			break;
		r = sleep_tick(ticks);
		if (r == 1)
			r = 0;
		else
			break;
	}
	poll_freewait(pt);
	kfree(pt);
	if (r >= 0 && copy_to_user(ufds, k, n * sizeof(*k)))
		r = -EFAULT;
	kfree(k);
	return r;
}

static long ms_to_ticks(long ms) { return ms < 0 ? -1 : (ms * HZ + 999) / 1000; }

long sys_poll(struct pollfd __user *ufds, unsigned int n, int timeout_ms)
{
	long ticks = ms_to_ticks(timeout_ms);
	long r = do_poll(ufds, n, &ticks);

	return r == -ERESTARTNOHAND ? -EINTR : r; /* 2.6.15's poll did not restart */
}

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
	long pad;
};

struct timespec32 {
	s32 tv_sec, tv_nsec;
};

/*
 * ppoll's and pselect's mask for the length of the call (2.6.16's): 1 if
 * taken (sigmask_call_done puts it back), 0 with no mask, or -errno.
 */
static int mask_for_call(const u64 __user *mask, size_t sz)
{
	u64 m;

	if (!mask)
		return 0;
	if (sz != sizeof(m))
		return -EINVAL;
	if (copy_from_user(&m, mask, sizeof(m)))
		return -EFAULT;
	sigmask_for_call(m);
	return 1;
}

static long do_ppoll(struct pollfd __user *ufds, unsigned int n, long *ticks, const u64 __user *mask,
		     size_t sz)
{
	int masked = mask_for_call(mask, sz);
	long r;

	if (masked < 0)
		return masked;
	r = do_poll(ufds, n, ticks);
	if (masked)
		sigmask_call_done(r);
	return r;
}

/* The time left, for a restart; one that cannot be written makes the call EINTR, as 2.6.16's. */
static long time_left(long r, bool ok)
{
	return !ok && r == -ERESTARTNOHAND ? -EINTR : r;
}

/*
 * A timespec's ticks (-1: none); a negative one is EINVAL, as 2.6.16's pselect6
 * and, from 2.6.28 (poll_select_set_timeout), ppoll: 2.6.16's ppoll slept for
 * ever on a negative tv_sec.
 */
static int ts_ticks(s64 sec, long nsec, long *ticks)
{
	if (sec < 0 || nsec < 0)
		return -EINVAL;
	*ticks = (long)(sec * HZ + nsec / (1000000000 / HZ));
	return 0;
}

static int get_ts64(const struct timespec64 __user *ts, long *ticks)
{
	struct timespec64 t;

	*ticks = -1;
	if (!ts)
		return 0;
	if (copy_from_user(&t, ts, 12))
		return -EFAULT;
	return ts_ticks(t.tv_sec, t.tv_nsec, ticks);
}

static int get_ts32(const struct timespec32 __user *ts, long *ticks)
{
	struct timespec32 t;

	*ticks = -1;
	if (!ts)
		return 0;
	if (copy_from_user(&t, ts, sizeof(t)))
		return -EFAULT;
	return ts_ticks(t.tv_sec, t.tv_nsec, ticks);
}

/* r, with the time left written to ts (if any) for a restart. */
static long put_ts64(struct timespec64 __user *ts, long ticks, long r)
{
	struct timespec64 t = { ticks / HZ, ticks % HZ * (1000000000 / HZ), 0 };

	return ts ? time_left(r, !copy_to_user(ts, &t, 12)) : r;
}

static long put_ts32(struct timespec32 __user *ts, long ticks, long r)
{
	struct timespec32 t = { (s32)(ticks / HZ), (s32)(ticks % HZ * (1000000000 / HZ)) };

	return ts ? time_left(r, !copy_to_user(ts, &t, sizeof(t))) : r;
}

long sys_ppoll(struct pollfd __user *ufds, unsigned int n, struct timespec64 __user *ts,
	       const u64 __user *mask, size_t sz)
{
	long ticks, r = get_ts64(ts, &ticks);

	return r ? r : put_ts64(ts, ticks, do_ppoll(ufds, n, &ticks, mask, sz));
}

long sys_ppoll32(struct pollfd __user *ufds, unsigned int n, struct timespec32 __user *ts,
		 const u64 __user *mask, size_t sz)
{
	long ticks, r = get_ts32(ts, &ticks);

	return r ? r : put_ts32(ts, ticks, do_ppoll(ufds, n, &ticks, mask, sz));
}

struct timeval32 {
	s32 tv_sec, tv_usec;
};

/* The sets' ready fds, looked at each tick until one is or the time is up: the count, or -errno. */
static long do_select(int n, u32 __user *inp, u32 __user *outp, u32 __user *exp, long *ticks)
{
	u32 in[NR_OPEN_DEFAULT / 32] = { 0 }, out[NR_OPEN_DEFAULT / 32] = { 0 };
	size_t bytes = (size_t)(ALIGN_UP(n, 32) / 8);
	long ready = 0;

	if (n < 0 || n > NR_OPEN_DEFAULT)
		return -EINVAL;
	if ((inp && copy_from_user(in, inp, bytes)) || (outp && copy_from_user(out, outp, bytes)))
		return -EFAULT;
	for (;;) {
		u32 rin[NR_OPEN_DEFAULT / 32] = { 0 }, rout[NR_OPEN_DEFAULT / 32] = { 0 };

		for (int fd = 0; fd < n; fd++) {
			bool wi = in[fd / 32] & (1u << (fd % 32)), wo = out[fd / 32] & (1u << (fd % 32));
			struct file *f;
			unsigned int m;

			if (!wi && !wo)
				continue;
			f = fget(current->user.files, fd);
			if (!f)
				return -EBADF;
			m = file_poll(f, NULL);
			if (wi && (m & (POLLIN | POLLHUP | POLLERR))) {
				rin[fd / 32] |= 1u << (fd % 32);
				ready++;
			}
			if (wo && (m & (POLLOUT | POLLERR))) {
				rout[fd / 32] |= 1u << (fd % 32);
				ready++;
			}
		}
		if (ready || *ticks == 0) {
			if ((inp && copy_to_user(inp, rin, bytes)) ||
			    (outp && copy_to_user(outp, rout, bytes)) || (exp && clear_user(exp, bytes)))
				return -EFAULT;
			return ready;
		}
		if (sleep_tick(ticks) < 0)
			return -ERESTARTNOHAND;
	}
}

/* select (142) as 2.6.15's: the time left is written back to tvp, every time. */
long sys_select(int n, u32 __user *inp, u32 __user *outp, u32 __user *exp,
		struct timeval32 __user *tvp)
{
	struct timeval32 tv;
	long ticks = -1, r;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		ticks = (long)tv.tv_sec * HZ + tv.tv_usec / (1000000 / HZ);
	}
	r = do_select(n, inp, outp, exp, &ticks);
	if (!tvp)
		return r;
	tv.tv_sec = (s32)(ticks / HZ);
	tv.tv_usec = (s32)(ticks % HZ * (1000000 / HZ));
	return time_left(r, !copy_to_user(tvp, &tv, sizeof(tv)));
}

/* pselect6's sixth argument: where the mask is, and its size (2.6.16's sys_pselect6). */
static long do_pselect(int n, u32 __user *inp, u32 __user *outp, u32 __user *exp, long *ticks,
		       const u32 __user *sig)
{
	u32 s[2] = { 0, 0 };
	int masked;
	long r;

	if (sig && copy_from_user(s, sig, sizeof(s)))
		return -EFAULT;
	masked = mask_for_call((const u64 __user *)(unsigned long)s[0], s[1]);
	if (masked < 0)
		return masked;
	r = do_select(n, inp, outp, exp, ticks);
	if (masked)
		sigmask_call_done(r);
	return r;
}

long sys_pselect6(int n, u32 __user *inp, u32 __user *outp, u32 __user *exp,
		  struct timespec32 __user *ts, const u32 __user *sig)
{
	long ticks, r = get_ts32(ts, &ticks);

	return r ? r : put_ts32(ts, ticks, do_pselect(n, inp, outp, exp, &ticks, sig));
}

long sys_pselect6_time64(int n, u32 __user *inp, u32 __user *outp, u32 __user *exp,
			 struct timespec64 __user *ts, const u32 __user *sig)
{
	long ticks, r = get_ts64(ts, &ticks);

	return r ? r : put_ts64(ts, ticks, do_pselect(n, inp, outp, exp, &ticks, sig));
}
