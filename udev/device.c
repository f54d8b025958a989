/*
 * device.c: the devices as udev's rules see them, read from sysfs: a
 * device's parent, subsystem and driver, and its attributes (read and
 * written as `cat` and `echo >` would).
 */
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>
#include <kobold/udevd.h>

static struct sysfs_dirent *child(struct sysfs_dirent *dir, const char *name, bool follow)
{
	struct sysfs_dirent *sd;

	return sysfs_lookup(dir, name, follow, &sd) ? NULL : sd;
}

/* DEVPATH -> its node below /sys; NULL if it is gone. */
static struct sysfs_dirent *devpath_lookup(const char *devpath)
{
	char path[SYSFS_PATH_MAX];

	if (scnprintf(path, sizeof(path), "/sys%s", devpath) >= (int)sizeof(path) - 1)
		return NULL;
	return child(NULL, path, true);
}

static int slashes(const char *path)
{
	int n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

static bool is_device(struct sysfs_dirent *sd)
{
	struct sysfs_dirent *ue = child(sd, "uevent", false);

	if (ue)
		sysfs_put(ue);
	return ue != NULL;
}

/* The node's DEVPATH (its path without "/sys") into buf. */
static int node_devpath(struct sysfs_dirent *sd, char *buf, size_t size)
{
	char path[SYSFS_PATH_MAX];
	int err = sysfs_path(sd, path, sizeof(path));

	if (err < 0)
		return err;
	return strscpy(buf, path + 4, size) < 0 ? -ENAMETOOLONG : 0;
}

/*
 * As `udevadm info -a` walks: a class device's parent is its "device" link
 * (or the class device it sits in: a partition's disk); a device's is the
 * nearest directory above that is a device (has a uevent file).
 */
static int udev_sysfs_parent(void *ctx, const char *devpath, char *buf, size_t size)
{
	struct sysfs_dirent *sd = devpath_lookup(devpath), *link, *next;
	bool is_class = strncmp(devpath, "/class/", 7) == 0;
	int err = -ENOENT;

	if (!sd)
		return -ENOENT;
	link = is_class ? child(sd, "device", false) : NULL;
	if (link && sysfs_dirent_type(link) == SYSFS_KOBJ_LINK) {
		sysfs_put(link);
		next = child(sd, "device", true);
		sysfs_put(sd);
		if (!next)
			return -ENOENT;
		err = node_devpath(next, buf, size);
		sysfs_put(next);
		return err;
	}
	if (link)
		sysfs_put(link);
	if (is_class && slashes(devpath) < 4)
		goto out; /* /class/C/X: the class is no device */
	while ((next = child(sd, "..", true))) {
		sysfs_put(sd);
		sd = next;
		if (node_devpath(sd, buf, size) < 0 || slashes(buf) < 2)
			break; /* /devices or /class/C: the top */
		if (is_device(sd)) {
			err = 0;
			break;
		}
	}
out:
	sysfs_put(sd);
	return err;
}

/* The last component of a link's target: "../../bus/pci" -> "pci". */
static int link_name(struct sysfs_dirent *sd, const char *name, char *buf, size_t size)
{
	char target[SYSFS_PATH_MAX];
	struct sysfs_dirent *link = child(sd, name, false);
	const char *slash;
	int err = -ENOENT;

	buf[0] = '\0';
	if (link && sysfs_readlink(link, target, sizeof(target)) >= 0) {
		slash = strrchr(target, '/');
		strscpy(buf, slash ? slash + 1 : target, size);
		err = 0;
	}
	if (link)
		sysfs_put(link);
	return err;
}

static int udev_sysfs_property(void *ctx, const char *devpath, enum udev_property what,
			       char *buf, size_t size)
{
	struct sysfs_dirent *sd = devpath_lookup(devpath);
	const char *end;

	buf[0] = '\0';
	if (!sd)
		return -ENOENT;
	if (what == UDEV_PROP_DRIVER)
		link_name(sd, "driver", buf, size);
	else if (strncmp(devpath, "/class/", 7) == 0 && (end = strchr(devpath + 7, '/')))
		scnprintf(buf, size, "%.*s", (int)(end - devpath - 7), devpath + 7);
	else
		link_name(sd, "subsystem", buf, size);
	sysfs_put(sd);
	return 0;
}

/* An attribute of the device itself: no "..", no link followed out of it. */
static struct sysfs_dirent *attr_lookup(const char *devpath, const char *attr)
{
	char path[SYSFS_PATH_MAX];

	if (!*attr || strstr(attr, "..") || attr[0] == '/')
		return NULL;
	if (scnprintf(path, sizeof(path), "/sys%s/%s", devpath, attr) >= (int)sizeof(path) - 1)
		return NULL;
	return child(NULL, path, true);
}

/* Opens devpath's attribute; the open file keeps what it needs counted. */
static int attr_open(const char *devpath, const char *attr, struct sysfs_open_file **of)
{
	struct sysfs_dirent *sd = attr_lookup(devpath, attr);
	int err;

	if (!sd)
		return -ENOENT;
	err = sysfs_open(sd, 0, of);
	sysfs_put(sd);
	return err;
}

static int uevent_read(const char *devpath, char *buf, size_t size)
{
	struct sysfs_dirent *ue = attr_lookup(devpath, "uevent");
	int err;

	if (!ue)
		return -ENOENT;
	err = sysfs_read_uevent(ue, buf, size);
	sysfs_put(ue);
	return err;
}

static int udev_sysfs_attr_read(void *ctx, const char *devpath, const char *attr, char *buf,
				size_t size)
{
	struct sysfs_open_file *of;
	ssize_t n;
	int err;

	if (strcmp(attr, "uevent") == 0) /* a class device's is write-only */
		return uevent_read(devpath, buf, size);
	err = attr_open(devpath, attr, &of);
	if (err)
		return err;
	n = sysfs_read(of, buf, size - 1);
	sysfs_close(of);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return 0;
}

static int udev_sysfs_attr_write(void *ctx, const char *devpath, const char *attr,
				 const char *value)
{
	struct sysfs_open_file *of;
	ssize_t n;
	int err = attr_open(devpath, attr, &of);

	if (err)
		return err;
	n = sysfs_write(of, value, strlen(value));
	sysfs_close(of);
	return n < 0 ? (int)n : 0;
}

int udev_sysfs_attr_writable(const char *devpath, const char *attr)
{
	struct sysfs_dirent *sd = attr_lookup(devpath, attr);
	int err;

	if (!sd)
		return -ENOENT;
	err = sysfs_dirent_mode(sd) & S_IWUGO ? 0 : -EACCES;
	sysfs_put(sd);
	return err;
}

/* udevd's events: a failed assignment is logged (udevadm test prints its own). */
static void udev_sysfs_failed(void *ctx, const char *line)
{
	pr_warn("udevd: %s\n", line);
}

const struct udev_device_ops udev_sysfs_ops = {
	.parent = udev_sysfs_parent,
	.property = udev_sysfs_property,
	.attr_read = udev_sysfs_attr_read,
	.attr_write = udev_sysfs_attr_write,
	.import_builtin = udev_builtin_import,
	.failed = udev_sysfs_failed,
};
