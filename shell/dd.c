/*
 * dd.c: coreutils' dd over the VFS: copies COUNT blocks of BS bytes from
 * if= to of= (the console without of=), after skipping SKIP input blocks
 * and seeking SEEK output blocks, and ends with dd's three summary lines.
 * depth=N (not in coreutils) keeps N blocks in flight through the block
 * device's asynchronous reads (if= a block device) or writes (of=), as
 * blk bench --depth N does. Ctrl-C stops it, and the summary says how far
 * it got.
 */
#include <kobold/aio.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define DD_BS_MAX (16UL << 20)
#define DD_DEPTH_MAX 128

struct dd {
	const char *in, *out;
	unsigned long bs, depth;
	unsigned long long count, skip, seek;
	unsigned long full_in, part_in, full_out, part_out;
	unsigned long long bytes;
};

/* "4k", "1M", "512": dd's numbers with their multiplier suffixes. */
static int parse_size(const char *s, unsigned long long *out)
{
	static const struct {
		const char *suffix;
		unsigned long long mult;
	} units[] = {
		{ "", 1 },
		{ "c", 1 },
		{ "w", 2 },
		{ "b", 512 },
		{ "kB", 1000 },
		{ "k", 1024 },
		{ "K", 1024 },
		{ "KiB", 1024 },
		{ "MB", 1000000 },
		{ "M", 1 << 20 },
		{ "MiB", 1 << 20 },
		{ "GB", 1000000000 },
		{ "G", 1 << 30 },
		{ "GiB", 1 << 30 },
	};
	char num[24];
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(s + n, units[i].suffix) != 0)
			continue;
		if (kstrtoull(num, 10, out))
			return -EINVAL;
		*out *= units[i].mult;
		return 0;
	}
	return -EINVAL;
}

static int parse_operand(struct dd *d, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned long long v;
	size_t klen = eq ? (size_t)(eq - arg) : 0;

	if (klen == 2 && !strncmp(arg, "if", 2)) {
		d->in = eq + 1;
		return 0;
	}
	if (klen == 2 && !strncmp(arg, "of", 2)) {
		d->out = eq + 1;
		return 0;
	}
	if (!eq || (strncmp(arg, "bs=", 3) && strncmp(arg, "count=", 6) &&
		    strncmp(arg, "skip=", 5) && strncmp(arg, "seek=", 5) &&
		    strncmp(arg, "depth=", 6))) {
		sh_err("dd: unrecognized operand '%s'\n", arg);
		return -EINVAL;
	}
	if (parse_size(eq + 1, &v) || (arg[0] == 'b' && (v == 0 || v > DD_BS_MAX)) ||
	    (arg[0] == 'd' && (v == 0 || v > DD_DEPTH_MAX))) {
		sh_err("dd: invalid number: '%s'\n", eq + 1);
		return -EINVAL;
	}
	if (arg[0] == 'd')
		d->depth = (unsigned long)v;
	else if (arg[0] == 'b')
		d->bs = (unsigned long)v;
	else if (arg[0] == 'c')
		d->count = v;
	else if (arg[1] == 'k')
		d->skip = v;
	else
		d->seek = v;
	return 0;
}

/* human_readable with autoscale, rounded to nearest: "1.0 kB", "17 MB", "16 MiB". */
static void human(char *out, size_t size, unsigned long long v, bool si)
{
	static const char *const si_units[] = { "B", "kB", "MB", "GB", "TB" };
	static const char *const iec_units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned long long base = si ? 1000 : 1024, div = 1, tenths;
	int e = 0;

	while (v / div >= base && e < 4) {
		div *= base;
		e++;
	}
	tenths = (v * 10 + div / 2) / div;
	if (tenths < 100)
		scnprintf(out, size, "%llu.%llu %s", tenths / 10, tenths % 10,
			  si ? si_units[e] : iec_units[e]);
	else
		scnprintf(out, size, "%llu %s", (v + div / 2) / div, si ? si_units[e] : iec_units[e]);
}

