/*
 * aio.c: Linux's native asynchronous I/O system calls (Linux's fs/aio.c):
 * io_setup makes a context, io_submit starts reads and writes, io_getevents
 * reaps their events, io_cancel and io_destroy. On a block device opened
 * with O_DIRECT a request goes out through the block layer's asynchronous
 * path (vfs_aio_read/vfs_aio_write) and io_submit returns at once, with N
 * in flight from one process; the disk's interrupt moves it to the
 * context's done list and wakes io_getevents, which copies a read's data
 * from the bounce buffer to the user's (fs/direct-io.c says why a bounce).
 * Any other file is read or written at once, as Linux does buffered files.
 */
#include <asm/page.h>
#include <kobold/aio.h>
#include <kobold/direct_io.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/uaccess.h>
#include <kobold/wait.h>

/* Linux's ABI (include/uapi/linux/aio_abi.h), as i386 lays it out. */
enum { IOCB_CMD_PREAD = 0,
       IOCB_CMD_PWRITE = 1 };
#define IOCB_FLAG_RESFD 1

struct iocb_abi {
	u64 aio_data;
	u32 aio_key, aio_rw_flags;
	u16 aio_lio_opcode;
	s16 aio_reqprio;
	u32 aio_fildes;
	u64 aio_buf, aio_nbytes;
	s64 aio_offset;
	u64 aio_reserved2;
	u32 aio_flags, aio_resfd;
};

struct io_event_abi {
	u64 data, obj; /* the iocb's aio_data, and its address */
	s64 res, res2;
};

unsigned long aio_nr;		    /* events reserved by every context */
unsigned long aio_max_nr = 0x10000; /* Linux's default /proc/sys/fs/aio-max-nr */

struct kioctx {
	struct kioctx *next;	  /* in its mm's ioctx_list */
	unsigned long user_id;	  /* what io_setup returned: the address of its [aio] page */
	unsigned int max_reqs;	  /* nr_events */
	unsigned int reqs_active; /* submitted and not yet reaped (under the big lock) */
	spinlock_t lock;	  /* done and in_flight: completions come from interrupts */
	unsigned int in_flight;	  /* submitted and not yet complete */
	struct list_head done;	  /* complete, oldest first */
	struct list_head idle;	  /* reaped, kept with their bounce buffers for reuse (under the big lock) */
	unsigned int nr_idle;	  /* at most max_reqs */
	struct wait_queue_head wait;
};

struct aio_req {
	struct kiocb iocb; /* the block device's, while in flight */
	struct kioctx *ctx;
	struct list_head node; /* in ctx->done once complete, in ctx->idle once reaped */
	struct file *file;     /* a reference, until reaped */
	char *bounce;
	size_t cap; /* the bounce buffer's size: whole pages */
	size_t len;
	u32 ubuf;
	bool read;
	struct io_event_abi ev;
};

static struct kioctx *lookup_ioctx(unsigned long id)
{
	struct mm_struct *mm = current->user.mm;

	for (struct kioctx *c = mm ? mm->ioctx_list : NULL; c; c = c->next)
		if (c->user_id == id)
			return c;
	return NULL;
}

/* ki_complete: from the disk's interrupt, or at once for a request that never went out. */
static void aio_complete(struct kiocb *iocb, ssize_t res)
{
	struct aio_req *req = container_of(iocb, struct aio_req, iocb);
	struct kioctx *ctx = req->ctx;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	req->ev.res = res;
	list_add_tail(&req->node, &ctx->done);
	ctx->in_flight--;
	spin_unlock_irqrestore(&ctx->lock, flags);
	wake_up(&ctx->wait);
}

static void aio_free_req(struct aio_req *req)
{
	dio_free(req->bounce, req->cap);
	kfree(req);
}

/*
 * A reaped request: kept, with its bounce buffer, for the context's next
 * io_submit (a program reads the same sizes over and over), up to
 * max_reqs of them; freed with the context.
 */
static void aio_put_req(struct kioctx *ctx, struct aio_req *req)
{
	fput(req->file);
	req->file = NULL;
	if (ctx->nr_idle >= ctx->max_reqs) {
		aio_free_req(req);
		return;
	}
	list_add(&req->node, &ctx->idle);
	ctx->nr_idle++;
}

