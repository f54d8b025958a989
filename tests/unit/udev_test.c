/* udev_test.c: udev rules parsed, matched and applied to events on a fake device tree. */
#include <kobold/udev.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* A virtio disk as Kobold's sysfs shows it: class device, virtio device, PCI function. */
static const struct fake_dev {
	const char *devpath, *parent, *subsystem, *driver;
	const char *attrs[4][2];
} fake_devs[] = {
	{ "/class/block/vda", "/devices/pci0000:00/0000:00:04.0/virtio0", "block", "", { { "size", "2048\n" }, { "ro", "0\n" }, { "serial", "disk-one\n" } } },
	{ "/class/block/vda1", "/class/block/vda", "block", "", { { "partition", "1\n" } } },
	{ "/devices/pci0000:00/0000:00:04.0/virtio0", "/devices/pci0000:00/0000:00:04.0", "virtio", "virtio_blk", { { "device", "0x0002\n" }, { "vendor", "0x1af4\n" } } },
	{ "/devices/pci0000:00/0000:00:04.0", "/devices/pci0000:00", "pci", "virtio-pci", { { "vendor", "0x1af4\n" }, { "device", "0x1001\n" }, { "class", "0x010000\n" } } },
	{ "/devices/pci0000:00", NULL, "", "", { { NULL } } },
};

struct fake {
	char written[256]; /* "devpath attr=value;" for each attribute write */
	char traced[1024];
	char reports[1024]; /* "file:line msg\n" for each bad rule */
};

static const struct fake_dev *fake_find(const char *devpath)
{
	for (size_t i = 0; i < ARRAY_SIZE(fake_devs); i++)
		if (strcmp(fake_devs[i].devpath, devpath) == 0)
			return &fake_devs[i];
	return NULL;
}

static int fake_parent(void *ctx, const char *devpath, char *buf, size_t size)
{
	const struct fake_dev *d = fake_find(devpath);

	if (!d || !d->parent)
		return -ENOENT;
	strscpy(buf, d->parent, size);
	return 0;
}

static int fake_property(void *ctx, const char *devpath, enum udev_property what, char *buf,
			 size_t size)
{
	const struct fake_dev *d = fake_find(devpath);

	if (!d)
		return -ENOENT;
	strscpy(buf, what == UDEV_PROP_SUBSYSTEM ? d->subsystem : d->driver, size);
	return 0;
}

static int fake_attr_read(void *ctx, const char *devpath, const char *attr, char *buf,
			  size_t size)
{
	const struct fake_dev *d = fake_find(devpath);

	for (int i = 0; d && i < 4 && d->attrs[i][0]; i++)
		if (strcmp(d->attrs[i][0], attr) == 0) {
			strscpy(buf, d->attrs[i][1], size);
			return 0;
		}
	return -ENOENT;
}

static int fake_attr_write(void *ctx, const char *devpath, const char *attr, const char *value)
{
	struct fake *f = ctx;
	size_t n = strlen(f->written);

	if (strcmp(attr, "nope") == 0)
		return -EACCES;
	scnprintf(f->written + n, sizeof(f->written) - n, "%s %s=%s;", devpath, attr, value);
	return 0;
}

static int fake_builtin(void *ctx, struct udev_event *ev, const char *name)
{
	if (strcmp(name, "path_id") != 0)
		return -ENOENT;
	return udev_event_setenv(ev, "ID_PATH", "pci-0000:00:04.0");
}

static void fake_trace(void *ctx, const char *line)
{
	struct fake *f = ctx;
	size_t n = strlen(f->traced);

	scnprintf(f->traced + n, sizeof(f->traced) - n, "%s\n", line);
}

static void fake_report(void *arg, const char *file, int line, const char *msg)
{
	struct fake *f = arg;
	size_t n = strlen(f->reports);

	n += udev_rules_format_error(f->reports + n, sizeof(f->reports) - n, file, line, msg);
	scnprintf(f->reports + n, sizeof(f->reports) - n, "\n");
}

static const struct udev_device_ops fake_ops = {
	.parent = fake_parent,
	.property = fake_property,
	.attr_read = fake_attr_read,
	.attr_write = fake_attr_write,
	.import_builtin = fake_builtin,
	.trace = fake_trace,
};

static struct fake fake;
static struct udev_rules rules;
static struct udev_event ev;

