/*
 * bench.c: `bench devmodel N`: the device model at scale. Registers N class
 * devices in a class of their own, looks each up by path, and unregisters
 * them, timing each phase with the kernel clock; the cost per operation must
 * not grow with N (no list walks that get longer as the class fills).
 * `bench ipi N`: N call-function interrupts to CPU 1 and back (-smp 2 or more).
 * `bench switch N`: N round trips of a completion between the shell and a
 * kernel thread, each two context switches: the cost of one switch.
 * `bench fence N`: the fences the virtio event index can use, N of each
 * (docs/performance.md): mfence, a locked add, a read of port 0x80 and of
 * the first virtio device's status register.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/completion.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/kthread.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>
#include <kobold/virtio.h>
#include <kobold/virtio_config.h>
#include <kobold/workqueue.h>

#define BENCH_MAX 200000

static void bench_release(struct class_device *cd)
{
	kfree(cd);
}

static struct class bench_class = {
	.name = "bench",
	.release = bench_release,
};

static int register_all(struct class_device **devs, unsigned int n)
{
	for (unsigned int i = 0; i < n && !signal_pending(); i++) {
		struct class_device *cd = kzalloc(sizeof(*cd));
		int err;

		if (!cd)
			return -ENOMEM;
		cd->class = &bench_class;
		scnprintf(cd->class_id, BUS_ID_SIZE, "bench%u", i);
		err = class_device_register(cd);
		if (err) {
			class_device_put(cd); /* initialized: only the release may free it */
			return err;
		}
		devs[i] = cd;
	}
	return signal_pending() ? -EINTR : 0;
}

static int lookup_all(unsigned int n)
{
	char path[64];

	for (unsigned int i = 0; i < n; i++) {
		struct sysfs_dirent *sd;
		int err;

		if (signal_pending())
			return -EINTR;
		scnprintf(path, sizeof(path), "/sys/class/bench/bench%u/uevent", i);
		err = sysfs_lookup(NULL, path, true, &sd);
		if (err)
			return err;
		sysfs_put(sd);
	}
	return 0;
}

/* Unregisters devs[from..to), returning how many there were. */
static unsigned int unregister_range(struct class_device **devs, unsigned int from,
				     unsigned int to)
{
	unsigned int done = 0;

	for (unsigned int i = from; i < to; i++) {
		if (devs[i]) {
			class_device_unregister(devs[i]);
			done++;
		}
		devs[i] = NULL;
	}
	return done;
}

/*
 * After Ctrl-C the prompt must come back at once, but undoing 100,000
 * registrations takes about a second. The undo is deferred work instead: a
 * slice of it each time it runs, while the shell waits for the next line,
 * and all of it before the next command (workqueue.h).
 */
#define UNDO_SLICE 256 /* about 2 ms of unregistrations under TCG */

static struct bench_undo {
	struct work_struct work;
	struct class_device **devs;
	unsigned int n, next, done;
	volatile bool busy; /* until the last slice has unregistered the class */
} undo;

/* bench_class and undo: one console's bench devmodel at a time, after the last one's undo. */
static DEFINE_MUTEX(bench_mutex);

static void bench_undo_slice(struct work_struct *work)
{
	struct bench_undo *u = container_of(work, struct bench_undo, work);
	unsigned int to = u->n - u->next > UNDO_SLICE ? u->next + UNDO_SLICE : u->n;

	u->done += unregister_range(u->devs, u->next, to);
	u->next = to;
	if (u->next < u->n) {
		schedule_work(&u->work);
		return;
	}
	class_unregister(&bench_class);
	kfree(u->devs);
	pr_debug("bench: %u class devices unregistered after Ctrl-C\n", u->done);
	u->busy = false;
}

static void defer_undo(struct class_device **devs, unsigned int n)
{
	undo.devs = devs;
	undo.n = n;
	undo.next = undo.done = 0;
	undo.busy = true;
	INIT_WORK(&undo.work, bench_undo_slice);
	schedule_work(&undo.work);
}

static void report(const char *what, unsigned int n, u64 ns)
{
	sh_printf("devmodel %-10s N=%-7u %10lu us total %8lu ns/op\n", what, n,
		  (unsigned long)(ns / 1000), (unsigned long)(ns / n));
}

static int __bench_devmodel(unsigned int n)
{
	struct class_device **devs = kzalloc(n * sizeof(*devs));
	u64 t0, t1, t2, t3;
	int err;

	if (!devs)
		return -ENOMEM;
	while (undo.busy) /* the last run's Ctrl-C: its undo still holds the class */
		flush_scheduled_work();
	err = class_register(&bench_class);
	if (err)
		goto out_free;
	t0 = ktime_get_ns();
	err = register_all(devs, n);
	t1 = ktime_get_ns();
	if (!err)
		err = lookup_all(n);
	t2 = ktime_get_ns();
	if (err == -EINTR) {
		defer_undo(devs, n);
		return err;
	}
	unregister_range(devs, 0, n);
	t3 = ktime_get_ns();
	class_unregister(&bench_class);
	if (!err) {
		report("register", n, t1 - t0);
		report("lookup", n, t2 - t1);
		report("unregister", n, t3 - t2);
	}
out_free:
	kfree(devs);
	return err;
}