/* printf's %g (6 significant digits) of ns / 1e9, as dd prints its time. */
static void seconds(char *out, size_t size, unsigned long long ns)
{
	char digits[24];
	int exp10 = -9, len, point;

	if (ns == 0) {
		strscpy(out, "0", size);
		return;
	}
	while (ns >= 1000000) {
		ns = (ns + 5) / 10;
		exp10++;
	}
	len = scnprintf(digits, sizeof(digits), "%llu", ns);
	while (len > 1 && digits[len - 1] == '0') { /* %g drops trailing zeros */
		digits[--len] = '\0';
		exp10++;
	}
	point = len + exp10; /* digits before the decimal point */
	if (point < -3) {    /* %g's exponent form below 1e-4 */
		scnprintf(out, size, "%c%s%se-%02d", digits[0], len > 1 ? "." : "", digits + 1,
			  1 - point);
	} else if (point <= 0) {
		scnprintf(out, size, "0.%.*s%s", -point, "0000", digits);
	} else if (point >= len) {
		scnprintf(out, size, "%s%.*s", digits, point - len, "000000");
	} else {
		scnprintf(out, size, "%.*s.%s", point, digits, digits + point);
	}
}

static void summary(struct dd *d, unsigned long long ns)
{
	char si[24], iec[24], secs[24], rate[24];
	unsigned long long us = ns / 1000 ? ns / 1000 : 1;

	sh_printf("%lu+%lu records in\n%lu+%lu records out\n", d->full_in, d->part_in,
		  d->full_out, d->part_out);
	human(si, sizeof(si), d->bytes, true);
	human(iec, sizeof(iec), d->bytes, false);
	seconds(secs, sizeof(secs), ns);
	if (d->bytes == 0)
		strscpy(rate, "0.0 kB", sizeof(rate));
	else
		human(rate, sizeof(rate), d->bytes * 1000000 / us, true);
	if (d->bytes >= 1024)
		sh_printf("%llu bytes (%s, %s) copied, %s s, %s/s\n", d->bytes, si, iec, secs, rate);
	else if (d->bytes >= 1000)
		sh_printf("%llu bytes (%s) copied, %s s, %s/s\n", d->bytes, si, secs, rate);
	else
		sh_printf("%llu bytes copied, %s s, %s/s\n", d->bytes, secs, rate);
}

/*
 * A block's buffer, in whole pages: page-aligned, as coreutils' dd aligns
 * its buffer for O_DIRECT. kmalloc's large objects start 40 bytes into
 * their first page; QEMU (cache=none) reads into such a buffer through an
 * aligned one of its own and copies, which cost 4 to 5 times the speed of
 * 64 KiB and 1 MiB reads (docs/performance.md).
 */
static char *dd_buf_alloc(unsigned long bs)
{
	return alloc_pages((unsigned int)((bs + PAGE_SIZE - 1) / PAGE_SIZE));
}

static void dd_buf_free(char *buf, unsigned long bs)
{
	if (buf)
		free_pages(buf, (unsigned int)((bs + PAGE_SIZE - 1) / PAGE_SIZE));
}

static bool seekable(struct file *f)
{
	umode_t m = f->f_path.inode->i_mode;

	return S_ISREG(m) || S_ISBLK(m);
}

/* Skips n bytes of input: a seek where the file has positions, else reads them. */
static int skip_input(struct file *f, char *buf, unsigned long bs, unsigned long long blocks)
{
	if (seekable(f))
		return (int)min(vfs_llseek(f, (loff_t)(blocks * bs)), (loff_t)0);
	for (; blocks; blocks--) {
		ssize_t n = vfs_read(f, buf, bs);

		if (n <= 0)
			return (int)n;
	}
	return 0;
}