static int udev_test_init(struct ktest *t)
{
	memset(&fake, 0, sizeof(fake));
	udev_rules_init(&rules);
	rules.report = fake_report;
	rules.report_arg = &fake;
	memset(&ev, 0, sizeof(ev));
	return 0;
}

static void udev_test_exit(struct ktest *t)
{
	udev_event_free(&ev);
	udev_rules_free(&rules);
}

static int load(const char *file, const char *text)
{
	return udev_rules_parse(&rules, file, text, strlen(text));
}

/* Runs the rules on an event for devpath; its SUBSYSTEM from the fake tree. */
static int run_event(const char *action, const char *devpath)
{
	char a[32], d[128], s[64], mj[] = "MAJOR=253", mn[] = "MINOR=1";
	const struct fake_dev *dev = fake_find(devpath);
	char *envp[] = { a, d, s, mj, mn, NULL };

	scnprintf(a, sizeof(a), "ACTION=%s", action);
	scnprintf(d, sizeof(d), "DEVPATH=%s", devpath);
	scnprintf(s, sizeof(s), "SUBSYSTEM=%s", dev ? dev->subsystem : "block");
	udev_event_free(&ev);
	if (udev_event_init(&ev, &fake_ops, &fake, envp))
		return -ENOMEM;
	return udev_rules_apply(&rules, &ev);
}

static bool has_link(const char *name)
{
	for (int i = 0; i < ev.nr_links; i++)
		if (strcmp(ev.links[i], name) == 0)
			return true;
	return false;
}

static void udev_parse_comments_blank_and_continuation(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, load("a.rules", "# a comment\n"
					   "\n"
					   "   \t\n"
					   "KERNEL==\"vda\", SYMLINK+=\"one\"\n"
					   "  # indented comment\n"
					   "KERNEL==\"vda\", \\\n"
					   "  SYMLINK+=\"two\"\n"
					   "KERNEL==\"vda\" SYMLINK+=\"three\"\r\n"
					   "KERNEL==\"vda\",SYMLINK+=\"four\""),
			0);
	KTEST_EXPECT_EQ(t, rules.nr_rules, 4);
	KTEST_EXPECT_EQ(t, rules.nr_errors, 0);
	KTEST_EXPECT_STREQ(t, fake.reports, "");
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_EQ(t, ev.nr_links, 4);
	KTEST_EXPECT_TRUE(t, has_link("one") && has_link("two"));
	KTEST_EXPECT_TRUE(t, has_link("three") && has_link("four"));
	/* the continued rule is reported by its first line */
	KTEST_EXPECT_TRUE(t, strstr(fake.traced, "a.rules:6 SYMLINK+=\"two\"") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.traced, "a.rules:8 SYMLINK+=\"three\"") != NULL);
}

static void udev_bad_rules_reported_rest_load(struct ktest *t)
{
	static const char text[] = "KERNEL==\"vda\", SYMLINK+=\"good1\"\n"
				   "KERNEL==\"vda\", FOO=\"x\"\n"
				   "KERNEL=\"vda\", SYMLINK+=\"bad-op\"\n"
				   "KERNEL==\"vda, SYMLINK+=\"no-quote\n"
				   "ATTR==\"1\"\n"
				   "KERNEL{x}==\"vda\"\n"
				   "MODE=\"0999\"\n"
				   "KERNEL==vda\n"
				   "GOTO=\"nowhere\"\n"
				   "KERNEL==\"vda\" , SYMLINK+=\"good2\"\n"
				   "IMPORT{program}=\"x\"\n"
				   "garbage\n";

	KTEST_EXPECT_EQ(t, load("/etc/udev/rules.d/50-x.rules", text), 0);
	/* systemd 252's words; MODE's value is checked as it applies */
	KTEST_EXPECT_EQ(t, rules.nr_errors, 10);
	KTEST_EXPECT_EQ(t, rules.nr_rules, 3); /* good1, MODE, good2; the GOTO-only rule dropped */
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:2 Invalid key 'FOO'\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:3 Invalid operator for KERNEL.\n") !=
				     NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:4 Invalid key/value pair, ignoring.\n") !=
				     NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:5 Invalid attribute for ATTR.\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:6 Invalid attribute for KERNEL.\n") !=
				     NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:8 Invalid key/value pair, ignoring.\n") !=
				     NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports,
				    "50-x.rules:9: GOTO=\"nowhere\" has no matching label, ignoring\n"
				    "/etc/udev/rules.d/50-x.rules:9: The line takes no effect any more, "
				    "dropping\n") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:11 IMPORT{} supports only") != NULL);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "50-x.rules:12 Invalid key/value pair, ignoring.\n") !=
				     NULL);
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_EQ(t, ev.nr_links, 2);
	KTEST_EXPECT_EQ(t, ev.mode, -1); /* 0999 is no mode */
	KTEST_EXPECT_TRUE(t, strstr(fake.traced, "50-x.rules:7 Failed to parse mode '0999', "
						 "ignoring: Invalid argument") != NULL);
	KTEST_EXPECT_TRUE(t, has_link("good1") && has_link("good2"));
}

