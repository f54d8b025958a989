/*
 * scan.c: the ACPI namespace in sysfs, as Linux 2.6.0-2.6.20 showed it:
 * /sys/firmware/acpi/namespace/ACPI/_SB/PCI0/..., one plain kobject per
 * device node (Device and Processor objects, the fixed PWRF/SLPF buttons).
 * Linux ran the AML interpreter to build the namespace; Kobold walks the
 * DSDT's definition blocks (ACPI 6.4 §20.2.5) only as far as it needs:
 * Scope and Device bodies are entered, every other named object is skipped
 * by its length or its fixed layout, and a body with an opcode this walk
 * does not know is left at that point.
 */
#include <kobold/acpi.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define AML_SCOPE 0x10
#define AML_NAME 0x08
#define AML_ALIAS 0x06
#define AML_METHOD 0x14
#define AML_EXTERNAL 0x15
#define AML_EXT 0x5b
#define AML_EXT_MUTEX 0x01
#define AML_EXT_EVENT 0x02
#define AML_EXT_REGION 0x80
#define AML_EXT_DEVICE 0x82
#define AML_EXT_PROCESSOR 0x83
#define AML_DUAL_NAME 0x2e
#define AML_MULTI_NAME 0x2f
#define FADT_FLAGS 112
#define FADT_PWR_BUTTON (1u << 4) /* set: the power button is a control method, not fixed */
#define FADT_SLP_BUTTON (1u << 5)
#define MAX_DEPTH 16

struct acpi_device {
	struct kobject kobj;
	char seg[5]; /* the node's NameSeg, as in the AML */
	bool is_device;
	struct acpi_device *parent;
	struct acpi_device *child, *sibling;
};

static struct kset acpi_subsys;		/* /sys/firmware/acpi */
static struct kset acpi_namespace_kset; /* /sys/firmware/acpi/namespace */
static struct acpi_device acpi_root = { .seg = "\\___", .is_device = true };

static void acpi_device_release(struct kobject *kobj)
{
	struct acpi_device *dev = container_of(kobj, struct acpi_device, kobj);

	if (dev != &acpi_root)
		kfree(dev);
}

static struct kobj_type ktype_acpi_ns = {
	.release = acpi_device_release,
};

static struct acpi_device *find_child(struct acpi_device *scope, const char *seg)
{
	for (struct acpi_device *c = scope->child; c; c = c->sibling)
		if (memcmp(c->seg, seg, 4) == 0)
			return c;
	return NULL;
}

static struct acpi_device *add_child(struct acpi_device *scope, const char *seg)
{
	struct acpi_device *c = find_child(scope, seg);

	if (c)
		return c;
	c = kzalloc(sizeof(*c));
	if (!c)
		return NULL;
	memcpy(c->seg, seg, 4);
	c->parent = scope;
	c->sibling = scope->child;
	scope->child = c;
	return c;
}

/* PkgLength (§20.2.4): the end of the object that starts at p; *body: after the length. */
static const u8 *pkg_end(const u8 *p, const u8 *end, const u8 **body)
{
	unsigned int n = p[0] >> 6;
	u32 len = n ? p[0] & 0x0f : p[0] & 0x3f;

	if (p + 1 + n > end)
		return NULL;
	for (unsigned int i = 0; i < n; i++)
		len |= (u32)p[1 + i] << (4 + 8 * i);
	*body = p + 1 + n;
	return len >= 1u + n && len <= (u32)(end - p) ? p + len : NULL;
}

