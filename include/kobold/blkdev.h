/*
 * blkdev.h: the block layer. A driver allocates a gendisk, fills in its
 * size and operations, and add_disk() puts it into the block class
 * (/sys/class/block/NAME). I/O arrives as requests: the layer checks them
 * (bounds, read-only) in one place, so drivers see only valid ones.
 */
#ifndef KOBOLD_BLKDEV_H
#define KOBOLD_BLKDEV_H

#include <kobold/device.h>
#include <kobold/spinlock.h>
#include <kobold/types.h>
#include <kobold/wait.h>

#define SECTOR_SIZE 512
#define SECTOR_SHIFT 9
#define DISK_NAME_LEN 32

enum req_op {
	REQ_OP_READ,
	REQ_OP_WRITE,
	REQ_OP_FLUSH,
};

struct gendisk;
struct hd_struct;

/*
 * One transfer (Linux's bio and request in one). The driver's submit either
 * completes it at once or later, from an interrupt, by calling
 * blk_end_request(); either way exactly once, and then end_io runs.
 */
struct request {
	enum req_op op;
	u64 sector;
	u32 nr_sectors;
	void *buffer; /* in low memory: the driver gives the device virt_to_phys(buffer) */
	struct gendisk *disk;
	int error; /* 0 or -errno, set by blk_end_request */
	volatile bool done;
	u64 start_ns;
	void (*end_io)(struct request *rq); /* optional, after done is set; may free rq */
	void *end_io_data;
	void *driver_data; /* the driver's, while it owns the request */
	/*
	 * The submitter sends more at once (blk-mq's !bd->last): the driver
	 * may hold the device's notification until a request without it, or
	 * blk_commit(). Off by default: every request is announced.
	 */
	bool more;
	/*
	 * Set by the driver: rq rides in another request's transfer (a back
	 * merge). The stat file counts it in merges, not in I/Os, as Linux
	 * counts a bio merged into a request (fields 2 and 6).
	 */
	bool merged;
};

struct block_device_operations {
	struct module *owner; /* pinned while a /dev node of the disk is open */
	/* Starts rq; returns 0 if accepted (completion follows), else -errno. */
	int (*submit)(struct gendisk *disk, struct request *rq);
	/* Optional: tells the device of the requests submitted with rq->more (blk-mq's commit_rqs). */
	void (*commit)(struct gendisk *disk);
	/* Optional: completes what the device has finished, without its interrupt; the count. */
	int (*poll)(struct gendisk *disk);
	/* With poll: the device's completion interrupts off (false) while a waiter polls, then on. */
	void (*poll_irq)(struct gendisk *disk, bool on);
};

/* The counters /sys/class/block/NAME/stat shows, in Linux's order. */
struct disk_stats {
	unsigned long ios[2];	 /* reads, writes completed */
	unsigned long merges[2]; /* requests merged into another (rq->merged) */
	unsigned long sectors[2];
	unsigned long ticks[2]; /* milliseconds spent */
	unsigned long in_flight;
	unsigned long io_ticks;
	unsigned long time_in_queue;
	u64 busy_since_ns;
	unsigned long flushes;
	unsigned long errors;
};

struct gendisk {
	unsigned int major;
	unsigned int first_minor;
	char disk_name[DISK_NAME_LEN];
	u64 capacity; /* in 512-byte sectors */
	bool read_only;
	bool removable;
	bool registered;	     /* between add_disk and del_gendisk */
	bool dead;		     /* after del_gendisk: I/O fails with -ENODEV */
	u32 max_sectors;	     /* largest request the driver takes (0: no limit) */
	unsigned int queue_depth;    /* most requests in flight (0: no limit), Linux's nr_requests */
	bool io_poll;		     /* waiters poll for completions (queue/io_poll), if fops->poll */
	struct wait_queue_head wait; /* woken at each completion and at del_gendisk */
	const struct block_device_operations *fops;
	void *private_data;
	struct device *driverfs_dev; /* the parent device, for the "device" link */
	int minors;		     /* dev_t's from first_minor: > 1 allows partitions */
	struct hd_struct **part;     /* [minors]: partition n, or NULL (genhd.h) */
	struct class_device cdev;    /* its entry in the block class */
	/*
	 * 2.6's request_queue->queue_lock (Kobold has no request_queue): the
	 * requests' accounting in stats, taken with interrupts off since
	 * completions come from interrupt handlers.
	 */
	spinlock_t queue_lock;
	struct disk_stats stats;
	struct list_head list; /* all disks, for lsblk */
};