static void udev_long_line_and_nul_rejected(struct ktest *t)
{
	static const char nul[] = "KERNEL==\"v\0da\", SYMLINK+=\"x\"\nKERNEL==\"vda\", SYMLINK+=\"ok\"\n";
	char *text = kmalloc(UDEV_LINE_MAX + 200);
	size_t n;

	KTEST_ASSERT_TRUE(t, text != NULL);
	n = scnprintf(text, 64, "SYMLINK+=\"before\"\nKERNEL==\"vda\", SYMLINK+=\"");
	memset(text + n, 'x', UDEV_LINE_MAX);
	n += UDEV_LINE_MAX;
	n += scnprintf(text + n, 64, "\"\nSYMLINK+=\"after\"\n");
	KTEST_EXPECT_EQ(t, udev_rules_parse(&rules, "l.rules", text, n), 0);
	kfree(text);
	/* as systemd: the file ends at the long line, the rules before it kept */
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "l.rules:2 Line too long (16384 bytes at most), "
						  "ignoring the rest of the file\n") != NULL);
	KTEST_EXPECT_EQ(t, rules.nr_rules, 1);
	/* a NUL ends a line, as systemd's read_line: the rest is a line of its own */
	KTEST_EXPECT_EQ(t, udev_rules_parse(&rules, "n.rules", nul, sizeof(nul) - 1), 0);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "n.rules:1 Invalid key/value pair, ignoring.\n"
						  "n.rules:2 Invalid key/value pair, ignoring.\n") != NULL);
	KTEST_EXPECT_EQ(t, rules.nr_rules, 2);
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_TRUE(t, has_link("before") && has_link("ok") && !has_link("after"));
}

static void udev_match_device_keys(struct ktest *t)
{
	load("m.rules", "ACTION==\"add\", SYMLINK+=\"action\"\n"
			"ACTION==\"remove\", SYMLINK+=\"wrong-action\"\n"
			"KERNEL==\"sd*|vd[a-z]\", SYMLINK+=\"alt\"\n"
			"KERNEL==\"sd*|hd*\", SYMLINK+=\"wrong-alt\"\n"
			"KERNEL!=\"sd*\", SYMLINK+=\"notsd\"\n"
			"SUBSYSTEM==\"block\", SYMLINK+=\"subsys\"\n"
			"DEVPATH==\"/class/block/*\", SYMLINK+=\"devpath\"\n"
			"ATTR{size}==\"2048\", SYMLINK+=\"size\"\n"
			"ATTR{size}==\"2048 \", SYMLINK+=\"wrong-size\"\n"
			"ATTR{missing}==\"*\", SYMLINK+=\"wrong-missing\"\n"
			"ATTR{missing}!=\"1\", SYMLINK+=\"missing-ne\"\n"
			"ENV{MAJOR}==\"253\", SYMLINK+=\"env\"\n"
			"ENV{NOPE}==\"\", SYMLINK+=\"env-empty\"\n"
			"DRIVER==\"virtio_blk\", SYMLINK+=\"wrong-driver\"\n"
			"SYMLINK==\"env*\", SYMLINK+=\"symlink-match\"\n");
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_TRUE(t, has_link("action") && !has_link("wrong-action"));
	KTEST_EXPECT_TRUE(t, has_link("alt") && !has_link("wrong-alt") && has_link("notsd"));
	KTEST_EXPECT_TRUE(t, has_link("subsys") && has_link("devpath"));
	KTEST_EXPECT_TRUE(t, has_link("size") && !has_link("wrong-size"));
	/* as systemd: an attribute that does not exist matches neither == nor != */
	KTEST_EXPECT_TRUE(t, !has_link("wrong-missing") && !has_link("missing-ne"));
	KTEST_EXPECT_TRUE(t, has_link("env") && has_link("env-empty"));
	KTEST_EXPECT_TRUE(t, !has_link("wrong-driver") && has_link("symlink-match"));
	KTEST_EXPECT_EQ(t, ev.nr_links, 9);
}

