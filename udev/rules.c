/*
 * rules.c: udev's rules files parsed into rules (udev(7) syntax: comma
 * separated KEY{attr}OP"value", '#' comments, '\' continued lines), and
 * applied to an event: match keys first, then assignments, GOTO to a LABEL.
 */
#include <kobold/udev.h>
#include <kobold/errno.h>
#include <kobold/glob.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define MATCH_OPS (1u << UDEV_OP_MATCH | 1u << UDEV_OP_NOMATCH)
#define ASSIGN_OPS (1u << UDEV_OP_ASSIGN | 1u << UDEV_OP_ADD | 1u << UDEV_OP_FINAL)

enum attr_use { NO_ATTR,
		NEEDS_ATTR,
		MAY_HAVE_ATTR };

static const struct key_desc {
	const char *name;
	u8 type;
	u8 attr; /* enum attr_use */
	u8 ops;	 /* the operators allowed, a mask of 1 << enum udev_op */
} key_descs[] = {
	{ "ACTION", UDEV_ACTION, NO_ATTR, MATCH_OPS },
	{ "DEVPATH", UDEV_DEVPATH, NO_ATTR, MATCH_OPS },
	{ "KERNEL", UDEV_KERNEL, NO_ATTR, MATCH_OPS },
	{ "SUBSYSTEM", UDEV_SUBSYSTEM, NO_ATTR, MATCH_OPS },
	{ "DRIVER", UDEV_DRIVER, NO_ATTR, MATCH_OPS },
	{ "ATTR", UDEV_ATTR, NEEDS_ATTR, MATCH_OPS | 1u << UDEV_OP_ASSIGN },
	{ "ENV", UDEV_ENV, NEEDS_ATTR, MATCH_OPS | 1u << UDEV_OP_ASSIGN | 1u << UDEV_OP_ADD },
	{ "KERNELS", UDEV_KERNELS, NO_ATTR, MATCH_OPS },
	{ "SUBSYSTEMS", UDEV_SUBSYSTEMS, NO_ATTR, MATCH_OPS },
	{ "DRIVERS", UDEV_DRIVERS, NO_ATTR, MATCH_OPS },
	{ "ATTRS", UDEV_ATTRS, NEEDS_ATTR, MATCH_OPS },
	{ "SYMLINK", UDEV_SYMLINK, NO_ATTR, MATCH_OPS | ASSIGN_OPS },
	{ "MODE", UDEV_MODE, NO_ATTR, 1u << UDEV_OP_ASSIGN | 1u << UDEV_OP_FINAL },
	{ "RUN", UDEV_RUN, MAY_HAVE_ATTR, ASSIGN_OPS },
	{ "IMPORT", UDEV_IMPORT, NEEDS_ATTR, 1u << UDEV_OP_ASSIGN | 1u << UDEV_OP_ADD },
	{ "GOTO", UDEV_GOTO, NO_ATTR, 1u << UDEV_OP_ASSIGN },
	{ "LABEL", UDEV_LABEL, NO_ATTR, 1u << UDEV_OP_ASSIGN },
};

static const char *const op_names[] = { "==", "!=", "=", "+=", ":=" };

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static char *skip_space(char *p)
{
	while (is_space(*p))
		p++;
	return p;
}

static void report(struct udev_rules *rules, const char *file, int line, const char *msg)
{
	rules->nr_errors++;
	if (rules->report)
		rules->report(rules->report_arg, file, line, msg);
}

/* FILE:LINE msg, as systemd-udevd logs a bad rule (msg may begin with its own ':'). */
int udev_rules_format_error(char *buf, size_t size, const char *file, int line, const char *msg)
{
	return scnprintf(buf, size, "%s:%d%s%s", file, line, *msg == ':' ? "" : " ", msg);
}

void udev_rules_init(struct udev_rules *rules)
{
	INIT_LIST_HEAD(&rules->rules);
	rules->nr_rules = 0;
	rules->nr_errors = 0;
	rules->report = NULL;
	rules->report_arg = NULL;
}

void udev_rules_free(struct udev_rules *rules)
{
	struct udev_rule *r, *n;

	list_for_each_entry_safe(r, n, &rules->rules, node) {
		list_del(&r->node);
		kfree(r);
	}
	rules->nr_rules = 0;
}

