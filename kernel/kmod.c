/*
 * kmod.c: the kernel's two ways out to programs, as Linux 2.6's kmod.c.
 * Loading a module for a device by its MODALIAS: the aliases are made at
 * boot from each module's MODULE_DEVICE_TABLE, in the patterns Linux's
 * file2alias writes to modules.alias; request_module() loads every module
 * whose pattern matches (udevd's 80-drivers.rules calls it). And
 * call_usermodehelper(): a user program started by the khelper thread.
 */
#include <kobold/completion.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/glob.h>
#include <kobold/irqflags.h>
#include <kobold/kmod.h>
#include <kobold/sched.h>
#include <kobold/smp_lock.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>
#include <kobold/module.h>
#include <kobold/pci.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/virtio.h>

#define MAX_ALIASES 32
#define ALIAS_LEN 96

extern const struct mod_device_table __start_mod_device_tables[], __stop_mod_device_tables[];

static struct mod_alias {
	const char *module;
	char pattern[ALIAS_LEN];
} aliases[MAX_ALIASES];
static int nr_aliases;

/* "%08X", or "*" for a field that matches anything. */
static void field(char *buf, size_t size, const char *key, u32 v, bool any, int width)
{
	size_t n = strlen(buf);

	if (any)
		scnprintf(buf + n, size - n, "%s*", key);
	else
		scnprintf(buf + n, size - n, "%s%0*X", key, width, v);
}

static void add_alias(const char *module, const char *pattern)
{
	if (WARN(nr_aliases == MAX_ALIASES, "kmod: too many aliases"))
		return;
	aliases[nr_aliases].module = module;
	strscpy(aliases[nr_aliases].pattern, pattern, ALIAS_LEN);
	nr_aliases++;
}

/* virtio:dDEVICEvVENDOR, as file2alias's do_virtio_entry. */
static void virtio_aliases(const char *module, const struct virtio_device_id *id)
{
	char buf[ALIAS_LEN];

	for (; id->device; id++) {
		strscpy(buf, "virtio:", sizeof(buf));
		field(buf, sizeof(buf), "d", id->device, false, 8);
		field(buf, sizeof(buf), "v", id->vendor, id->vendor == VIRTIO_DEV_ANY_ID, 8);
		add_alias(module, buf);
	}
}

/* pci:vVENDORdDEVICEsvSUBVsdSUBDbcBASEscSUBiIF, as file2alias's do_pci_entry. */
static void pci_aliases(const char *module, const struct pci_device_id *id)
{
	char buf[ALIAS_LEN];

	for (; id->vendor || id->class_mask; id++) {
		strscpy(buf, "pci:", sizeof(buf));
		field(buf, sizeof(buf), "v", id->vendor, id->vendor == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "d", id->device, id->device == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "sv", id->subvendor, id->subvendor == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "sd", id->subdevice, id->subdevice == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "bc", id->class >> 16, !(id->class_mask & 0xff0000), 2);
		field(buf, sizeof(buf), "sc", (id->class >> 8) & 0xff, !(id->class_mask & 0xff00), 2);
		field(buf, sizeof(buf), "i", id->class & 0xff, !(id->class_mask & 0xff), 2);
		add_alias(module, buf);
	}
}

/* modules.alias: every module's device table as patterns. */
static void build_aliases(void)
{
	for (const struct mod_device_table *t = __start_mod_device_tables;
	     t < __stop_mod_device_tables; t++) {
		if (strcmp(t->type, "virtio") == 0)
			virtio_aliases(t->module, t->table);
		else if (strcmp(t->type, "pci") == 0)
			pci_aliases(t->module, t->table);
		else
			pr_warn("kmod: %s: device table of unknown type %s\n", t->module, t->type);
	}
}