static int bench_devmodel(unsigned int n)
{
	int err;

	mutex_lock(&bench_mutex);
	err = __bench_devmodel(n);
	mutex_unlock(&bench_mutex);
	return err;
}

static void ipi_nop(void *unused)
{
}

/* CPU 1, or CPU 0 when the shell runs on CPU 1; NR_CPUS (no such CPU) when CPU 1 is down. */
static unsigned int other_cpu(void)
{
	if (!cpu_online(1))
		return NR_CPUS;
	return smp_processor_id() == 1 ? 0 : 1;
}

/* N round trips of a call-function IPI between CPUs 0 and 1, each waiting for the function to finish. */
static int bench_ipi(unsigned int n)
{
	u64 t0 = ktime_get_ns(), ns;
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++) {
		preempt_disable(); /* the shell may move between CPUs: pick the other one each time */
		err = signal_pending() ? -EINTR : smp_call_function_single(other_cpu(), ipi_nop, NULL, true);
		preempt_enable();
	}
	if (err)
		return err == -EINVAL ? -ENODEV : err; /* no CPU 1 online */
	ns = ktime_get_ns() - t0;
	sh_printf("ipi round trip  N=%u  %lu us total  %lu ns/op\n", n, (unsigned long)(ns / 1000),
		  (unsigned long)(ns / n));
	return 0;
}

struct pingpong {
	struct completion ping, pong;
};

/* Answers each ping with a pong until stopped (a last ping wakes it for the stop). */
static int ponger(void *data)
{
	struct pingpong *p = data;

	for (;;) {
		wait_for_completion(&p->ping);
		if (kthread_should_stop())
			return 0;
		complete(&p->pong);
	}
}

static int bench_switch(unsigned int n)
{
	struct pingpong p;
	struct task_struct *k;
	unsigned long switches;
	unsigned int i;
	u64 t0, ns;

	init_completion(&p.ping);
	init_completion(&p.pong);
	k = kthread_run(ponger, &p, "bench-pong");
	if (IS_ERR(k))
		return (int)PTR_ERR(k);
	switches = nr_context_switches();
	t0 = ktime_get_ns();
	for (i = 0; i < n && !signal_pending(); i++) {
		complete(&p.ping);
		wait_for_completion(&p.pong);
	}
	ns = ktime_get_ns() - t0;
	switches = nr_context_switches() - switches;
	k->should_stop = true; /* as kthread_stop sets it, before the ping that wakes it */
	complete(&p.ping);
	kthread_stop(k);
	if (i < n)
		return -EINTR;
	sh_printf("context switch  N=%u  %lu us total  %lu ns/switch  (%lu switches)\n", n,
		  (unsigned long)(ns / 1000), (unsigned long)(ns / (switches ? switches : 1)),
		  switches);
	return 0;
}

static void fence_row(const char *what, unsigned int n, u64 ns)
{
	sh_printf("fence %-16s N=%u  %lu us total  %lu ns/op\n", what, n, (unsigned long)(ns / 1000),
		  (unsigned long)(ns / n));
}

static int status_reads(struct device *dev, void *data)
{
	struct virtio_device *vdev = dev_to_virtio(dev);
	unsigned int n = *(unsigned int *)data;
	u64 t0 = ktime_get_ns();

	for (unsigned int i = 0; i < n; i++)
		(void)vdev->config->get_status(vdev);
	fence_row("virtio status", n, ktime_get_ns() - t0);
	return 1; /* the first device only */
}

static int bench_fence(unsigned int n)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		mb();
	fence_row("mfence", n, ktime_get_ns() - t0);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		__asm__ volatile("lock; addl $0,(%%esp)" ::: "memory", "cc");
	fence_row("lock addl", n, ktime_get_ns() - t0);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		(void)inb(0x80);
	fence_row("inb 0x80", n, ktime_get_ns() - t0);
	bus_for_each_dev(&virtio_bus, NULL, &n, status_reads);
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	unsigned int n;
	int err;

	if (argc != 3 ||
	    (strcmp(argv[1], "devmodel") && strcmp(argv[1], "ipi") && strcmp(argv[1], "switch") &&
	     strcmp(argv[1], "fence")) ||
	    kstrtouint(argv[2], 10, &n) || n == 0 || n > BENCH_MAX) {
		sh_err("usage: bench devmodel|ipi|switch|fence N (1-%d)\n", BENCH_MAX);
		return 1;
	}
	if (argv[1][0] == 'f')
		err = bench_fence(n);
	else if (argv[1][0] == 's')
		err = bench_switch(n);
	else
		err = argv[1][0] == 'i' ? bench_ipi(n) : bench_devmodel(n);
	if (sh_interrupted(err))
		return 130; /* Ctrl-C: the shell says ^C */
	if (err) {
		sh_err("bench: %s\n", kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("bench", "devmodel|ipi|switch|fence N",
	      "time N class device registrations, lookups, removals; N IPI round trips to CPU 1; "
	      "or N completion round trips between two threads (a context switch each way)",
	      cmd_bench);