static const struct key_desc *find_key(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_descs); i++)
		if (strlen(key_descs[i].name) == len && strncmp(key_descs[i].name, name, len) == 0)
			return &key_descs[i];
	return NULL;
}

static int parse_op(char **pp)
{
	char *p = *pp;

	for (int op = UDEV_OP_FINAL; op >= 0; op--) {
		size_t n = strlen(op_names[op]);

		if (strncmp(p, op_names[op], n) == 0 && (n == 2 || p[1] != '=')) {
			*pp = p + n;
			return op;
		}
	}
	return -EINVAL;
}

#define BAD_PAIR "Invalid key/value pair, ignoring."

/* A "value": ends at the next '"' not after '\'; \" becomes ", other '\' stay. */
static const char *parse_value(char **pp, const char **value)
{
	char *p = *pp, *out;

	if (*p != '"')
		return BAD_PAIR; /* a value must be in double quotes */
	*value = out = ++p;
	for (; *p != '"'; p++) {
		if (!*p)
			return BAD_PAIR; /* no closing double quote */
		if (*p == '\\' && p[1] == '"')
			p++;
		*out++ = *p;
	}
	*pp = p + 1;
	*out = '\0';
	return NULL;
}

/*
 * KEY{attr}OP"value" at *pp, cut out in place; NULL, or what is wrong, in
 * systemd 252's words. White space may surround the operator.
 */
static const char *parse_key(char **pp, struct udev_key *k, char *msg, size_t size,
			     const char **warning)
{
	char *p = *pp, *name = p, *name_end, *attr = NULL;
	const struct key_desc *d;
	const char *err;
	int op;

	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
	       *p == '_')
		p++;
	name_end = p;
	if (*p == '{') {
		attr = ++p;
		while (*p && *p != '}' && *p != '"')
			p++;
		if (*p != '}' || p == attr)
			return BAD_PAIR; /* the {attribute} is not closed */
		*p++ = '\0';
	}
	p = skip_space(p);
	op = parse_op(&p);
	if (name_end == name || op < 0)
		return BAD_PAIR;
	p = skip_space(p);
	err = parse_value(&p, &k->value);
	if (err)
		return err;
	d = find_key(name, name_end - name);
	*name_end = '\0';
	if (!d) {
		scnprintf(msg, size, "Invalid key '%s'", name);
		return msg;
	}
	if (d->type == UDEV_ENV && op == UDEV_OP_FINAL) {
		*warning = "ENV key takes '==', '!=', '=', or '+=' operator, assuming '='.";
		op = UDEV_OP_ASSIGN;
	}
	if (!(d->ops & 1u << op)) {
		scnprintf(msg, size, "Invalid operator for %s.", name);
		return msg;
	}
	if ((d->attr == NEEDS_ATTR && !attr) || (d->attr == NO_ATTR && attr)) {
		scnprintf(msg, size, "Invalid attribute for %s.", name);
		return msg;
	}
	k->type = d->type;
	k->op = op;
	k->attr = attr;
	*pp = p;
	return NULL;
}

/* What each key's value and attribute must be, beyond the syntax (MODE's value is checked as it applies, as systemd's). */
static const char *check_key(const struct udev_key *k, char *msg, size_t size)
{
	if (k->type == UDEV_RUN && k->attr && strcmp(k->attr, "program") != 0 &&
	    strcmp(k->attr, "builtin") != 0)
		return "Invalid attribute for RUN.";
	if (k->type == UDEV_IMPORT && strcmp(k->attr, "builtin") != 0)
		return "IMPORT{} supports only {builtin} here, ignoring.";
	if ((k->type == UDEV_GOTO || k->type == UDEV_LABEL) && !*k->value)
		return k->type == UDEV_GOTO ? "Invalid value for GOTO." : "Invalid value for LABEL.";
	return NULL;
}

static size_t key_bytes(const struct udev_key *k)
{
	return (k->attr ? strlen(k->attr) + 1 : 0) + strlen(k->value) + 1;
}

static char *copy_str(char **space, const char *s)
{
	char *d = *space;
	size_t n = strlen(s) + 1;

	memcpy(d, s, n);
	*space += n;
	return d;
}

