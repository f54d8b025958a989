/*
 * check.h (internal): what the partition-table parsers share (Linux 2.6's
 * fs/partitions/check.h). A parser reads sectors through the callback and
 * fills parts[]; it never touches the disk or the device model.
 */
#ifndef BLOCK_PARTITIONS_CHECK_H
#define BLOCK_PARTITIONS_CHECK_H

#include <kobold/types.h>

#define PARSED_MAX_PARTS 64 /* slots a parser may fill; the disk's minors limit further */
#define PARSED_SECTOR 512

struct parsed_partitions {
	const char *name; /* the disk's, for messages */
	u64 capacity;	  /* in 512-byte sectors */
	int limit;	  /* partitions 1 .. limit-1 (the disk's minors) */
	/* Reads one sector into buf: 0 or -errno. */
	int (*read_sector)(void *data, u64 sector, u8 *buf);
	void *data;
	struct {
		u64 from, size; /* size 0: the slot is empty */
		bool container; /* an extended partition: logical ones lie inside it */
	} parts[PARSED_MAX_PARTS];
	char line[128]; /* " vda: vda1 vda2 < vda5 >", as Linux prints it */
	int line_len;
	int next;	 /* msdos: the next logical partition's number, across every chain */
	bool told_limit; /* "more partitions than minors" said for this disk */
};

/* 1: this kind of table, parts[] filled; 0: not this kind; -errno: unreadable. */
int efi_partition(struct parsed_partitions *state);
int msdos_partition(struct parsed_partitions *state);

/* Records partition n (1-based) unless it is beyond the slots (said once a disk). */
void put_partition(struct parsed_partitions *state, int n, u64 from, u64 size);
void partition_line(struct parsed_partitions *state, const char *text);

/*
 * Runs the parsers (GPT first, then MBR, as Linux with CONFIG_EFI_PARTITION),
 * then, each with a message, truncates partitions that run past the disk's
 * end and drops those that start past it or overlap an earlier one. 1 if a
 * table was found, 0 if none, -errno if it could not be read.
 */
int check_partition(struct parsed_partitions *state);

static inline u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 get_le64(const u8 *p)
{
	return (u64)get_le32(p) | (u64)get_le32(p + 4) << 32;
}

#endif