/* A NameString (§20.2.2) from scope: the node it names (created if asked), or NULL. */
static struct acpi_device *name_string(const u8 **pp, const u8 *end, struct acpi_device *scope,
				       bool create)
{
	const u8 *p = *pp;
	unsigned int segs = 1;

	if (p < end && *p == '\\') {
		scope = &acpi_root;
		p++;
	}
	while (p < end && *p == '^' && scope) {
		scope = scope->parent;
		p++;
	}
	if (p >= end)
		return NULL;
	if (*p == 0) {
		*pp = p + 1;
		return scope;
	}
	if (*p == AML_DUAL_NAME || *p == AML_MULTI_NAME) {
		segs = *p == AML_DUAL_NAME ? 2 : (p + 1 < end ? p[1] : 0);
		p += *p == AML_DUAL_NAME ? 1 : 2;
	}
	if (p + 4 * segs > end || !scope)
		return NULL;
	*pp = p + 4 * segs;
	if (!create)
		return &acpi_root; /* a reference, only to be stepped over */
	for (unsigned int i = 0; i < segs && scope; i++, p += 4)
		scope = add_child(scope, (const char *)p);
	return scope;
}

/* A constant operand (§20.2.3): the bytes it takes, 0 if it is not one. */
static unsigned int const_len(const u8 *p, const u8 *end)
{
	const u8 *q = p;

	switch (*p) {
	case 0x00:
	case 0x01:
	case 0xff:
		return 1; /* Zero, One, Ones */
	case 0x0a:
		return 2;
	case 0x0b:
		return 3;
	case 0x0c:
		return 5;
	case 0x0e:
		return 9;
	case 0x0d:
		while (q < end && *q)
			q++;
		return q < end ? (unsigned int)(q - p) + 1 : 0;
	}
	return 0;
}

static void walk_terms(const u8 *p, const u8 *end, struct acpi_device *scope, int depth);

/* Scope, Device, Processor: a name, then (Processor: 6 bytes of operands) a TermList. */
static const u8 *walk_scope(const u8 *p, const u8 *end, struct acpi_device *scope, int depth,
			    bool is_device, unsigned int skip)
{
	const u8 *body, *stop = pkg_end(p, end, &body);
	struct acpi_device *node;

	if (!stop)
		return NULL;
	node = name_string(&body, stop, scope, true);
	if (!node)
		return stop;
	node->is_device |= is_device;
	if (depth < MAX_DEPTH && body + skip <= stop)
		walk_terms(body + skip, stop, node, depth + 1);
	return stop;
}

/* One term object at p; the position after it, or NULL to leave this TermList. */
static const u8 *walk_term(const u8 *p, const u8 *end, struct acpi_device *scope, int depth)
{
	const u8 *body;
	unsigned int n;

	switch (*p++) {
	case AML_SCOPE:
		return walk_scope(p, end, scope, depth, false, 0);
	case AML_METHOD:
	case 0x11:
	case 0x12:
	case 0x13:
	case 0xa0:
	case 0xa1:
	case 0xa2: /* Buffer, Package, If, Else, While */
		return pkg_end(p, end, &body);
	case AML_NAME:
		if (!name_string(&p, end, scope, false) || p >= end)
			return NULL;
		if (*p == 0x11 || *p == 0x12 || *p == 0x13)
			return pkg_end(p + 1, end, &body);
		n = const_len(p, end);
		return n ? p + n : NULL;
	case AML_ALIAS:
		return name_string(&p, end, scope, false) && name_string(&p, end, scope, false) ? p : NULL;
	case AML_EXTERNAL:
		return name_string(&p, end, scope, false) && p + 2 <= end ? p + 2 : NULL;
	case AML_EXT:
		break;
	default:
		return NULL;
	}
	if (p >= end)
		return NULL;
	switch (*p++) {
	case AML_EXT_DEVICE:
		return walk_scope(p, end, scope, depth, true, 0);
	case AML_EXT_PROCESSOR:
		return walk_scope(p, end, scope, depth, true, 6);
	case 0x81:
	case 0x84:
	case 0x85:
	case 0x86:
	case 0x87: /* Field, PowerRes, ThermalZone, IndexField, BankField */
		return pkg_end(p, end, &body);
	case AML_EXT_MUTEX:
		return name_string(&p, end, scope, false) && p < end ? p + 1 : NULL;
	case AML_EXT_EVENT:
		return name_string(&p, end, scope, false) ? p : NULL;
	case AML_EXT_REGION:
		if (!name_string(&p, end, scope, false) || ++p >= end)
			return NULL;
		n = const_len(p, end);
		if (!n || p + n >= end)
			return NULL;
		p += n;
		n = const_len(p, end);
		return n ? p + n : NULL;
	}
	return NULL;
}

