/*
 * fuzz_sysfs_lookup.c: libFuzzer target for sysfs path lookup (fs/sysfs/namei.c)
 * over a tree built here: nested directories, attributes, relative links, a
 * link loop and a link to a removed object.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

#include <stdint.h>
#include <stdlib.h>

static void node_release(struct kobject *kobj) { (void)kobj; }
static struct kobj_type node_type = { .release = node_release };
static struct attribute attr_ro = { .name = "ro", .mode = 0644 };
static struct kobject nodes[6];
static struct sysfs_dirent *cwds[3];

static void add(int i, const char *name, struct kobject *parent)
{
	nodes[i].ktype = &node_type;
	nodes[i].parent = parent;
	kobject_init(&nodes[i]);
	kobject_set_name(&nodes[i], "%s", name);
	if (kobject_add(&nodes[i]) || sysfs_create_file(&nodes[i], &attr_ro))
		abort();
}

static void build_tree(void)
{
	add(0, "fz", NULL);
	add(1, "class", &nodes[0]);
	add(2, "sbd0", &nodes[1]);
	add(3, "devices", &nodes[0]);
	add(4, "virtio0", &nodes[3]);
	add(5, "gone", &nodes[0]);
	sysfs_create_link(&nodes[2], &nodes[4], "device");
	sysfs_create_link(&nodes[4], &nodes[2], "back"); /* a loop through two links */
	sysfs_create_link(&nodes[2], &nodes[2], "self");
	sysfs_create_link(&nodes[4], &nodes[5], "dangling");
	kobject_del(&nodes[5]);
	if (sysfs_lookup(NULL, "/sys/fz/class/sbd0", true, &cwds[1]) ||
	    sysfs_lookup(NULL, "/sys/fz/devices/virtio0", true, &cwds[2]))
		abort();
}

static void check_result(struct sysfs_dirent *sd)
{
	char path[SYSFS_PATH_MAX];

	if (sysfs_path(sd, path, sizeof(path)) < 0 && !sysfs_dirent_removed(sd))
		abort();
	if (sysfs_dirent_type(sd) == SYSFS_KOBJ_LINK)
		sysfs_readlink(sd, path, sizeof(path));
	sysfs_put(sd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool built;
	struct sysfs_dirent *sd;
	char *path;
	int err;

	if (!built) {
		build_tree();
		built = true;
	}
	if (size < 1)
		return 0;
	path = malloc(size);
	memcpy(path, data + 1, size - 1);
	path[size - 1] = '\0';
	err = sysfs_lookup(cwds[data[0] % 3], path, data[0] & 4, &sd);
	if (!err)
		check_result(sd);
	else if (err != -ENOENT && err != -ENOTDIR && err != -ELOOP && err != -ENAMETOOLONG)
		abort();
	free(path);
	return 0;
}