extern struct class block_class;
extern struct kset block_subsys; /* /sys/block (2.6's name for it) */

/* A major number: 0 asks for a free one (returned); an error is negative. */
int register_blkdev(unsigned int major, const char *name);
void unregister_blkdev(unsigned int major, const char *name);

struct gendisk *alloc_disk(void); /* zeroed; the caller owns it (put_disk) */
/*
 * Puts the disk into the block class. Linux 2.6's add_disk returned void;
 * Kobold's returns 0 or -errno, so that a failing probe can unwind.
 */
int add_disk(struct gendisk *disk);
void del_gendisk(struct gendisk *disk);
void put_disk(struct gendisk *disk); /* drops the reference; freed at the last */

static inline void set_capacity(struct gendisk *disk, u64 sectors) { disk->capacity = sectors; }
static inline u64 get_capacity(struct gendisk *disk) { return disk->capacity; }
void set_disk_ro(struct gendisk *disk, bool ro);

/* A live disk by name, with a reference (put_disk it), or NULL. */
struct gendisk *get_gendisk_by_name(const char *name);
/* The live disk whose number is devt, with a reference (put_disk it), or NULL. */
struct gendisk *get_gendisk(dev_t devt);
void blk_for_each_disk(void (*fn)(struct gendisk *disk, void *arg), void *arg);

/* Checks a transfer against the disk: 0, -EINVAL (past the end), -EROFS, -ENODEV. */
int blk_check(struct gendisk *disk, enum req_op op, u64 sector, u64 count);
/*
 * Asynchronous I/O, Linux's submit_bio: starts rq (op, disk, sector,
 * nr_sectors, buffer and end_io filled in, at most max_sectors) and returns
 * at once; end_io(rq) runs exactly once when it completes, usually from the
 * disk's interrupt, with rq->error 0 or -errno (-EINVAL, -EROFS, -ENODEV for
 * a transfer refused before the driver saw it). While queue_depth requests
 * are in flight it sleeps until one completes, so never call it from an
 * interrupt handler or an end_io.
 */
void blk_submit(struct request *rq);
/*
 * Synchronous I/O: reads, writes or flushes, split into requests of at most
 * max_sectors each, submitted with blk_submit; waits for every one to finish.
 */
int blk_rw(struct gendisk *disk, enum req_op op, u64 sector, u64 count, void *buf);
/* For drivers: completion of a request they accepted (IRQ context is fine). */
void blk_end_request(struct request *rq, int error);
/* Sleeps on the disk's wait queue until rq->done. */
void blk_wait(struct request *rq);
/* Announces to the device what was submitted with rq->more set (blk-mq's commit_rqs). */
void blk_commit(struct gendisk *disk);
/* Completes what the device has finished without waiting for its interrupt (Linux's blk_poll). */
int blk_poll(struct gendisk *disk);
/* True if waiters on the disk should poll (queue/io_poll set and the driver can). */
static inline bool blk_polling(const struct gendisk *d) { return d->io_poll && d->fops->poll; }
/* Around a polling wait: the driver's interrupts off, then on again (and what came, taken). */
void blk_poll_irq(struct gendisk *disk, bool on);

/*
 * Waits until cond holds: first announces what was batched, then sleeps on
 * the disk's wait queue, or polls the device if queue/io_poll is set.
 */
#define blk_wait_event(d, cond)                      \
	do {                                         \
		if (cond)                            \
			break;                       \
		blk_commit(d);                       \
		if (blk_polling(d)) {                \
			blk_poll_irq(d, false);      \
			while (!(cond))              \
				blk_poll(d);         \
			blk_poll_irq(d, true);       \
		} else {                             \
			wait_event((d)->wait, cond); \
		}                                    \
	} while (0)

#endif