int request_module(const char *modalias)
{
	int err = -ENOENT;

	for (int i = 0; i < nr_aliases; i++) {
		if (!glob_match(aliases[i].pattern, modalias))
			continue;
		if (module_is_loaded(aliases[i].module)) {
			err = 0;
			continue;
		}
		err = module_load(aliases[i].module, 0, NULL);
		if (err)
			pr_err("kmod: %s for %s: %s\n", aliases[i].module, modalias, kstrerror(err));
		else
			pr_info("kmod: loaded %s for %s\n", aliases[i].module, modalias);
	}
	return err;
}

bool module_alias_exists(const char *modalias)
{
	for (int i = 0; i < nr_aliases; i++)
		if (glob_match(aliases[i].pattern, modalias))
			return true;
	return false;
}

void kmod_init(void)
{
	build_aliases();
}

void kmod_for_each_alias(void (*fn)(const char *pattern, const char *module, void *data), void *data)
{
	for (int i = 0; i < nr_aliases; i++)
		fn(aliases[i].pattern, aliases[i].module, data);
}

/*
 * call_usermodehelper's request: the work khelper runs, and a copy of the
 * strings. khelper makes the process and waits for its exec only (as
 * 2.6's CLONE_VFORK), so a helper that never exits holds nothing up.
 */
struct subprocess_info {
	struct work_struct work;
	struct completion done;	     /* the caller's wait (UMH_WAIT_EXEC, UMH_WAIT_PROC) */
	struct completion exec_done; /* the process's exec succeeded or failed (vfork_done) */
	enum umh_wait wait;
	int retval;		  /* the exec's error, or 0 */
	struct task_struct *task; /* UMH_WAIT_PROC: the running helper, counted */
	char *path;
	char **argv, **envp;
	char strings[];
};

static struct workqueue_struct *khelper_wq;
static int in_flight; /* requests queued or not yet past their exec */

static void count_in_flight(int d)
{
	unsigned long flags = local_irq_save();

	in_flight += d;
	local_irq_restore(flags);
}

int usermodehelper_in_flight(void) { return in_flight; }

static size_t strings_size(char *const v[], int *n)
{
	size_t size = 0;

	for (*n = 0; v && v[*n]; (*n)++)
		size += strlen(v[*n]) + 1;
	return size;
}

static char *copy_string(char **pos, const char *s)
{
	char *to = *pos;
	size_t n = strlen(s) + 1;

	memcpy(to, s, n);
	*pos += n;
	return to;
}

/* Copies v's strings to *pos and their pointers to out (NULL-ended). */
static void copy_strings(char **out, char *const v[], int n, char **pos)
{
	for (int i = 0; i < n; i++)
		out[i] = copy_string(pos, v[i]);
	out[n] = NULL;
}

static struct subprocess_info *subprocess_alloc(const char *path, char *const argv[],
						char *const envp[])
{
	int argc, envc;
	size_t size = strlen(path) + 1 + strings_size(argv, &argc) + strings_size(envp, &envc);
	struct subprocess_info *sub;
	char *pos;

	sub = kzalloc(sizeof(*sub) + size + sizeof(char *) + (size_t)(argc + envc + 2) * sizeof(char *));
	if (!sub)
		return NULL;
	sub->argv = (char **)ALIGN_UP((unsigned long)(sub->strings + size), sizeof(char *));
	sub->envp = sub->argv + argc + 1;
	pos = sub->strings;
	sub->path = copy_string(&pos, path);
	copy_strings(sub->argv, argv, argc, &pos);
	copy_strings(sub->envp, envp, envc, &pos);
	init_completion(&sub->done);
	init_completion(&sub->exec_done);
	return sub;
}

/* The new process's first code: become the program (2.6's ____call_usermodehelper). */
static int umh_exec(void *data)
{
	struct subprocess_info *sub = data;

	sub->retval = kernel_execve(sub->path, sub->argv, sub->envp);
	do_exit_user(126 << 8); /* its exit completes exec_done: khelper reads retval */
}

