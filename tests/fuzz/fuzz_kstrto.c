/*
 * fuzz_kstrto.c: libFuzzer target for the number parsers (lib/kstrtox.c),
 * checked against the C library, and for stores that parse them, reached
 * through sysfs_write as the shell's "echo ... > FILE" reaches them.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

struct tobj {
	struct kobject kobj;
	bool ro;
	unsigned int nr;
};

static struct tobj obj;
static struct attribute attr_ro = { .name = "ro", .mode = 0644 };
static struct attribute attr_nr = { .name = "nr", .mode = 0644 };
static struct sysfs_open_file *files[2];

/* As sbd's ro: exactly 0 or 1; and a number store as module parameters have. */
static ssize_t tobj_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			  size_t count)
{
	struct tobj *o = container_of(kobj, struct tobj, kobj);
	unsigned int v;

	if (buf[count] != '\0')
		abort(); /* store() always gets a NUL-terminated copy */
	if (attr == &attr_ro) {
		if (sysfs_streq(buf, "0") || sysfs_streq(buf, "1"))
			o->ro = buf[0] == '1';
		else
			return -EINVAL;
		return (ssize_t)count;
	}
	if (kstrtouint(buf, 0, &v) || v > 16)
		return -EINVAL;
	o->nr = v;
	return (ssize_t)count;
}

static ssize_t tobj_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct tobj *o = container_of(kobj, struct tobj, kobj);

	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", attr == &attr_ro ? o->ro : o->nr);
}

static const struct sysfs_ops tobj_ops = { .show = tobj_show, .store = tobj_store };
static void tobj_release(struct kobject *kobj) { (void)kobj; }
static struct kobj_type tobj_type = { .release = tobj_release, .sysfs_ops = &tobj_ops };

static void build(void)
{
	struct sysfs_dirent *sd;

	obj.kobj.ktype = &tobj_type;
	kobject_init(&obj.kobj);
	kobject_set_name(&obj.kobj, "fuzz_store");
	if (kobject_add(&obj.kobj) || sysfs_create_file(&obj.kobj, &attr_ro) ||
	    sysfs_create_file(&obj.kobj, &attr_nr))
		abort();
	for (int i = 0; i < 2; i++) {
		if (sysfs_lookup(NULL, i ? "/sys/fuzz_store/nr" : "/sys/fuzz_store/ro", true, &sd) ||
		    sysfs_open(sd, 0, &files[i]))
			abort();
		sysfs_put(sd);
	}
}

/* kstrtoull must agree with strtoull on what both accept. */
static void check_ull(const char *s, unsigned int base)
{
	unsigned long long k, c;
	char *end;

	if (kstrtoull(s, base, &k))
		return;
	if (!isxdigit((unsigned char)s[s[0] == '+']))
		abort(); /* no blank, no minus: at most a '+', as Linux's */
	errno = 0;
	c = strtoull(s, &end, base);
	if (errno == 0 && (*end == '\0' || (end[0] == '\n' && end[1] == '\0')) && c != k)
		abort();
}

static void parse_all(const char *s, unsigned int base)
{
	unsigned long ul;
	long l;
	int i;
	unsigned int u;
	bool b;

	check_ull(s, base);
	kstrtoul(s, base, &ul);
	kstrtol(s, base, &l);
	kstrtoint(s, base, &i);
	kstrtouint(s, base, &u);
	kstrtobool(s, &b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int bases[] = { 0, 8, 10, 16 };
	static bool built;
	char *s;
	ssize_t n;

	if (!built) {
		build();
		built = true;
	}
	if (size < 1)
		return 0;
	s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	parse_all(s, bases[data[0] & 3]);
	/* the raw bytes, NULs and all, up to and past a page: refused, or
	 * stored and counted; past a page minus one, cut there (2.6) */
	n = sysfs_write(files[data[0] >> 7], (const char *)data + 1, size - 1);
	if (n > (ssize_t)(SYSFS_PAGE_SIZE - 1) || n > (ssize_t)(size - 1))
		abort();
	if (obj.nr > 16)
		abort();
	free(s);
	return 0;
}