static int open_output(struct dd *d, struct file **out)
{
	int err;

	*out = NULL;
	if (!d->out)
		return 0;
	err = vfs_open(shell_cwd(), d->out, O_WRONLY | O_CREAT | (d->seek ? 0 : O_TRUNC), 0644,
		       out);
	if (err) {
		sh_err("dd: failed to open '%s': %s\n", d->out, kstrerror(err));
		return err;
	}
	if (d->seek && S_ISREG((*out)->f_path.inode->i_mode)) /* as without conv=notrunc */
		vfs_truncate(shell_cwd(), d->out, (loff_t)(d->seek * d->bs));
	vfs_llseek(*out, (loff_t)(d->seek * d->bs));
	return 0;
}

/* One block: read, count, write, count; 1 at the end of the input, or -errno. */
static int copy_block(struct dd *d, struct file *in, struct file *out, char *buf)
{
	ssize_t n = vfs_read(in, buf, d->bs), w;

	if (n < 0) {
		sh_err("dd: error reading '%s': %s\n", d->in, kstrerror((int)n));
		return (int)n;
	}
	if (n == 0)
		return 1;
	*((size_t)n == d->bs ? &d->full_in : &d->part_in) += 1;
	if (out) {
		w = shell_write_all(out, buf, (size_t)n);
	} else {
		sh_write(buf, (size_t)n);
		w = n;
	}
	if (w < 0) {
		sh_err("dd: error writing '%s': %s\n", d->out, kstrerror((int)w));
		return (int)w;
	}
	*((size_t)n == d->bs ? &d->full_out : &d->part_out) += 1;
	d->bytes += (unsigned long long)n;
	return 0;
}

static int dd_copy(struct dd *d, struct file *in, struct file *out, char *buf)
{
	u64 start = ktime_get_ns();
	int err = skip_input(in, buf, d->bs, d->skip);

	for (unsigned long long i = 0; !err && i < d->count; i++) {
		if (signal_pending()) {
			err = -EINTR;
			break;
		}
		err = copy_block(d, in, out, buf);
	}
	if (err < 0 && err != -EINTR && d->bytes == 0 && d->full_in + d->part_in == 0 &&
	    d->skip && seekable(in))
		sh_err("dd: '%s': cannot skip: %s\n", d->in, kstrerror(err));
	summary(d, ktime_get_ns() - start);
	if (sh_interrupted(err))
		return 130;
	return err < 0 ? 1 : 0;
}

/* depth=N: a ring of N blocks, each with its buffer and its kiocb. */
struct dd_slot {
	struct kiocb iocb;
	char *buf;
	volatile bool done;
	ssize_t res; /* the block's bytes, or -errno */
	size_t len;  /* a write's bytes */
};

struct dd_aio {
	struct dd *d;
	struct file *in, *out;
	bool write; /* the output is the asynchronous side */
	loff_t pos; /* the asynchronous side's next offset */
	struct dd_slot *slots;
	unsigned long head, tail; /* the slots to start next and to take back next */
	struct wait_queue_head wait;
};

/* From the disk's interrupt (or at once, for a refused request). */
static void dd_aio_complete(struct kiocb *iocb, ssize_t res)
{
	struct dd_slot *slot = container_of(iocb, struct dd_slot, iocb);
	struct dd_aio *a = iocb->private;

	slot->res = res;
	slot->done = true;
	wake_up(&a->wait);
}

static void dd_aio_start(struct dd_aio *a, struct dd_slot *slot, size_t n)
{
	ssize_t r;

	slot->done = false;
	slot->len = n;
	slot->iocb.ki_filp = a->write ? a->out : a->in;
	slot->iocb.ki_complete = dd_aio_complete;
	slot->iocb.private = a;
	r = a->write ? vfs_aio_write(&slot->iocb, slot->buf, n, a->pos)
		     : vfs_aio_read(&slot->iocb, slot->buf, n, a->pos);
	a->pos += (loff_t)n;
	if (r != -EIOCBQUEUED) /* done already: a result and no completion */
		dd_aio_complete(&slot->iocb, r);
}

