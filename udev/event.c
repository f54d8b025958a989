/*
 * event.c: one udev event's properties (KEY=VALUE strings, bounded in number
 * and size) and the substitutions rules use in their values ($kernel, %n, ...).
 */
#include <kobold/udev.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define ENV_STR_MAX 512 /* one KEY=VALUE string, as large as a MODALIAS needs */

static char *env_dup(const char *s)
{
	size_t n = strnlen(s, ENV_STR_MAX - 1);
	char *d = kmalloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

int udev_event_init(struct udev_event *ev, const struct udev_device_ops *ops, void *ctx,
		    char *const *envp)
{
	memset(ev, 0, sizeof(*ev));
	ev->ops = ops;
	ev->ctx = ctx;
	ev->mode = -1;
	for (; envp && *envp && ev->nr_env < UDEV_ENV_MAX; envp++) {
		if (!strchr(*envp, '='))
			continue;
		ev->env[ev->nr_env] = env_dup(*envp);
		if (!ev->env[ev->nr_env]) {
			udev_event_free(ev);
			return -ENOMEM;
		}
		ev->nr_env++;
	}
	return 0;
}

void udev_event_free(struct udev_event *ev)
{
	while (ev->nr_env)
		kfree(ev->env[--ev->nr_env]);
	while (ev->nr_links)
		kfree(ev->links[--ev->nr_links]);
	while (ev->nr_run)
		kfree(ev->run[--ev->nr_run]);
}

static int env_find(const struct udev_event *ev, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; i < ev->nr_env; i++)
		if (strncmp(ev->env[i], key, n) == 0 && ev->env[i][n] == '=')
			return i;
	return -1;
}

const char *udev_event_getenv(const struct udev_event *ev, const char *key)
{
	int i = env_find(ev, key);

	return i < 0 ? NULL : ev->env[i] + strlen(key) + 1;
}

int udev_event_setenv(struct udev_event *ev, const char *key, const char *value)
{
	int i = env_find(ev, key);
	char *s;

	if (!value) {
		if (i >= 0) {
			kfree(ev->env[i]);
			memmove(&ev->env[i], &ev->env[i + 1], (ev->nr_env - i - 1) * sizeof(char *));
			ev->nr_env--;
		}
		return 0;
	}
	if (i < 0 && ev->nr_env == UDEV_ENV_MAX)
		return -ENOSPC;
	s = kasprintf("%s=%s", key, value);
	if (!s)
		return -ENOMEM;
	if (strlen(s) >= ENV_STR_MAX)
		s[ENV_STR_MAX - 1] = '\0';
	if (i < 0)
		i = ev->nr_env++;
	else
		kfree(ev->env[i]);
	ev->env[i] = s;
	return 0;
}

/* Substitutions. */

static const struct {
	const char *name; /* $name */
	char c;		  /* %c */
	bool arg;	  /* takes {arg} */
} substs[] = {
	{ "kernel", 'k', false },
	{ "number", 'n', false },
	{ "devpath", 'p', false },
	{ "env", 'E', true },
	{ "attr", 's', true },
	{ "major", 'M', false },
	{ "minor", 'm', false },
};

static const char *kernel_name(const struct udev_event *ev)
{
	const char *p = udev_event_getenv(ev, "DEVPATH"), *slash;

	if (!p)
		return "";
	slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

/* $number: the kernel name's trailing digits ("1" for vda1). */
static const char *kernel_number(const struct udev_event *ev)
{
	const char *k = kernel_name(ev), *p = k + strlen(k);

	while (p > k && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p;
}

/* $attr{name}: at the device, or at the parent the rule's ATTRS matched. */
static void subst_attr(struct udev_event *ev, const char *attr, char *buf, size_t size)
{
	const char *devpath = udev_event_getenv(ev, "DEVPATH");
	int err = -ENOENT;

	if (devpath && *attr)
		err = ev->ops->attr_read(ev->ctx, devpath, attr, buf, size);
	if (err < 0 && ev->parent && *attr)
		err = ev->ops->attr_read(ev->ctx, ev->parent, attr, buf, size);
	if (err < 0)
		buf[0] = '\0';
	for (size_t n = strlen(buf); n && (buf[n - 1] == '\n' || buf[n - 1] == ' '); n--)
		buf[n - 1] = '\0';
}

static void subst_one(struct udev_event *ev, char c, const char *arg, char *buf, size_t size)
{
	const char *v = "";

	switch (c) {
	case 'k':
		v = kernel_name(ev);
		break;
	case 'n':
		v = kernel_number(ev);
		break;
	case 'p':
		v = udev_event_getenv(ev, "DEVPATH");
		break;
	case 'E':
		v = udev_event_getenv(ev, arg);
		break;
	case 'M':
		v = udev_event_getenv(ev, "MAJOR");
		break;
	case 'm':
		v = udev_event_getenv(ev, "MINOR");
		break;
	case 's':
		subst_attr(ev, arg, buf, size);
		return;
	}
	strscpy(buf, v ? v : "", size);
}

/* At in ('$' or '%'): which substitution, its {arg}, and its length; -1 if none. */
static int subst_parse(const char *in, char *c, char *arg, size_t size)
{
	const char *p = in + 1, *end;
	int i, n = ARRAY_SIZE(substs);

	for (i = 0; i < n; i++) {
		size_t l = strlen(substs[i].name);

		if (in[0] == '$' ? strncmp(p, substs[i].name, l) == 0 : *p == substs[i].c) {
			p += in[0] == '$' ? l : 1;
			break;
		}
	}
	if (i == n)
		return -1;
	*c = substs[i].c;
	arg[0] = '\0';
	if (!substs[i].arg)
		return p - in;
	end = *p == '{' ? strchr(p, '}') : NULL;
	if (!end || (size_t)(end - p) > size)
		return -1;
	memcpy(arg, p + 1, end - p - 1);
	arg[end - p - 1] = '\0';
	return end + 1 - in;
}

void udev_event_subst(struct udev_event *ev, const char *in, char *out, size_t size)
{
	char arg[UDEV_VALUE_MAX], val[UDEV_VALUE_MAX], c;
	size_t n = 0;
	int len;

	while (*in && n + 1 < size) {
		len = -1;
		if ((in[0] == '$' || in[0] == '%') && in[1] == in[0]) {
			out[n++] = in[0];
			in += 2;
			continue;
		}
		if (in[0] == '$' || in[0] == '%')
			len = subst_parse(in, &c, arg, sizeof(arg));
		if (len < 0) {
			out[n++] = *in++; /* not a substitution: a plain character */
			continue;
		}
		subst_one(ev, c, arg, val, sizeof(val));
		n += strscpy(out + n, val, size - n) < 0 ? strlen(out + n) : strlen(val);
		in += len;
	}
	out[n] = '\0';
}
