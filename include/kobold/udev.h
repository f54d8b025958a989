/*
 * udev.h: udev's rules (a useful subset of udev(7)'s syntax), parsed and
 * applied to one event at a time. Portable: devices are reached through
 * struct udev_device_ops, sysfs in the kernel and fakes in the host tests.
 */
#ifndef KOBOLD_UDEV_H
#define KOBOLD_UDEV_H

#include <kobold/list.h>
#include <kobold/types.h>

#define UDEV_LINE_MAX 16384 /* one rule, '\' continued lines joined (systemd's UDEV_LINE_SIZE) */
#define UDEV_KEYS_MAX 32    /* keys in one rule */
#define UDEV_RULES_MAX 1024 /* rules loaded from all files */
#define UDEV_VALUE_MAX 256  /* one value after substitution */
#define UDEV_ENV_MAX 48	    /* properties of one event */
#define UDEV_LINKS_MAX 16
#define UDEV_RUN_MAX 8
#define UDEV_DEPTH_MAX 32 /* parents walked by KERNELS, ATTRS, ... */

enum udev_key_type {
	UDEV_ACTION,
	UDEV_DEVPATH,
	UDEV_KERNEL,
	UDEV_SUBSYSTEM,
	UDEV_DRIVER,
	UDEV_ATTR,
	UDEV_ENV,
	UDEV_KERNELS, /* the parent-walking keys: all must match one device */
	UDEV_SUBSYSTEMS,
	UDEV_DRIVERS,
	UDEV_ATTRS,
	UDEV_SYMLINK, /* assignments from here on */
	UDEV_MODE,
	UDEV_RUN,
	UDEV_IMPORT,
	UDEV_GOTO,
	UDEV_LABEL,
};

enum udev_op {
	UDEV_OP_MATCH,	 /* == */
	UDEV_OP_NOMATCH, /* != */
	UDEV_OP_ASSIGN,	 /* = */
	UDEV_OP_ADD,	 /* += */
	UDEV_OP_FINAL,	 /* := (no later rule may change it) */
};

struct udev_key {
	u8 type;	  /* enum udev_key_type */
	u8 op;		  /* enum udev_op */
	const char *attr; /* the name in KEY{name}, or NULL */
	const char *value;
};

struct udev_rule {
	struct list_head node;
	const char *file;
	int line;
	int nr_keys;
	struct udev_rule *goto_target; /* the LABEL a GOTO key names */
	struct udev_key keys[];
};

/* The rules of all files, in the order they were parsed. */
struct udev_rules {
	struct list_head rules;
	int nr_rules;
	int nr_errors; /* bad rules reported (and skipped) */
	/* Called for each bad rule; the rule is skipped, the rest still load. */
	void (*report)(void *arg, const char *file, int line, const char *msg);
	void *report_arg;
};

/* What the event's properties a rule needs besides its KEY=VALUE strings. */
enum udev_property {
	UDEV_PROP_SUBSYSTEM,
	UDEV_PROP_DRIVER,
};

struct udev_event;

/* The devices, as the rules see them. Each returns 0 or a negative errno. */
struct udev_device_ops {
	/* udev's parent of devpath into buf (for a class device, its "device" link) */
	int (*parent)(void *ctx, const char *devpath, char *buf, size_t size);
	/* the subsystem or driver name of devpath; "" when it has none */
	int (*property)(void *ctx, const char *devpath, enum udev_property what, char *buf,
			size_t size);
	int (*attr_read)(void *ctx, const char *devpath, const char *attr, char *buf,
			 size_t size);
	int (*attr_write)(void *ctx, const char *devpath, const char *attr, const char *value);
	/* IMPORT{builtin}="name": sets properties with udev_event_setenv; may be NULL */
	int (*import_builtin)(void *ctx, struct udev_event *event, const char *name);
	/* each applied assignment, as `udevadm test` prints it; may be NULL */
	void (*trace)(void *ctx, const char *line);
	/* an assignment that failed, in systemd's words; may be NULL (then trace has it) */
	void (*failed)(void *ctx, const char *line);
};

/* One event on its way through the rules, and what they decided for it. */
struct udev_event {
	const struct udev_device_ops *ops;
	void *ctx;
	char *env[UDEV_ENV_MAX]; /* KEY=VALUE, ACTION, DEVPATH, SUBSYSTEM first */
	int nr_env;
	char *links[UDEV_LINKS_MAX]; /* names below /dev */
	int nr_links;
	char *run[UDEV_RUN_MAX];	/* shell command lines, run after the rules */
	bool run_builtin[UDEV_RUN_MAX]; /* RUN{builtin}: a builtin and its arguments */
	int nr_run;
	int mode; /* of the /dev node; -1 if no rule set one */
	bool links_final, mode_final, run_final;
	const char *parent; /* the parent the last rule's ATTRS matched ($attr falls back to it) */
	char parent_buf[UDEV_VALUE_MAX];
};

void udev_rules_init(struct udev_rules *rules);
/*
 * Parses one file's text and appends its rules; GOTOs are resolved within
 * the file. Bad rules are reported and skipped. 0, or -ENOMEM.
 */
int udev_rules_parse(struct udev_rules *rules, const char *file, const char *text, size_t len);
void udev_rules_free(struct udev_rules *rules);
/* "FILE:LINE msg" into buf, as systemd-udevd words a bad rule. */
int udev_rules_format_error(char *buf, size_t size, const char *file, int line, const char *msg);

/* envp: the event's KEY=VALUE strings, NULL-ended. 0 or -ENOMEM. */
int udev_event_init(struct udev_event *event, const struct udev_device_ops *ops, void *ctx,
		    char *const *envp);
void udev_event_free(struct udev_event *event);
/* The value of a property, or NULL. */
const char *udev_event_getenv(const struct udev_event *event, const char *key);
/* Sets (value NULL: removes) a property. 0, -ENOSPC when full, or -ENOMEM. */
int udev_event_setenv(struct udev_event *event, const char *key, const char *value);

/* Runs every rule on the event; the results are in event. 0 or -ENOMEM. */
int udev_rules_apply(struct udev_rules *rules, struct udev_event *event);

/*
 * Expands $kernel %k $number %n $devpath %p $env{KEY} %E{KEY} $attr{name}
 * %s{name} $major %M $minor %m $$ %% in in; the result is cut at size.
 */
void udev_event_subst(struct udev_event *event, const char *in, char *out, size_t size);

#endif