static void walk_terms(const u8 *p, const u8 *end, struct acpi_device *scope, int depth)
{
	while (p && p < end)
		p = walk_term(p, end, scope, depth);
}

/* 2.6's bus_id: the NameSeg without its trailing underscores ("_SB_" is "_SB"). */
static int add_kobject(struct acpi_device *dev, const char *name)
{
	char id[5] = { 0 };
	int i;

	if (!name) {
		memcpy(id, dev->seg, 4);
		for (i = 3; i > 1 && id[i] == '_'; i--)
			id[i] = '\0';
		name = id;
	}
	dev->kobj.ktype = &ktype_acpi_ns;
	dev->kobj.kset = &acpi_namespace_kset;
	dev->kobj.parent = dev->parent ? &dev->parent->kobj : NULL;
	kobject_init(&dev->kobj);
	return kobject_set_name(&dev->kobj, "%s", name) ?: kobject_add(&dev->kobj);
}

/* Device nodes whose parents are device nodes (the root's Scope(\_SB) is the system bus). */
static void register_tree(struct acpi_device *scope)
{
	for (struct acpi_device *c = scope->child; c; c = c->sibling) {
		bool sb = scope == &acpi_root && memcmp(c->seg, "_SB_", 4) == 0;

		if ((c->is_device || sb) && add_kobject(c, NULL) == 0)
			register_tree(c);
	}
}

static void add_fixed_button(const char *name)
{
	struct acpi_device *b = kzalloc(sizeof(*b));

	if (b) {
		b->parent = &acpi_root;
		if (add_kobject(b, name))
			kobject_put(&b->kobj);
	}
}

/* Children were pushed to the front: put each list back in the DSDT's order. */
static void reverse_children(struct acpi_device *scope)
{
	struct acpi_device *prev = NULL, *c = scope->child, *next;

	for (; c; c = next) {
		next = c->sibling;
		c->sibling = prev;
		prev = c;
		reverse_children(c);
	}
	scope->child = prev;
}

int acpi_scan_init(void)
{
	const struct acpi_header *fadt = acpi_find_table("FACP");
	const struct acpi_header *dsdt;
	u32 addr, flags;
	int err;

	if (!fadt || fadt->length < FADT_FLAGS + 4)
		return -ENODEV;
	memcpy(&addr, (const u8 *)fadt + 40, 4);
	memcpy(&flags, (const u8 *)fadt + FADT_FLAGS, 4);
	dsdt = (const void *)(unsigned long)addr;
	kobject_set_name(&acpi_subsys.kobj, "acpi");
	kobject_set_name(&acpi_namespace_kset.kobj, "namespace");
	acpi_namespace_kset.kobj.parent = &acpi_subsys.kobj;
	err = firmware_register(&acpi_subsys) ?: kset_register(&acpi_namespace_kset);
	if (err || (err = add_kobject(&acpi_root, "ACPI")))
		return err;
	if (dsdt && memcmp(dsdt->signature, "DSDT", 4) == 0)
		walk_terms((const u8 *)(dsdt + 1), (const u8 *)dsdt + dsdt->length, &acpi_root, 0);
	reverse_children(&acpi_root);
	if (!(flags & FADT_PWR_BUTTON))
		add_fixed_button("PWRF");
	if (!(flags & FADT_SLP_BUTTON))
		add_fixed_button("SLPF");
	register_tree(&acpi_root);
	return 0;
}