/*
 * Fills a slot and starts it: a read of the input's next block, or the
 * input's next block read now and written asynchronously. 1 at the end of
 * the input, or -errno.
 */
static int dd_aio_submit(struct dd_aio *a, struct dd_slot *slot)
{
	struct dd *d = a->d;
	ssize_t n;

	if (!a->write) {
		dd_aio_start(a, slot, d->bs);
		return 0;
	}
	n = vfs_read(a->in, slot->buf, d->bs);
	if (n < 0) {
		sh_err("dd: error reading '%s': %s\n", d->in, kstrerror((int)n));
		return (int)n;
	}
	if (n == 0)
		return 1;
	*((size_t)n == d->bs ? &d->full_in : &d->part_in) += 1;
	if (n % SECTOR_SIZE) { /* a partial last block: not whole sectors, so at once */
		slot->done = true;
		slot->len = (size_t)n;
		vfs_llseek(a->out, a->pos);
		slot->res = shell_write_all(a->out, slot->buf, (size_t)n);
		a->pos += n;
		return 0;
	}
	dd_aio_start(a, slot, (size_t)n);
	return 0;
}

/* The oldest slot, once done: counted, and a read's data written out. 1 at the end, or -errno. */
static int dd_aio_reap(struct dd_aio *a, struct dd_slot *slot)
{
	struct dd *d = a->d;
	ssize_t n, w;

	wait_event(a->wait, slot->done);
	n = slot->res;
	if (n < 0) {
		sh_err("dd: error %s '%s': %s\n", a->write ? "writing" : "reading",
		       a->write ? d->out : d->in, kstrerror((int)n));
		return (int)n;
	}
	if (a->write) {
		*((size_t)n == d->bs ? &d->full_out : &d->part_out) += 1;
		d->bytes += (unsigned long long)n;
		return 0;
	}
	if (n == 0)
		return 1;
	*((size_t)n == d->bs ? &d->full_in : &d->part_in) += 1;
	w = a->out ? shell_write_all(a->out, slot->buf, (size_t)n) : (sh_write(slot->buf, (size_t)n), n);
	if (w < 0) {
		sh_err("dd: error writing '%s': %s\n", d->out, kstrerror((int)w));
		return (int)w;
	}
	*((size_t)n == d->bs ? &d->full_out : &d->part_out) += 1;
	d->bytes += (unsigned long long)n;
	return (size_t)n < d->bs; /* a short read: the input ended */
}

/* The ring's next slot after i (no division: this runs for every block). */
static unsigned long next_slot(struct dd_aio *a, unsigned long i)
{
	return i + 1 == a->d->depth ? 0 : i + 1;
}

/*
 * Keeps depth blocks in flight; takes them back in order, so the output
 * is the same as without depth=. After an error or Ctrl-C nothing more is
 * started, and what is in flight is waited for.
 */
static int dd_aio_loop(struct dd_aio *a)
{
	struct dd *d = a->d;
	unsigned long long started = 0, reaped = 0;
	struct dd_slot *slot;
	int err = 0, r;
	bool stop = false, discard = false;

	while (reaped < started || (!stop && started < d->count)) {
		while (!stop && started < d->count && started - reaped < d->depth) {
			if (signal_pending()) {
				err = -EINTR;
				stop = true;
				break;
			}
			r = dd_aio_submit(a, &a->slots[a->head]);
			if (r) {
				err = err ? err : (r < 0 ? r : 0);
				stop = true;
				break;
			}
			started++;
			a->head = next_slot(a, a->head);
		}
		if (reaped == started)
			break;
		slot = &a->slots[a->tail];
		a->tail = next_slot(a, a->tail);
		reaped++;
		if (discard) { /* after the end or an error: only wait for it */
			wait_event(a->wait, slot->done);
			continue;
		}
		r = dd_aio_reap(a, slot);
		if (r) {
			err = err ? err : (r < 0 ? r : 0);
			stop = discard = true;
		}
	}
	return err;
}