/* The oldest complete request, taken off the done list; NULL if none. */
static struct aio_req *aio_pop_done(struct kioctx *ctx)
{
	struct aio_req *req = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	if (!list_empty(&ctx->done)) {
		req = list_first_entry(&ctx->done, struct aio_req, node);
		list_del(&req->node);
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return req;
}

static bool aio_has_done(struct kioctx *ctx) { return !list_empty(&ctx->done); }

/* Destroys ctx: waits for what is in flight (as Linux), drops the unreaped events. */
static void kill_ioctx(struct mm_struct *mm, struct kioctx *ctx)
{
	struct kioctx **p = &mm->ioctx_list;
	struct aio_req *req;
	int depth;

	while (*p != ctx)
		p = &(*p)->next;
	*p = ctx->next;
	depth = sys_sleep_begin();
	wait_event(ctx->wait, !ctx->in_flight);
	sys_sleep_end(depth);
	while ((req = aio_pop_done(ctx)))
		aio_put_req(ctx, req);
	while (!list_empty(&ctx->idle)) {
		req = list_first_entry(&ctx->idle, struct aio_req, node);
		list_del(&req->node);
		aio_free_req(req);
	}
	aio_nr -= ctx->max_reqs;
	kfree(ctx);
}

void exit_aio(struct mm_struct *mm)
{
	while (mm->ioctx_list)
		kill_ioctx(mm, mm->ioctx_list);
}

/* Linux's checks on nr_events, in its order: 0 or -EINVAL, -EAGAIN. */
static int ioctx_check_nr(u32 nr)
{
	u32 events = max(nr, num_online_cpus() * 4) * 2; /* Linux's ring size: u32, as there */

	if (events > 0x10000000u / sizeof(struct io_event_abi))
		return -EINVAL;
	if (!events || nr > aio_max_nr || aio_nr + nr > aio_max_nr || aio_nr + nr < aio_nr)
		return -EAGAIN;
	return 0;
}

/* The context's id: a page of its own in the address space, as Linux's ring ([aio] in maps). */
static unsigned long ioctx_map(struct mm_struct *mm)
{
	unsigned long addr = get_unmapped_area(mm, PAGE_SIZE);

	if (!addr || insert_vma(mm, addr, addr + PAGE_SIZE, VM_READ, "[aio]", 0))
		return 0;
	return addr;
}

long sys_io_setup(u32 nr_events, u32 __user *ctxp)
{
	struct mm_struct *mm = current->user.mm;
	struct kioctx *ctx;
	u32 id;
	int err;

	if (get_user(id, ctxp))
		return -EFAULT;
	if (id || !nr_events)
		return -EINVAL;
	err = ioctx_check_nr(nr_events);
	if (err)
		return err;
	ctx = kzalloc(sizeof(*ctx));
	if (!ctx)
		return -EAGAIN;
	ctx->user_id = ioctx_map(mm);
	if (!ctx->user_id) {
		kfree(ctx);
		return -ENOMEM;
	}
	ctx->max_reqs = nr_events;
	spin_lock_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->done);
	INIT_LIST_HEAD(&ctx->idle);
	init_waitqueue_head(&ctx->wait);
	ctx->next = mm->ioctx_list;
	mm->ioctx_list = ctx;
	aio_nr += nr_events;
	if (put_user((u32)ctx->user_id, ctxp)) {
		do_munmap(mm, ctx->user_id, PAGE_SIZE);
		kill_ioctx(mm, ctx);
		return -EFAULT;
	}
	return 0;
}

long sys_io_destroy(u32 ctx_id)
{
	struct kioctx *ctx = lookup_ioctx(ctx_id);

	if (!ctx)
		return -EINVAL;
	kill_ioctx(current->user.mm, ctx);
	do_munmap(current->user.mm, ctx_id, PAGE_SIZE);
	return 0;
}

/* A file that is not O_DIRECT: the transfer at once, as Linux's buffered AIO; the result. */
static ssize_t aio_rw_sync(struct aio_req *req, loff_t pos)
{
	struct file *f = req->file;
	loff_t saved = f->f_pos;
	ssize_t r;

	f->f_pos = pos;
	r = req->read ? vfs_read(f, req->bounce, req->len) : vfs_write(f, req->bounce, req->len);
	f->f_pos = saved;
	return r;
}

/* Starts req; a result known at once (an error, a synchronous transfer) completes it here. */
static void aio_rw(struct aio_req *req, loff_t pos)
{
	ssize_t r = 0;

	if (file_is_direct(req->file))
		r = dio_check_align(req->ubuf, req->len, pos);
	if (!r && !req->read && copy_from_user(req->bounce, (const void __user *)req->ubuf, req->len))
		r = -EFAULT;
	if (!r && file_is_direct(req->file)) {
		r = req->read ? vfs_aio_read(&req->iocb, req->bounce, req->len, pos)
			      : vfs_aio_write(&req->iocb, req->bounce, req->len, pos);
		if (r == -EIOCBQUEUED)
			return;
	} else if (!r) {
		r = aio_rw_sync(req, pos);
	}
	aio_complete(&req->iocb, r);
}

