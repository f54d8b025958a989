/*
 * readers.c: `readers start [nolock] PATH...` starts a reader thread per
 * online CPU that reads the files over and over; `readers stop` stops them
 * and says how the reads ended: the value, ENOENT (the file was gone at
 * open), ENODEV (it went while open), or anything else, which is a bug.
 * Each read takes the big kernel lock, as a shell command once did; `nolock`
 * leaves it out, to show the race that lock closed (docs/smp.md). One
 * console at a time starts or stops them (readers_mutex).
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/kthread.h>
#include <kobold/mutex.h>
#include <kobold/shell.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>

#define READERS_MAX_PATHS 8

struct reader_stats {
	unsigned long reads, ok, enoent, enodev, other;
	int last_other;
};

static struct {
	char paths[READERS_MAX_PATHS][128];
	int npaths;
	bool nolock;
	struct task_struct *task[NR_CPUS];
	struct reader_stats stats[NR_CPUS];
} readers;
static DEFINE_MUTEX(readers_mutex); /* readers, against two consoles' start and stop */

static int read_once(const char *path)
{
	struct file *f;
	char buf[64];
	ssize_t n;
	int err = vfs_open(NULL, path, O_RDONLY, 0, &f);

	if (err)
		return err;
	n = vfs_read(f, buf, sizeof(buf));
	vfs_close(f);
	return n < 0 ? (int)n : 0;
}

static void count(struct reader_stats *st, int err)
{
	st->reads++;
	if (!err)
		st->ok++;
	else if (err == -ENOENT)
		st->enoent++;
	else if (err == -ENODEV)
		st->enodev++;
	else {
		st->other++;
		st->last_other = err;
	}
}

static int reader(void *data)
{
	struct reader_stats *st = data;

	while (!kthread_should_stop()) {
		for (int i = 0; i < readers.npaths; i++) {
			int err;

			if (!readers.nolock)
				lock_kernel();
			err = read_once(readers.paths[i]);
			if (!readers.nolock)
				unlock_kernel();
			count(st, err);
		}
		cond_resched();
	}
	return 0;
}

static int readers_start(int argc, char **argv)
{
	unsigned int cpu;
	int first = 2;

	if (readers.npaths) {
		sh_err("readers: already running\n");
		return 1;
	}
	readers.nolock = argc > 2 && !strcmp(argv[2], "nolock");
	first += readers.nolock;
	if (argc == first || argc - first > READERS_MAX_PATHS) {
		sh_err("usage: readers start [nolock] PATH... (up to %d)\n", READERS_MAX_PATHS);
		return 1;
	}
	for (int i = first; i < argc; i++)
		strscpy(readers.paths[readers.npaths++], argv[i], sizeof(readers.paths[0]));
	for_each_online_cpu(cpu)
	{
		struct task_struct *k;

		memset(&readers.stats[cpu], 0, sizeof(readers.stats[cpu]));
		k = kthread_run(reader, &readers.stats[cpu], "reader/%u", cpu);
		if (!IS_ERR(k))
			readers.task[cpu] = k;
	}
	return 0;
}

static int readers_stop(void)
{
	struct reader_stats sum = { 0 };

	if (!readers.npaths) {
		sh_err("readers: not running\n");
		return 1;
	}
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct reader_stats *st = &readers.stats[cpu];

		if (!readers.task[cpu])
			continue;
		kthread_stop(readers.task[cpu]);
		readers.task[cpu] = NULL;
		sum.reads += st->reads;
		sum.ok += st->ok;
		sum.enoent += st->enoent;
		sum.enodev += st->enodev;
		sum.other += st->other;
		if (st->other)
			sum.last_other = st->last_other;
	}
	readers.npaths = 0;
	sh_printf("readers: %lu reads: %lu ok, %lu ENOENT, %lu ENODEV, %lu other", sum.reads,
		  sum.ok, sum.enoent, sum.enodev, sum.other);
	if (sum.other)
		sh_printf(" (last %d)", sum.last_other);
	sh_printf("\n");
	return sum.other ? 1 : 0;
}

static int cmd_readers(int argc, char **argv)
{
	int status;

	if (argc >= 2 && !strcmp(argv[1], "start")) {
		mutex_lock(&readers_mutex);
		status = readers_start(argc, argv);
	} else if (argc == 2 && !strcmp(argv[1], "stop")) {
		mutex_lock(&readers_mutex);
		status = readers_stop();
	} else {
		sh_err("usage: readers start [nolock] PATH... | readers stop\n");
		return 1;
	}
	mutex_unlock(&readers_mutex);
	return status;
}
SHELL_COMMAND("readers", "start [nolock] PATH... | stop",
	      "reader threads, one per CPU, read files until stopped (a stress of sysfs)",
	      cmd_readers);