/* One allocation holds the rule, its keys and their strings. */
static struct udev_rule *rule_alloc(const char *file, int line, const struct udev_key *keys,
				    int n)
{
	size_t size = sizeof(struct udev_rule) + n * sizeof(struct udev_key) + strlen(file) + 1;
	struct udev_rule *r;
	char *space;

	for (int i = 0; i < n; i++)
		size += key_bytes(&keys[i]);
	r = kmalloc(size);
	if (!r)
		return NULL;
	space = (char *)&r->keys[n];
	r->file = copy_str(&space, file);
	r->line = line;
	r->nr_keys = n;
	r->goto_target = NULL;
	for (int i = 0; i < n; i++) {
		r->keys[i] = keys[i];
		r->keys[i].attr = keys[i].attr ? copy_str(&space, keys[i].attr) : NULL;
		r->keys[i].value = copy_str(&space, keys[i].value);
	}
	return r;
}

/* The keys of one logical line, cut out of it in place; NULL or what is wrong. */
static const char *parse_keys(char *p, struct udev_key *keys, int *nr, char *msg, size_t size,
			      const char **warning)
{
	const char *err;

	*nr = 0;
	while (*(p = skip_space(p))) {
		if (*nr == UDEV_KEYS_MAX)
			return "Too many keys in one rule (32 at most), ignoring.";
		err = parse_key(&p, &keys[*nr], msg, size, warning);
		if (!err)
			err = check_key(&keys[*nr], msg, size);
		if (err)
			return err;
		(*nr)++;
		p = skip_space(p);
		if (*p == ',')
			p++;
		else if (*p && !is_space(p[-1]))
			return BAD_PAIR; /* keys are separated by commas */
	}
	return NULL;
}

static int parse_line(struct udev_rules *rules, const char *file, int line, char *buf)
{
	char *text = skip_space(buf);
	struct udev_key keys[UDEV_KEYS_MAX];
	const char *err, *warning = NULL;
	struct udev_rule *r;
	char msg[96];
	int n;

	if (!*text || *text == '#')
		return 0;
	err = parse_keys(text, keys, &n, msg, sizeof(msg), &warning);
	if (!err && n == 0)
		err = BAD_PAIR;
	if (warning)
		report(rules, file, line, warning);
	if (err) {
		report(rules, file, line, err);
		return 0;
	}
	r = rule_alloc(file, line, keys, n);
	if (!r)
		return -ENOMEM;
	list_add_tail(&r->node, &rules->rules);
	rules->nr_rules++;
	return 0;
}

static const struct udev_key *rule_key(const struct udev_rule *r, enum udev_key_type type)
{
	for (int i = 0; i < r->nr_keys; i++)
		if (r->keys[i].type == type)
			return &r->keys[i];
	return NULL;
}

/* A rule that does something besides GOTO: an assignment or a LABEL. */
static bool rule_has_effect(const struct udev_rule *r)
{
	for (int i = 0; i < r->nr_keys; i++)
		if (r->keys[i].type != UDEV_GOTO &&
		    (r->keys[i].type == UDEV_LABEL || r->keys[i].op >= UDEV_OP_ASSIGN))
			return true;
	return false;
}

/* The first later rule of the same file with the LABEL that r's GOTO names. */
static struct udev_rule *find_label(struct udev_rules *rules, struct udev_rule *r,
				    const char *name)
{
	const struct udev_key *l;
	struct udev_rule *t = r;

	list_for_each_entry_continue(t, &rules->rules, node)
	{
		l = rule_key(t, UDEV_LABEL);
		if (l && strcmp(l->value, name) == 0)
			return t;
	}
	return NULL;
}

/*
 * Each GOTO's target. A GOTO jumps forward only, so no GOTO loops; one with
 * no LABEL after it is ignored, and its rule dropped if that was all it did
 * (systemd's messages).
 */