static int dd_aio_alloc(struct dd_aio *a)
{
	a->slots = kzalloc(a->d->depth * sizeof(*a->slots));
	if (!a->slots)
		return -ENOMEM;
	for (unsigned long i = 0; i < a->d->depth; i++) {
		a->slots[i].buf = dd_buf_alloc(a->d->bs);
		if (!a->slots[i].buf)
			return -ENOMEM;
	}
	return 0;
}

static void dd_aio_free(struct dd_aio *a)
{
	for (unsigned long i = 0; a->slots && i < a->d->depth; i++)
		dd_buf_free(a->slots[i].buf, a->d->bs);
	kfree(a->slots);
}

/* dd with depth=N: one side a block device, whole sectors; the copy and its summary. */
static int dd_copy_depth(struct dd *d, struct file *in, struct file *out, char *buf)
{
	struct dd_aio a = { .d = d, .in = in, .out = out };
	u64 start;
	int err;

	a.write = !file_can_aio(in, false);
	if (a.write && (!out || !file_can_aio(out, true))) {
		sh_err("dd: depth=%lu needs a block device as if= or of=\n", d->depth);
		return 1;
	}
	if (d->bs % SECTOR_SIZE) {
		sh_err("dd: depth=%lu needs bs= a multiple of %d\n", d->depth, SECTOR_SIZE);
		return 1;
	}
	init_waitqueue_head(&a.wait);
	if (dd_aio_alloc(&a)) {
		sh_err("dd: memory exhausted by %lu buffers of size %lu bytes\n", d->depth, d->bs);
		dd_aio_free(&a);
		return 1;
	}
	start = ktime_get_ns();
	err = skip_input(in, buf, d->bs, a.write ? d->skip : 0);
	a.pos = (loff_t)((a.write ? d->seek : d->skip) * d->bs);
	if (!err)
		err = dd_aio_loop(&a);
	summary(d, ktime_get_ns() - start);
	dd_aio_free(&a);
	if (sh_interrupted(err))
		return 130;
	return err < 0 ? 1 : 0;
}

static int cmd_dd(int argc, char **argv)
{
	struct dd d = { .bs = 512, .depth = 1, .count = ~0ULL };
	struct file *in, *out;
	char *buf;
	int err;

	for (int i = 1; i < argc; i++) {
		char opt[32];

		if (!strcmp(argv[i], "--depth")) { /* blk bench's spelling of depth= */
			scnprintf(opt, sizeof(opt), "depth=%s", i + 1 < argc ? argv[++i] : "");
			if (parse_operand(&d, opt))
				return 1;
		} else if (parse_operand(&d, argv[i])) {
			return 1;
		}
	}
	if (!d.in) {
		sh_err("dd: missing if= (this shell has no standard input)\n");
		return 1;
	}
	err = vfs_open(shell_cwd(), d.in, O_RDONLY, 0, &in);
	if (err) {
		sh_err("dd: failed to open '%s': %s\n", d.in, kstrerror(err));
		return 1;
	}
	buf = dd_buf_alloc(d.bs);
	if (!buf) {
		sh_err("dd: memory exhausted by input buffer of size %lu bytes\n", d.bs);
		vfs_close(in);
		return 1;
	}
	if (open_output(&d, &out))
		err = 1;
	else
		err = d.depth > 1 ? dd_copy_depth(&d, in, out, buf) : dd_copy(&d, in, out, buf);
	vfs_close(out);
	vfs_close(in);
	dd_buf_free(buf, d.bs);
	return err;
}
SHELL_COMMAND("dd", "if=FILE [of=FILE] [bs=N] [count=N] [skip=N] [seek=N] [depth=N]",
	      "copy blocks between files and devices, with dd's summary", cmd_dd);