/* Linux's checks of an iocb before it takes a slot: 0 or -errno. */
static int iocb_check(const struct iocb_abi *cb)
{
	if (cb->aio_reserved2)
		return -EINVAL;
	if (cb->aio_buf >> 32 || cb->aio_nbytes > 0x7fffffff)
		return -EINVAL; /* does not fit in a pointer or an ssize_t */
	if (cb->aio_flags & IOCB_FLAG_RESFD)
		return -EINVAL; /* no eventfd in Kobold */
	if (cb->aio_lio_opcode != IOCB_CMD_PREAD && cb->aio_lio_opcode != IOCB_CMD_PWRITE)
		return -EINVAL;
	return 0;
}

static int aio_file(const struct iocb_abi *cb, struct file **out)
{
	struct file *f = fget(current->user.files, (int)cb->aio_fildes);
	unsigned int mode;

	if (!f)
		return -EBADF;
	mode = f->f_flags & O_ACCMODE;
	if (cb->aio_lio_opcode == IOCB_CMD_PREAD ? mode == O_WRONLY : mode == O_RDONLY)
		return -EBADF;
	*out = f;
	return 0;
}

/* An idle request whose bounce buffer holds len bytes, taken off the list and cleared; or NULL. */
static struct aio_req *aio_reuse_req(struct kioctx *ctx, size_t len)
{
	struct aio_req *req;

	list_for_each_entry(req, &ctx->idle, node) {
		char *bounce = req->bounce;
		size_t cap = req->cap;

		if (cap < len)
			continue;
		list_del(&req->node);
		ctx->nr_idle--;
		memset(req, 0, sizeof(*req));
		req->bounce = bounce;
		req->cap = cap;
		return req;
	}
	return NULL;
}

/* The request and its bounce buffer: a whole O_DIRECT transfer, or a read(2)'s worth for others. */
static struct aio_req *aio_get_req(struct kioctx *ctx, struct file *f, const struct iocb_abi *cb)
{
	size_t len = (size_t)cb->aio_nbytes;
	struct aio_req *req;

	if (!file_is_direct(f))
		len = min(len, (size_t)DIO_MAX_BYTES);
	req = aio_reuse_req(ctx, len);
	if (!req) {
		req = kzalloc(sizeof(*req));
		if (!req)
			return NULL;
		req->cap = ALIGN_UP(len ? len : 1, PAGE_SIZE);
		req->bounce = dio_alloc(req->cap);
		if (!req->bounce) {
			kfree(req);
			return NULL;
		}
	}
	req->len = len;
	return req;
}

/*
 * Linux plugs a batch of more than this many (AIO_PLUG_THRESHOLD): the
 * device hears of it once, at the end, and adjacent requests merge.
 */
#define AIO_PLUG_THRESHOLD 2

/* The plug: the file whose requests wait for their notification (NULL: none). */
static void aio_unplug(struct file **plugged)
{
	if (!*plugged)
		return;
	vfs_aio_commit(*plugged);
	fput(*plugged);
	*plugged = NULL;
}

static int io_submit_one(struct kioctx *ctx, struct iocb_abi __user *user_iocb,
			 struct file **plug)
{
	struct iocb_abi cb;
	struct aio_req *req;
	struct file *f;
	int err;

	if (copy_from_user(&cb, user_iocb, sizeof(cb)))
		return -EFAULT;
	err = iocb_check(&cb);
	if (err)
		return err;
	if (ctx->reqs_active >= ctx->max_reqs)
		return -EAGAIN;
	if (put_user(0u, &user_iocb->aio_key))
		return -EFAULT;
	err = aio_file(&cb, &f);
	if (err)
		return err;
	if (!access_ok((void __user *)(unsigned long)cb.aio_buf, (unsigned long)cb.aio_nbytes))
		return -EFAULT;
	req = aio_get_req(ctx, f, &cb);
	if (!req)
		return -EAGAIN;
	req->ctx = ctx;
	req->file = get_file(f);
	req->ubuf = (u32)cb.aio_buf;
	req->read = cb.aio_lio_opcode == IOCB_CMD_PREAD;
	req->ev.data = cb.aio_data;
	req->ev.obj = (u32)(unsigned long)user_iocb;
	req->iocb.ki_filp = f;
	req->iocb.ki_complete = aio_complete;
	if (plug) {
		if (*plug != f) {
			aio_unplug(plug); /* another file: the first one's batch goes now */
			*plug = get_file(f);
		}
		req->iocb.ki_more = true;
	}
	ctx->reqs_active++;
	spin_lock_irq(&ctx->lock);
	ctx->in_flight++;
	spin_unlock_irq(&ctx->lock);
	aio_rw(req, cb.aio_offset);
	return 0;
}