static void resolve_gotos(struct udev_rules *rules, struct list_head *first)
{
	struct udev_rule *r = list_entry(first->prev, struct udev_rule, node), *n;
	const struct udev_key *g;
	char msg[UDEV_VALUE_MAX + 64];

	list_for_each_entry_safe_continue(r, n, &rules->rules, node)
	{
		g = rule_key(r, UDEV_GOTO);
		if (!g || (r->goto_target = find_label(rules, r, g->value)))
			continue;
		scnprintf(msg, sizeof(msg), ": GOTO=\"%s\" has no matching label, ignoring", g->value);
		report(rules, r->file, r->line, msg);
		if (rule_has_effect(r))
			continue;
		report(rules, r->file, r->line, ": The line takes no effect any more, dropping");
		list_del(&r->node);
		rules->nr_rules--;
		kfree(r);
	}
}

/*
 * The next logical line into buf; *lineno advances by the physical lines
 * taken. A NUL byte ends a line as a newline does (as systemd's read_line).
 * False if the line is longer than UDEV_LINE_MAX.
 */
static bool next_line(const char *text, size_t len, size_t *pos, int *lineno, char *buf,
		      size_t *n)
{
	bool cont;

	*n = 0;
	do {
		const char *s = text + *pos;
		size_t l = 0;

		while (*pos + l < len && s[l] != '\n' && s[l] != '\0')
			l++;
		*pos += l + (*pos + l < len);
		(*lineno)++;
		cont = l && s[l - 1] == '\\';
		l -= cont;
		if (*n + l > UDEV_LINE_MAX)
			return false;
		memcpy(buf + *n, s, l);
		*n += l;
	} while (cont && *pos < len);
	buf[*n] = '\0';
	return true;
}

int udev_rules_parse(struct udev_rules *rules, const char *file, const char *text, size_t len)
{
	struct list_head *last = rules->rules.prev;
	char *buf = kmalloc(UDEV_LINE_MAX + 1);
	size_t pos = 0, n;
	int lineno = 0, first, err = 0;
	char msg[80];

	if (!buf)
		return -ENOMEM;
	while (pos < len && !err) {
		first = lineno + 1;
		if (!next_line(text, len, &pos, &lineno, buf, &n)) {
			scnprintf(msg, sizeof(msg),
				  "Line too long (%d bytes at most), ignoring the rest of the file",
				  UDEV_LINE_MAX);
			report(rules, file, first, msg);
			break;
		}
		if (rules->nr_rules >= UDEV_RULES_MAX && *skip_space(buf) &&
		    *skip_space(buf) != '#') {
			scnprintf(msg, sizeof(msg),
				  "Too many rules (%d at most), ignoring the rest of the file",
				  UDEV_RULES_MAX);
			report(rules, file, first, msg);
			break;
		}
		err = parse_line(rules, file, first, buf);
	}
	resolve_gotos(rules, last->next);
	kfree(buf);
	return err;
}

/* Matching. */

/* pattern is glob alternatives separated by '|'. */
static bool pattern_match(const char *pattern, const char *value)
{
	char alt[UDEV_VALUE_MAX];
	const char *bar;

	for (;;) {
		bar = strchr(pattern, '|');
		if (!bar)
			return glob_match(pattern, value);
		if ((size_t)(bar - pattern) < sizeof(alt)) {
			memcpy(alt, pattern, bar - pattern);
			alt[bar - pattern] = '\0';
			if (glob_match(alt, value))
				return true;
		}
		pattern = bar + 1;
	}
}

