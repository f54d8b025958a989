/*
 * udevd.h: udev's daemon in the kernel. A listener queues each kernel event;
 * deferred work takes them in order, runs the rules (/etc/udev/rules.d and
 * the built-in set), makes the /dev links and modes, runs RUN+= and sends
 * the event on as udev's, to the udev listeners (`udevadm monitor`).
 */
#ifndef KOBOLD_UDEVD_H
#define KOBOLD_UDEVD_H

#include <kobold/list.h>
#include <kobold/udev.h>

#define UDEVD_QUEUE_MAX 256		   /* kernel events waiting; more are dropped (logged once a burst) */
#define UDEVD_RULES_FILE_MAX (1024 * 1024) /* bytes of one rules file; a larger one is ignored, logged */
#define UDEV_RULES_DIR "/etc/udev/rules.d"

/* An event after the rules: what `udevadm monitor` prints as a UDEV line. */
struct udev_monitor_event {
	u64 timestamp_ns;
	const char *action, *devpath, *subsystem;
	char *const *env; /* KEY=VALUE, with what the rules added */
	int nr_env;
};

struct udev_listener {
	void (*event)(struct udev_listener *l, const struct udev_monitor_event *e);
	struct list_head node;
};

/* Starts listening for kernel events and loads the rules. */
void udevd_init(void);
/* `udevadm control --exit`: the in-kernel udev handles no further events (boot: udev.enabled=0). */
void udevd_exit(void);
void udev_listener_register(struct udev_listener *l);
void udev_listener_unregister(struct udev_listener *l);

/* Reads the rules again; bad rules are logged with file and line. Their number. */
int udevd_reload(void);
/* True while kernel events wait or one is being handled (`udevadm settle`). */
bool udevd_busy(void);
/* True while another thread handles an event (events/0, or another console's command). */
bool udevd_busy_elsewhere(void);
/* True if the running thread is inside udevd's handling of an event (a RUN+= line runs it). */
bool udevd_busy_here(void);
/* A tick's sleep without the big kernel lock, while another thread handles an event. */
void udevd_wait_elsewhere(void);
/*
 * True when the next event waiting was sent by the work of another event's
 * rules (a RUN+= program or an ATTR= write): the shell does not wait for
 * those, so a rule that retriggers its own event cannot hold it for good.
 */
bool udevd_next_sent_by_rule(void);
/*
 * Runs queued work until there is none, or the next event is one that a
 * rule's own work sent: what the boot waits for before the first prompt.
 * A command waits for nothing unless it asks (udevadm settle).
 */
void udevd_flush_work(void);
/* fn on each event still waiting, in order: its DEVPATH and SEQNUM (`udevadm settle`). */
void udevd_for_each_queued(void (*fn)(const char *devpath, const char *seqnum, void *arg),
			   void *arg);

/*
 * `udevadm test`: the rules on an event made from the device's uevent file,
 * nothing written or run; each applied key and the result go to out.
 */
int udevd_test(const char *devpath, const char *action, void (*out)(const char *line));

/* fn (if not NULL) on each link (below /dev) udev made for the device at devpath; their number. */
int udevd_for_each_link(const char *devpath, void (*fn)(const char *link, void *arg), void *arg);

/* How RUN+= runs a command line (the shell registers its executor). */
void udevd_set_executor(int (*run)(const char *line));
/*
 * The shell's state is taken for a whole event (its RUN+= lines use it):
 * enter() returns -1 if a command of the shell runs in another thread
 * (udevd then leaves its events queued until udevd_kick(), which the shell
 * calls when the command ends, or until the shell runs them itself: before
 * each command, udevadm settle, udevadm monitor), 0 if the caller is inside
 * already, 1 if it took it (then leave() gives it back).
 */
void udevd_set_executor_lock(int (*enter)(void), void (*leave)(void));
void udevd_kick(void);
/* Handles the next queued event in the caller, if udevd is not at one: true if it did. */
bool udevd_run_one(void);

/* For the rules: devices in sysfs, and the builtins of IMPORT{builtin}. */
extern const struct udev_device_ops udev_sysfs_ops;
/* 0 if devpath's attribute can be written, -EACCES if read-only, -ENOENT if missing. */
int udev_sysfs_attr_writable(const char *devpath, const char *attr);
int udev_builtin_import(void *ctx, struct udev_event *event, const char *name);

/* The /dev side (devnode.c): links, modes, and the rules files. */
int udev_node_add_links(const char *devname, char *const *links, int nr);
void udev_node_remove_links(char *const *links, int nr);
int udev_node_set_mode(const char *devname, int mode);
void udev_rules_dir_create(void);
/* Each *.rules file in dir, sorted, passed to fn with its text. */
int udev_rules_dir_for_each(const char *dir,
			    void (*fn)(const char *path, const char *name, const char *text,
				       size_t len, void *arg),
			    void *arg);

#endif
