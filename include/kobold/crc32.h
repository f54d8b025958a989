/* crc32.h: the CRC-32 of IEEE 802.3 (reflected, polynomial 0xedb88320), as GPT uses it. */
#ifndef KOBOLD_CRC32_H
#define KOBOLD_CRC32_H

#include <kobold/types.h>

/* Linux's crc32_le(~0, p, len) ^ ~0: the CRC of len bytes, as UEFI 2.x §4.2 computes it. */
u32 crc32(const void *p, size_t len);

#endif