static const char *env_or_empty(const struct udev_event *ev, const char *key)
{
	const char *v = udev_event_getenv(ev, key);

	return v ? v : "";
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void strip_trailing_space(char *s)
{
	size_t n = strlen(s);

	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
}

/* An attribute's value, without its newline; -errno if it cannot be read. */
static int read_attr(struct udev_event *ev, const char *devpath, const char *attr, char *buf,
		     size_t size)
{
	int err = ev->ops->attr_read(ev->ctx, devpath, attr, buf, size);

	if (err < 0)
		return err;
	strip_trailing_space(buf);
	return 0;
}

/* The event's own key for its device (self), else the device's property as sysfs has it. */
static int event_or_property(struct udev_event *ev, bool self, const char *devpath,
			     const char *key, enum udev_property prop, char *buf, size_t size)
{
	const char *value = self ? udev_event_getenv(ev, key) : NULL;

	if (value) {
		strscpy(buf, value, size);
		return 0;
	}
	return ev->ops->property(ev->ctx, devpath, prop, buf, size);
}

/* What a match key compares against at devpath (the event's device, or a parent). */
static int key_subject(struct udev_event *ev, const char *devpath, const struct udev_key *k,
		       char *buf, size_t size)
{
	bool self = strcmp(devpath, env_or_empty(ev, "DEVPATH")) == 0;

	switch (k->type) {
	case UDEV_ACTION:
		return strscpy(buf, env_or_empty(ev, "ACTION"), size) < 0 ? -E2BIG : 0;
	case UDEV_DEVPATH:
	case UDEV_KERNEL:
	case UDEV_KERNELS:
		strscpy(buf, k->type == UDEV_DEVPATH ? devpath : base_name(devpath), size);
		return 0;
	case UDEV_SUBSYSTEM:
	case UDEV_SUBSYSTEMS:
		return event_or_property(ev, self, devpath, "SUBSYSTEM", UDEV_PROP_SUBSYSTEM, buf, size);
	case UDEV_DRIVER:
	case UDEV_DRIVERS:
		return event_or_property(ev, self, devpath, "DRIVER", UDEV_PROP_DRIVER, buf, size);
	case UDEV_ATTR:
	case UDEV_ATTRS:
		return read_attr(ev, devpath, k->attr, buf, size);
	case UDEV_ENV:
		strscpy(buf, env_or_empty(ev, k->attr), size);
		return 0;
	}
	return -EINVAL;
}

static bool links_match(const struct udev_event *ev, const char *pattern)
{
	for (int i = 0; i < ev->nr_links; i++)
		if (pattern_match(pattern, ev->links[i]))
			return true;
	return false;
}

/* One match key at devpath; a value that cannot be read matches neither == nor != (systemd's rule). */
static bool key_matches(struct udev_event *ev, const char *devpath, const struct udev_key *k)
{
	char buf[UDEV_VALUE_MAX];
	bool m;

	if (k->type == UDEV_SYMLINK)
		m = links_match(ev, k->value);
	else if (key_subject(ev, devpath, k, buf, sizeof(buf)) < 0)
		return false;
	else
		m = pattern_match(k->value, buf);
	return k->op == UDEV_OP_MATCH ? m : !m;
}

static bool is_match(const struct udev_key *k)
{
	return k->op == UDEV_OP_MATCH || k->op == UDEV_OP_NOMATCH;
}

static bool is_parent_key(const struct udev_key *k)
{
	return k->type >= UDEV_KERNELS && k->type <= UDEV_ATTRS;
}

static bool parent_keys_match(struct udev_event *ev, const struct udev_rule *r,
			      const char *devpath)
{
	for (int i = 0; i < r->nr_keys; i++)
		if (is_parent_key(&r->keys[i]) && !key_matches(ev, devpath, &r->keys[i]))
			return false;
	return true;
}

/* KERNELS, SUBSYSTEMS, DRIVERS, ATTRS: all at one device, the event's or a parent. */
static bool parents_match(struct udev_event *ev, const struct udev_rule *r)
{
	char cur[UDEV_VALUE_MAX], next[UDEV_VALUE_MAX];
	bool any = false;

	for (int i = 0; i < r->nr_keys; i++)
		any |= is_parent_key(&r->keys[i]);
	if (!any)
		return true;
	strscpy(cur, env_or_empty(ev, "DEVPATH"), sizeof(cur));
	for (int depth = 0; depth < UDEV_DEPTH_MAX; depth++) {
		if (parent_keys_match(ev, r, cur)) {
			strscpy(ev->parent_buf, cur, sizeof(ev->parent_buf));
			ev->parent = ev->parent_buf;
			return true;
		}
		if (ev->ops->parent(ev->ctx, cur, next, sizeof(next)) < 0 ||
		    strcmp(next, cur) == 0)
			return false;
		strscpy(cur, next, sizeof(cur));
	}
	return false;
}

static bool rule_matches(struct udev_event *ev, const struct udev_rule *r)
{
	const char *devpath = env_or_empty(ev, "DEVPATH");

	ev->parent = NULL;
	for (int i = 0; i < r->nr_keys; i++) {
		const struct udev_key *k = &r->keys[i];

		if (is_match(k) && !is_parent_key(k) && !key_matches(ev, devpath, k))
			return false;
	}
	return parents_match(ev, r);
}

/* Assignments. */

static const char *key_name(const struct udev_key *k)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_descs); i++)
		if (key_descs[i].type == k->type)
			return key_descs[i].name;
	return "?";
}

