/*
 * sysctl.c: the tables of /proc/sys (Linux 2.6's kernel/sysctl.c) and the
 * handlers that turn their data into text and back. A new setting is one
 * line in its directory's table.
 */
#include <kobold/sysctl.h>
#include <kobold/errno.h>
#include <kobold/aio.h>
#include <kobold/kmod.h>
#include <kobold/pid.h>
#include <kobold/string.h>

DEFINE_SPINLOCK(sysctl_data_lock);

static int pid_max_min = RESERVED_PIDS + 1, pid_max_max = PID_MAX_LIMIT; /* 2.6's bounds */

static struct ctl_table kern_table[] = {
	{ .procname = "hotplug", .data = uevent_helper, .maxlen = UEVENT_HELPER_PATH_LEN, .mode = 0644, .proc_handler = proc_dostring },
	{ .procname = "pid_max", .data = &pid_max, .maxlen = sizeof(int), .mode = 0644, .proc_handler = proc_dointvec_minmax, .extra1 = &pid_max_min, .extra2 = &pid_max_max },
	{}
};

static struct ctl_table fs_table[] = {
	{ .procname = "aio-max-nr", .data = &aio_max_nr, .maxlen = sizeof(unsigned long), .mode = 0644, .proc_handler = proc_doulongvec_minmax },
	{ .procname = "aio-nr", .data = &aio_nr, .maxlen = sizeof(unsigned long), .mode = 0444, .proc_handler = proc_doulongvec_minmax },
	{}
};

static struct ctl_table vm_table[] = {
	{}
};

struct ctl_table sysctl_root_table[] = {
	{ .procname = "fs", .mode = 0555, .child = fs_table },
	{ .procname = "kernel", .mode = 0555, .child = kern_table },
	{ .procname = "vm", .mode = 0555, .child = vm_table },
	{}
};

/* The length of the first line of buffer (up to a newline or NUL). */
static size_t first_line(const char *buffer, size_t len)
{
	size_t n = 0;

	while (n < len && buffer[n] != '\n' && buffer[n] != '\0')
		n++;
	return n;
}

int proc_dostring(struct ctl_table *table, int write, char *buffer, size_t *lenp, loff_t *ppos)
{
	size_t len;
	unsigned long flags;

	if (write) {
		len = first_line(buffer, *lenp);
		if (len >= (size_t)table->maxlen)
			return -EINVAL; /* 2.6 cut it to maxlen - 1 bytes: a path that is not the one written */
		spin_lock_irqsave(&sysctl_data_lock, flags);
		memcpy(table->data, buffer, len);
		((char *)table->data)[len] = '\0';
		spin_unlock_irqrestore(&sysctl_data_lock, flags);
		*ppos += (loff_t)*lenp;
		return 0;
	}
	spin_lock_irqsave(&sysctl_data_lock, flags);
	*lenp = scnprintf(buffer, *lenp, "%s\n", (const char *)table->data);
	spin_unlock_irqrestore(&sysctl_data_lock, flags);
	return 0;
}

static int do_intvec_read(struct ctl_table *table, char *buffer, size_t *lenp)
{
	const int *v = table->data;
	size_t n = 0;

	for (int i = 0; i < table->maxlen / (int)sizeof(int); i++)
		n += scnprintf(buffer + n, *lenp - n, "%s%d", i ? "\t" : "", v[i]);
	n += scnprintf(buffer + n, *lenp - n, "\n");
	*lenp = n;
	return 0;
}

/* The next blank-separated word of *p, NUL-ended in place; NULL at the end. */
static char *next_word(char **p)
{
	char *w = *p;

	while (*w == ' ' || *w == '\t' || *w == '\n')
		w++;
	if (!*w)
		return NULL;
	*p = w;
	while (**p && **p != ' ' && **p != '\t' && **p != '\n')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return w;
}

/* Parses every integer first, so a bad one changes nothing (buffer has room for a NUL). */
static int do_intvec_write(struct ctl_table *table, char *buffer, size_t len, bool minmax)
{
	int vals[16], n = 0, max = table->maxlen / (int)sizeof(int);
	char *p = buffer, *word;

	buffer[len] = '\0';
	while ((word = next_word(&p)) != NULL) {
		if (n == max || n == (int)ARRAY_SIZE(vals) || kstrtoint(word, 10, &vals[n]))
			return -EINVAL;
		if (minmax && ((table->extra1 && vals[n] < *(int *)table->extra1) ||
			       (table->extra2 && vals[n] > *(int *)table->extra2)))
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	memcpy(table->data, vals, (size_t)n * sizeof(int));
	return 0;
}

static int do_intvec_rw(struct ctl_table *table, int write, char *buffer, size_t *lenp,
			bool minmax)
{
	return write ? do_intvec_write(table, buffer, *lenp, minmax)
		     : do_intvec_read(table, buffer, lenp);
}

typedef int value_rw(struct ctl_table *table, int write, char *buffer, size_t *lenp,
		     bool minmax);

/* A value read or written under sysctl_data_lock; a write that took moves *ppos on. */
static int locked_rw(value_rw *rw, struct ctl_table *table, int write, char *buffer,
		     size_t *lenp, loff_t *ppos, bool minmax)
{
	unsigned long flags;
	int err;

	spin_lock_irqsave(&sysctl_data_lock, flags);
	err = rw(table, write, buffer, lenp, minmax);
	spin_unlock_irqrestore(&sysctl_data_lock, flags);
	if (!err && write)
		*ppos += (loff_t)*lenp;
	return err;
}

int proc_dointvec(struct ctl_table *table, int write, char *buffer, size_t *lenp, loff_t *ppos)
{
	return locked_rw(do_intvec_rw, table, write, buffer, lenp, ppos, false);
}

int proc_dointvec_minmax(struct ctl_table *table, int write, char *buffer, size_t *lenp,
			 loff_t *ppos)
{
	return locked_rw(do_intvec_rw, table, write, buffer, lenp, ppos, true);
}

/* One unsigned long (Linux's takes a vector too; no entry here needs one). */
static int do_ulong(struct ctl_table *table, int write, char *buffer, size_t *lenp,
		    bool minmax)
{
	unsigned long *v = table->data, val;
	char *p = buffer, *word;

	if (!write) {
		*lenp = scnprintf(buffer, *lenp, "%lu\n", *v);
		return 0;
	}
	buffer[*lenp] = '\0';
	word = next_word(&p);
	if (!word || next_word(&p) || kstrtoul(word, 10, &val))
		return -EINVAL;
	if (minmax && ((table->extra1 && val < *(unsigned long *)table->extra1) ||
		       (table->extra2 && val > *(unsigned long *)table->extra2)))
		return -EINVAL;
	*v = val;
	return 0;
}

int proc_doulongvec_minmax(struct ctl_table *table, int write, char *buffer, size_t *lenp,
			   loff_t *ppos)
{
	return locked_rw(do_ulong, table, write, buffer, lenp, ppos, true);
}
