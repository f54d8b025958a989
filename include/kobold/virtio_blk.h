/* virtio_blk.h: the virtio block device's features, configuration and requests (virtio 1.1 §5.2). */
#ifndef KOBOLD_VIRTIO_BLK_H
#define KOBOLD_VIRTIO_BLK_H

#include <kobold/types.h>

/* Feature bits (§5.2.3). */
#define VIRTIO_BLK_F_SIZE_MAX 1 /* size_max: largest segment */
#define VIRTIO_BLK_F_SEG_MAX 2	/* seg_max: most segments in a request */
#define VIRTIO_BLK_F_GEOMETRY 4
#define VIRTIO_BLK_F_RO 5	/* the disk is read-only */
#define VIRTIO_BLK_F_BLK_SIZE 6 /* blk_size: the logical block size */
#define VIRTIO_BLK_F_FLUSH 9	/* the device has a write cache: flush works */
#define VIRTIO_BLK_F_MQ 12	/* num_queues: more than one request queue */

/* Device configuration layout (§5.2.4). */
struct virtio_blk_config {
	u64 capacity; /* in 512-byte sectors, whatever blk_size says */
	u32 size_max;
	u32 seg_max;
	struct {
		u16 cylinders;
		u8 heads;
		u8 sectors;
	} geometry;
	u32 blk_size;
	struct {
		u8 physical_block_exp;
		u8 alignment_offset;
		u16 min_io_size;
		u32 opt_io_size;
	} topology;
	u8 writeback;
	u8 unused0;
	u16 num_queues; /* with VIRTIO_BLK_F_MQ */
} __packed;

/* Request types (§5.2.6). */
#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_T_GET_ID 8

/* The header every request starts with (device-readable). */
struct virtio_blk_outhdr {
	u32 type;
	u32 ioprio; /* "reserved" in 1.x */
	u64 sector;
} __packed;

/* The status byte every request ends with (device-writable). */
#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2

#define VIRTIO_BLK_ID_BYTES 20 /* GET_ID: the serial, not NUL-terminated if 20 long */

#endif