/* FILE:LINE KEY{attr}OP"value", as the rule would read with its value expanded. */
static void trace_key(struct udev_event *ev, const struct udev_rule *r,
		      const struct udev_key *k, const char *value)
{
	char line[UDEV_VALUE_MAX + 128];
	size_t n;

	if (!ev->ops->trace)
		return;
	n = scnprintf(line, sizeof(line), "%s:%d %s", r->file, r->line, key_name(k));
	if (k->attr)
		n += scnprintf(line + n, sizeof(line) - n, "{%s}", k->attr);
	scnprintf(line + n, sizeof(line) - n, "%s\"%s\"", op_names[k->op], value);
	ev->ops->trace(ev->ctx, line);
}

/* An assignment that failed, in systemd's words: the rule goes on. */
static void trace_error(struct udev_event *ev, const struct udev_rule *r,
			const struct udev_key *k, const char *value, int err)
{
	void (*out)(void *ctx, const char *line) = ev->ops->failed ?: ev->ops->trace;
	char line[UDEV_VALUE_MAX * 2 + 128];
	size_t n;

	if (!out)
		return;
	n = scnprintf(line, sizeof(line), "%s:%d ", r->file, r->line);
	if (k->type == UDEV_ATTR)
		scnprintf(line + n, sizeof(line) - n, "Failed to write ATTR{/sys%s/%s}, ignoring: %s",
			  env_or_empty(ev, "DEVPATH"), k->attr, kstrerror(err));
	else if (k->type == UDEV_MODE)
		scnprintf(line + n, sizeof(line) - n, "Failed to parse mode '%s', ignoring: %s",
			  value, kstrerror(err));
	else
		scnprintf(line + n, sizeof(line) - n, "Failed to apply %s, ignoring: %s",
			  key_name(k), kstrerror(err));
	out(ev->ctx, line);
}