static void udev_parent_keys_match_in_one_device(struct ktest *t)
{
	load("p.rules", "KERNELS==\"0000:00:04.0\", SUBSYSTEMS==\"pci\", SYMLINK+=\"pci\"\n"
			/* both exist, but not on one device: no match, as udev */
			"KERNELS==\"0000:00:04.0\", SUBSYSTEMS==\"virtio\", SYMLINK+=\"split\"\n"
			"DRIVERS==\"virtio_blk\", ATTRS{device}==\"0x0002\", SYMLINK+=\"virtio\"\n"
			"SUBSYSTEMS==\"block\", SYMLINK+=\"self\"\n"
			"ATTRS{class}==\"0x01*\", SYMLINK+=\"class-$attr{vendor}\"\n"
			"ATTRS{nothere}==\"?*\", SYMLINK+=\"none\"\n"
			"SUBSYSTEMS!=\"block\", SYMLINK+=\"ne-$attr{device}\"\n");
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_TRUE(t, has_link("pci") && !has_link("split"));
	KTEST_EXPECT_TRUE(t, has_link("virtio") && has_link("self"));
	/* $attr falls back to the parent ATTRS matched at */
	KTEST_EXPECT_TRUE(t, has_link("class-0x1af4"));
	KTEST_EXPECT_FALSE(t, has_link("none"));
	/* != matches at the first parent that is not a block device: virtio0 */
	KTEST_EXPECT_TRUE(t, has_link("ne-0x0002"));
}

static void udev_assignments(struct ktest *t)
{
	load("s.rules", "KERNEL==\"vda\", SYMLINK+=\"a b  c\", MODE=\"0660\"\n"
			"KERNEL==\"vda\", SYMLINK=\"d\"\n"
			"KERNEL==\"vda\", SYMLINK+=\"e\", MODE:=\"0600\"\n"
			"KERNEL==\"vda\", MODE=\"0666\", SYMLINK:=\"f\"\n"
			"KERNEL==\"vda\", SYMLINK+=\"g\"\n"
			"KERNEL==\"vda\", ATTR{ro}=\"1\", ATTR{nope}=\"1\"\n"
			"KERNEL==\"vda\", ENV{ID_X}=\"x\", ENV{ID_Y}=\"y\"\n"
			"KERNEL==\"vda\", ENV{ID_X}+=\"more\", ENV{ID_Y}=\"\"\n"
			"KERNEL==\"vda\", RUN+=\"echo one $kernel\", RUN+=\"echo two\"\n"
			"KERNEL==\"vda\", RUN{program}+=\"echo three\", RUN{builtin}+=\"kmod load\"\n"
			"KERNEL==\"vda\", IMPORT{builtin}=\"path_id\"\n"
			"ENV{ID_PATH}==\"?*\", SYMLINK+=\"path-$env{ID_PATH}\"\n");
	KTEST_EXPECT_EQ(t, rules.nr_errors, 0);
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_EQ(t, ev.mode, 0600);  /* := kept it */
	KTEST_EXPECT_EQ(t, ev.nr_links, 1); /* SYMLINK:= ended the list */
	KTEST_EXPECT_TRUE(t, has_link("f"));
	KTEST_EXPECT_STREQ(t, fake.written, "/class/block/vda ro=1;");
	KTEST_EXPECT_TRUE(t, strstr(fake.traced, "s.rules:6 Failed to write ATTR{/sys/class/block/vda/"
						 "nope}, ignoring: Permission denied") != NULL);
	KTEST_EXPECT_STREQ(t, udev_event_getenv(&ev, "ID_X"), "x more");
	KTEST_EXPECT_TRUE(t, udev_event_getenv(&ev, "ID_Y") == NULL);
	KTEST_ASSERT_EQ(t, ev.nr_run, 4);
	KTEST_EXPECT_STREQ(t, ev.run[0], "echo one vda");
	KTEST_EXPECT_STREQ(t, ev.run[2], "echo three");
	KTEST_EXPECT_FALSE(t, ev.run_builtin[2]);
	KTEST_EXPECT_STREQ(t, ev.run[3], "kmod load");
	KTEST_EXPECT_TRUE(t, ev.run_builtin[3]);
	KTEST_EXPECT_STREQ(t, udev_event_getenv(&ev, "ID_PATH"), "pci-0000:00:04.0");
}