long sys_io_submit(u32 ctx_id, long nr, u32 __user *iocbpp)
{
	struct file *plugged = NULL;
	struct kioctx *ctx;
	long i;
	int err = 0;

	if (nr < 0)
		return -EINVAL;
	ctx = lookup_ioctx(ctx_id);
	if (!ctx)
		return -EINVAL;
	if ((unsigned long)nr > ctx->max_reqs)
		nr = (long)ctx->max_reqs;
	for (i = 0; i < nr; i++) {
		u32 uiocb;

		if (get_user(uiocb, iocbpp + i)) {
			err = -EFAULT;
			break;
		}
		err = io_submit_one(ctx, (struct iocb_abi __user *)(unsigned long)uiocb,
				    nr > AIO_PLUG_THRESHOLD ? &plugged : NULL);
		if (err)
			break;
	}
	aio_unplug(&plugged);
	return i ? i : err;
}

/* Copies up to max events (and the data of reads) to user space: the count, or -EFAULT. */
static long aio_reap(struct kioctx *ctx, long max, struct io_event_abi __user *events)
{
	long n = 0;

	while (n < max) {
		struct aio_req *req = aio_pop_done(ctx);

		if (!req)
			break;
		if (req->read && req->ev.res > 0 &&
		    copy_to_user((void __user *)req->ubuf, req->bounce, (size_t)req->ev.res))
			req->ev.res = -EFAULT;
		if (copy_to_user(&events[n], &req->ev, sizeof(req->ev))) {
			spin_lock_irq(&ctx->lock);
			list_add(&req->node, &ctx->done); /* still there for the next call */
			spin_unlock_irq(&ctx->lock);
			return n ? n : -EFAULT;
		}
		aio_put_req(ctx, req);
		ctx->reqs_active--;
		n++;
	}
	return n;
}

/* Waits for an event: 0, or -EINTR; ticks < 0 waits without a limit, else one tick at most. */
static int aio_wait(struct kioctx *ctx, long ticks)
{
	int depth, err = 0;

	if (ticks < 0)
		return wait_event_user(ctx->wait, aio_has_done(ctx));
	depth = sys_sleep_begin();
	schedule_timeout_interruptible(1);
	sys_sleep_end(depth);
	if (user_signal_pending())
		err = -EINTR;
	return err;
}

static long read_events(struct kioctx *ctx, long min_nr, long nr,
			struct io_event_abi __user *events, long ticks)
{
	long got = 0;

	for (;;) {
		long r = aio_reap(ctx, nr - got, events + got);

		if (r < 0)
			return got ? got : r;
		got += r;
		if (got >= min_nr || got == nr || !ticks)
			break;
		if (aio_wait(ctx, ticks) < 0)
			break;
		if (ticks > 0)
			ticks--;
	}
	return got;
}

struct timespec32_abi {
	s32 tv_sec, tv_nsec;
};

/*
 * Ticks to wait at most: none for a zero or negative time (Linux takes the
 * timespec as it is), else at least the time asked, a tick more since a
 * sleep's first one is partial.
 */
static long timeout_ticks(const struct timespec32_abi *ts)
{
	u32 sec = ts->tv_sec > 1000000 ? 1000000 : (u32)ts->tv_sec, nsec = (u32)ts->tv_nsec;

	if (ts->tv_sec < 0 || (ts->tv_sec == 0 && ts->tv_nsec <= 0))
		return 0;
	if (ts->tv_nsec < 0)
		nsec = 0;
	return (long)(sec * HZ + (nsec / 1000 + 999) / (1000000 / HZ)) + 1;
}

long sys_io_getevents(u32 ctx_id, long min_nr, long nr, struct io_event_abi __user *events,
		      const struct timespec32_abi __user *timeout)
{
	struct timespec32_abi ts;
	struct kioctx *ctx;
	long ticks = -1, ret;

	if (timeout && copy_from_user(&ts, timeout, sizeof(ts)))
		return -EFAULT;
	if (timeout)
		ticks = timeout_ticks(&ts);
	ctx = lookup_ioctx(ctx_id);
	if (!ctx || min_nr < 0 || min_nr > nr)
		return -EINVAL;
	ret = read_events(ctx, min_nr, nr, events, ticks);
	if (!ret && user_signal_pending())
		ret = -EINTR;
	return ret;
}

/* Block-device requests cannot be taken back once out (Linux: only those with ki_cancel can). */
long sys_io_cancel(u32 ctx_id, struct iocb_abi __user *iocb, struct io_event_abi __user *result)
{
	u32 key;

	(void)result;
	if (!lookup_ioctx(ctx_id))
		return -EINVAL;
	if (get_user(key, &iocb->aio_key))
		return -EFAULT;
	if (key != 0) /* Linux's KIOCB_KEY, which io_submit wrote */
		return -EINVAL;
	return -EINVAL; /* no request of Kobold's has a cancel method */
}