static int list_add_str(char **list, int *nr, int max, const char *s)
{
	for (int i = 0; i < *nr; i++)
		if (strcmp(list[i], s) == 0)
			return 0;
	if (*nr == max)
		return -ENOSPC;
	list[*nr] = kstrdup(s);
	if (!list[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static void list_clear(char **list, int *nr)
{
	while (*nr)
		kfree(list[--*nr]);
}

/* The length of the valid UTF-8 sequence of two or more bytes at s, else 0. */
static int utf8_len(const unsigned char *s)
{
	int n = *s >= 0xf0 && *s <= 0xf4 ? 4 : *s >= 0xe0	 ? 3
				       : *s >= 0xc2 && *s < 0xe0 ? 2
								 : 0;

	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * What a device link's name may hold, as systemd's udev_replace_chars with
 * "/ " allowed: letters, digits, "#+-.:=@_", '/', ' ', \x escapes and
 * valid UTF-8; other white space becomes ' ', anything else '_'.
 */
static int replace_link_chars(char *s)
{
	int replaced = 0, n;

	while (*s) {
		if ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= 'A' && *s <= 'Z') || strchr("#+-.:=@_/ ", *s))
			s++;
		else if (s[0] == '\\' && s[1] == 'x')
			s += 2;
		else if ((n = utf8_len((const unsigned char *)s)))
			s += n;
		else {
			*s = is_space(*s) ? ' ' : '_';
			s++;
			replaced++;
		}
	}
	return replaced;
}

/* SYMLINK: names separated by white space. */
static int assign_links(struct udev_event *ev, const struct udev_key *k, char *value)
{
	int err = 0;

	replace_link_chars(value);
	if (k->op != UDEV_OP_ADD)
		list_clear(ev->links, &ev->nr_links);
	ev->links_final = k->op == UDEV_OP_FINAL;
	for (char *p = skip_space(value), *end; *p && !err; p = skip_space(end)) {
		for (end = p; *end && !is_space(*end); end++)
			;
		if (*end)
			*end++ = '\0';
		err = list_add_str(ev->links, &ev->nr_links, UDEV_LINKS_MAX, p);
	}
	return err;
}

static int assign_run(struct udev_event *ev, const struct udev_key *k, const char *value)
{
	bool builtin = k->attr && strcmp(k->attr, "builtin") == 0;

	if (k->op != UDEV_OP_ADD)
		list_clear(ev->run, &ev->nr_run);
	ev->run_final = k->op == UDEV_OP_FINAL;
	for (int i = 0; i < ev->nr_run; i++)
		if (strcmp(ev->run[i], value) == 0 && ev->run_builtin[i] == builtin)
			return 0;
	if (ev->nr_run == UDEV_RUN_MAX)
		return -ENOSPC;
	ev->run[ev->nr_run] = kstrdup(value);
	if (!ev->run[ev->nr_run])
		return -ENOMEM;
	ev->run_builtin[ev->nr_run++] = builtin;
	return 0;
}

static int assign_mode(struct udev_event *ev, const struct udev_key *k, const char *value)
{
	unsigned long mode;

	if (kstrtoul(value, 8, &mode) || mode > 07777)
		return -EINVAL;
	ev->mode = mode;
	ev->mode_final = k->op == UDEV_OP_FINAL;
	return 0;
}

/* ENV{KEY}+= appends with a space; an empty value removes the property. */
static int assign_env(struct udev_event *ev, const struct udev_key *k, const char *value)
{
	char buf[UDEV_VALUE_MAX];
	const char *old = udev_event_getenv(ev, k->attr);

	if (k->op == UDEV_OP_ADD && old && *old) {
		scnprintf(buf, sizeof(buf), "%s %s", old, value);
		value = buf;
	}
	return udev_event_setenv(ev, k->attr, *value ? value : NULL);
}

static int assign_key(struct udev_event *ev, const struct udev_key *k, char *value)
{
	switch (k->type) {
	case UDEV_ATTR:
		return ev->ops->attr_write(ev->ctx, env_or_empty(ev, "DEVPATH"), k->attr, value);
	case UDEV_ENV:
		return assign_env(ev, k, value);
	case UDEV_SYMLINK:
		return assign_links(ev, k, value);
	case UDEV_MODE:
		return assign_mode(ev, k, value);
	case UDEV_RUN:
		return assign_run(ev, k, value);
	case UDEV_IMPORT:
		return ev->ops->import_builtin ? ev->ops->import_builtin(ev->ctx, ev, value)
					       : -ENOENT;
	}
	return 0;
}

/* A key an earlier := fixed: neither applied nor shown. */
static bool key_is_final(const struct udev_event *ev, const struct udev_key *k)
{
	return (k->type == UDEV_SYMLINK && ev->links_final) ||
	       (k->type == UDEV_MODE && ev->mode_final) || (k->type == UDEV_RUN && ev->run_final);
}

static int rule_apply(struct udev_event *ev, const struct udev_rule *r)
{
	char value[UDEV_VALUE_MAX];
	int err;

	for (int i = 0; i < r->nr_keys; i++) {
		const struct udev_key *k = &r->keys[i];

		if (is_match(k) || k->type == UDEV_GOTO || k->type == UDEV_LABEL ||
		    key_is_final(ev, k))
			continue;
		udev_event_subst(ev, k->value, value, sizeof(value));
		trace_key(ev, r, k, value);
		err = assign_key(ev, k, value);
		if (err == -ENOMEM)
			return err;
		if (err)
			trace_error(ev, r, k, value, err);
	}
	return 0;
}

int udev_rules_apply(struct udev_rules *rules, struct udev_event *ev)
{
	struct list_head *pos = rules->rules.next;
	struct udev_rule *r;
	int err;

	while (pos != &rules->rules) {
		r = list_entry(pos, struct udev_rule, node);
		pos = pos->next;
		if (!rule_matches(ev, r))
			continue;
		err = rule_apply(ev, r);
		if (err)
			return err;
		if (r->goto_target)
			pos = &r->goto_target->node;
	}
	return 0;
}
