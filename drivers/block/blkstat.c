/*
 * blkstat.c: a class_interface on the block class. Its add gives every block
 * device a "stat" file (Linux's fields, in Linux's order); its remove takes
 * it away. Loading it adds the file to the disks already there; disks that
 * come later get it as they join the class.
 */
#include <kobold/blkdev.h>
#include <kobold/module.h>
#include <kobold/string.h>

static ssize_t stat_show(struct class_device *cd, char *buf)
{
	const struct disk_stats *s = &container_of(cd, struct gendisk, cdev)->stats;

	/* read I/Os, merges, sectors, ticks; the same for writes; in flight, io ticks, queue */
	return scnprintf(buf, SYSFS_PAGE_SIZE,
			 "%8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu\n",
			 s->ios[0], s->merges[0], s->sectors[0], s->ticks[0], s->ios[1],
			 s->merges[1], s->sectors[1], s->ticks[1], s->in_flight, s->io_ticks,
			 s->time_in_queue);
}
static CLASS_DEVICE_ATTR(stat, S_IRUGO, stat_show, NULL);

static int blkstat_add(struct class_device *cd)
{
	return class_device_create_file(cd, &class_device_attr_stat);
}

static void blkstat_remove(struct class_device *cd)
{
	class_device_remove_file(cd, &class_device_attr_stat);
}

static struct class_interface blkstat_interface = {
	.class = &block_class,
	.add = blkstat_add,
	.remove = blkstat_remove,
};

static int blkstat_init(void)
{
	return class_interface_register(&blkstat_interface);
}

static void blkstat_exit(void)
{
	class_interface_unregister(&blkstat_interface);
}

module_init(blkstat_init);
module_exit(blkstat_exit);