static void udev_goto_and_label(struct ktest *t)
{
	load("g.rules", "SUBSYSTEM!=\"block\", GOTO=\"end\"\n"
			"KERNEL==\"vda\", GOTO=\"end\"\n"
			"SYMLINK+=\"skipped\"\n"
			"LABEL=\"end\"\n"
			"SYMLINK+=\"after\"\n");
	load("h.rules", "LABEL=\"end\"\nSYMLINK+=\"other-file\"\n");
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_TRUE(t, !has_link("skipped") && has_link("after") && has_link("other-file"));
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda1"), 0);
	KTEST_EXPECT_TRUE(t, has_link("skipped") && has_link("after"));
}

static void udev_substitutions(struct ktest *t)
{
	char out[UDEV_VALUE_MAX];

	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda1"), 0);
	udev_event_subst(&ev, "$kernel %k $number %n", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "vda1 vda1 1 1");
	udev_event_subst(&ev, "$devpath|%p", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "/class/block/vda1|/class/block/vda1");
	udev_event_subst(&ev, "$env{MAJOR}:%E{MINOR} $major %m", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "253:1 253 1");
	udev_event_subst(&ev, "$attr{partition}/%s{partition}/$attr{none}.", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "1/1/.");
	udev_event_subst(&ev, "$$ %% 100% $ $unknown %q $env{NOCLOSE", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "$ % 100% $ $unknown %q $env{NOCLOSE");
	udev_event_subst(&ev, "$kernel-$kernel-$kernel", out, 8);
	KTEST_EXPECT_STREQ(t, out, "vda1-vd");
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	udev_event_subst(&ev, "[%n]", out, sizeof(out));
	KTEST_EXPECT_STREQ(t, out, "[]");
}

/* The default rules' virtio lines, as 60-persistent-storage.rules has them. */
static void udev_persistent_storage_virtio(struct ktest *t)
{
	load("60-persistent-storage.rules",
	     "SUBSYSTEM!=\"block\", GOTO=\"persistent_storage_end\"\n"
	     "KERNEL==\"vd*[!0-9]\", ATTRS{serial}==\"?*\", ENV{ID_SERIAL}=\"$attr{serial}\", "
	     "SYMLINK+=\"disk/by-id/virtio-$env{ID_SERIAL}\"\n"
	     "KERNEL==\"vd*[0-9]\", ATTRS{serial}==\"?*\", ENV{ID_SERIAL}=\"$attr{serial}\", "
	     "SYMLINK+=\"disk/by-id/virtio-$env{ID_SERIAL}-part%n\"\n"
	     "IMPORT{builtin}=\"path_id\"\n"
	     "ENV{ID_PATH}==\"?*\", KERNEL!=\"*[0-9]\", SYMLINK+=\"disk/by-path/$env{ID_PATH}\"\n"
	     "ENV{ID_PATH}==\"?*\", KERNEL==\"*[0-9]\", SYMLINK+=\"disk/by-path/$env{ID_PATH}-part%n\"\n"
	     "LABEL=\"persistent_storage_end\"\n");
	KTEST_EXPECT_EQ(t, rules.nr_errors, 0);
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_TRUE(t, has_link("disk/by-id/virtio-disk-one"));
	KTEST_EXPECT_TRUE(t, has_link("disk/by-path/pci-0000:00:04.0"));
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda1"), 0);
	/* the partition finds the serial at its parent disk */
	KTEST_EXPECT_TRUE(t, has_link("disk/by-id/virtio-disk-one-part1"));
	KTEST_EXPECT_TRUE(t, has_link("disk/by-path/pci-0000:00:04.0-part1"));
	KTEST_ASSERT_EQ(t, run_event("add", "/devices/pci0000:00/0000:00:04.0"), 0);
	KTEST_EXPECT_EQ(t, ev.nr_links, 0);
}