/* In khelper: a process, our child, reaped as it exits unless the caller waits for it. */
static int umh_start(struct subprocess_info *sub)
{
	const char *name = strrchr(sub->path, '/'); /* `ps`'s name until the exec */
	struct task_struct *p;
	struct kstat st;

	if (vfs_stat(NULL, sub->path, LOOKUP_FOLLOW, &st))
		return -ENOENT; /* the usual case, no helper installed: no process at all */
	lock_kernel();
	p = user_process_create(umh_exec, sub, name ? name + 1 : sub->path);
	if (IS_ERR(p)) {
		unlock_kernel();
		return (int)PTR_ERR(p);
	}
	user_process_adopt(p, true);
	p->user.vfork_done = &sub->exec_done;
	if (sub->wait == UMH_WAIT_PROC) {
		get_task_struct(p);
		sub->task = p;
	}
	unlock_kernel();
	wake_up_process(p);
	wait_for_completion(&sub->exec_done);
	return sub->retval;
}

/*
 * The last failure said, so that a helper that is missing or cannot run is
 * said once, not once an event (a bench of thousands of events would fill
 * the log); said again after a helper has started, or for another path or
 * error. Only khelper's one thread reads and writes it.
 */
static char umh_failed_path[256];
static int umh_failed_err;

static void umh_log_failure(const struct subprocess_info *sub, int err)
{
	const char *arg = sub->argv[0] && sub->argv[1] ? sub->argv[1] : "";

	if (err == umh_failed_err && strcmp(sub->path, umh_failed_path) == 0)
		return;
	umh_failed_err = err;
	strscpy(umh_failed_path, sub->path, sizeof(umh_failed_path));
	if (err == -ENOENT) /* a missing helper is normal: in dmesg, not on the console */
		pr_debug("call_usermodehelper: %s %s: %s (said once until a helper runs)\n", sub->path,
			 arg, kstrerror(err));
	else
		pr_warn("call_usermodehelper: %s %s: %s (said once until a helper runs)\n", sub->path,
			arg, kstrerror(err));
}

static void __call_usermodehelper(struct work_struct *work)
{
	struct subprocess_info *sub = container_of(work, struct subprocess_info, work);
	int err = umh_start(sub);

	count_in_flight(-1);
	if (sub->wait != UMH_NO_WAIT) {
		sub->retval = err;
		if (err && sub->task) {
			put_task_struct(sub->task);
			sub->task = NULL;
		}
		complete(&sub->done);
		return;
	}
	if (err)
		umh_log_failure(sub, err);
	else
		umh_failed_err = 0;
	kfree(sub);
}

/* UMH_WAIT_PROC: the caller waits for the exit itself; the helper is reaped as it exits. */
static int wait_for_helper(struct task_struct *p)
{
	int status;

	while (p->state != TASK_DEAD)
		schedule_timeout_uninterruptible(1);
	status = p->user.exit_status;
	put_task_struct(p);
	return status;
}

int call_usermodehelper(const char *path, char *const argv[], char *const envp[],
			enum umh_wait wait)
{
	struct subprocess_info *sub;
	int ret, depth;

	if (!khelper_wq)
		return -EBUSY;
	if (path[0] == '\0')
		return 0;
	sub = subprocess_alloc(path, argv, envp);
	if (!sub)
		return -ENOMEM;
	sub->wait = wait;
	INIT_WORK(&sub->work, __call_usermodehelper);
	count_in_flight(1);
	queue_work(khelper_wq, &sub->work);
	if (wait == UMH_NO_WAIT)
		return 0;
	depth = release_kernel_lock(); /* khelper takes it to make the process */
	wait_for_completion(&sub->done);
	ret = sub->retval;
	if (!ret && sub->task)
		ret = wait_for_helper(sub->task);
	reacquire_kernel_lock(depth);
	kfree(sub);
	return ret;
}

void usermodehelper_init(void)
{
	khelper_wq = create_singlethread_workqueue("khelper");
	if (!khelper_wq)
		pr_err("khelper: not started: no program will be run for the kernel\n");
}