static void udev_bounded_lists_and_env(struct ktest *t)
{
	char text[64];

	for (int i = 0; i < UDEV_LINKS_MAX + 4; i++) {
		scnprintf(text, sizeof(text), "SYMLINK+=\"l%d\", RUN+=\"r%d\", ENV{E%d}=\"v\"\n", i,
			  i, i);
		load("b.rules", text);
	}
	for (int i = 0; i < UDEV_ENV_MAX; i++) {
		scnprintf(text, sizeof(text), "ENV{F%d}=\"v\"\n", i);
		load("b.rules", text);
	}
	KTEST_ASSERT_EQ(t, run_event("add", "/class/block/vda"), 0);
	KTEST_EXPECT_EQ(t, ev.nr_links, UDEV_LINKS_MAX);
	KTEST_EXPECT_EQ(t, ev.nr_run, UDEV_RUN_MAX);
	KTEST_EXPECT_EQ(t, ev.nr_env, UDEV_ENV_MAX);
}

static u32 rand_state;

static u32 next_rand(void)
{
	rand_state = rand_state * 1103515245u + 12345u;
	return rand_state >> 8;
}

/* Mutated rules never crash, and every byte comes back when they are freed. */
static void udev_fuzz_mutated_rules(struct ktest *t)
{
	static const char seed[] = "KERNEL==\"vd*|sd?\", ATTRS{serial}==\"?*\", \\\n"
				   " SYMLINK+=\"disk/$env{ID_SERIAL}-%n $kernel\", MODE=\"0640\"\n"
				   "SUBSYSTEM!=\"block\", GOTO=\"x\"\n"
				   "ENV{A}:=\"$attr{size}%s{ro}$$%%\", RUN+=\"echo %k\"\n"
				   "# comment\nLABEL=\"x\"\n";
	static const char alphabet[] = "\"\\{}=!+:,|$%# \n\t*?[]-AEKLNRSTVx0\0";
	char text[sizeof(seed) + 16];
	struct kmem_stats before, after;

	kmem_get_stats(&before);
	rand_state = 17;
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = sizeof(seed) - 1;

		memcpy(text, seed, sizeof(seed));
		for (int m = next_rand() % 8; m >= 0; m--)
			text[next_rand() % n] = alphabet[next_rand() % (sizeof(alphabet) - 1)];
		if (next_rand() % 4 == 0)
			n = next_rand() % n;
		KTEST_ASSERT_EQ(t, udev_rules_parse(&rules, "f.rules", text, n), 0);
		KTEST_ASSERT_EQ(t, run_event(iter & 1 ? "add" : "remove", "/class/block/vda1"), 0);
		udev_event_free(&ev);
		udev_rules_free(&rules);
	}
	kmem_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.bytes_in_use, before.bytes_in_use);
	KTEST_EXPECT_EQ(t, after.objects_in_use, before.objects_in_use);
}

static void udev_too_many_rules(struct ktest *t)
{
	static const char line[] = "KERNEL==\"x\"\n";
	size_t n = (UDEV_RULES_MAX + 10) * (sizeof(line) - 1);
	char *text = kmalloc(n);

	KTEST_ASSERT_TRUE(t, text != NULL);
	for (int i = 0; i < UDEV_RULES_MAX + 10; i++)
		memcpy(text + i * (sizeof(line) - 1), line, sizeof(line) - 1);
	KTEST_EXPECT_EQ(t, udev_rules_parse(&rules, "many.rules", text, n), 0);
	kfree(text);
	KTEST_EXPECT_EQ(t, rules.nr_rules, UDEV_RULES_MAX);
	KTEST_EXPECT_TRUE(t, strstr(fake.reports, "many.rules:1025 Too many rules (1024 at most), "
						  "ignoring the rest of the file\n") != NULL);
}

static const struct ktest_case udev_cases[] = {
	KTEST_CASE(udev_parse_comments_blank_and_continuation),
	KTEST_CASE(udev_bad_rules_reported_rest_load),
	KTEST_CASE(udev_long_line_and_nul_rejected),
	KTEST_CASE(udev_match_device_keys),
	KTEST_CASE(udev_parent_keys_match_in_one_device),
	KTEST_CASE(udev_assignments),
	KTEST_CASE(udev_goto_and_label),
	KTEST_CASE(udev_substitutions),
	KTEST_CASE(udev_persistent_storage_virtio),
	KTEST_CASE(udev_bounded_lists_and_env),
	KTEST_CASE(udev_fuzz_mutated_rules),
	KTEST_CASE(udev_too_many_rules),
	KTEST_END,
};

static const struct ktest_suite udev_suite = {
	.name = "udev",
	.cases = udev_cases,
	.init = udev_test_init,
	.exit = udev_test_exit,
};
KTEST_SUITE(udev_suite);
