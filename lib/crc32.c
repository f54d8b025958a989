/* crc32.c: CRC-32 (IEEE 802.3), bit by bit: GPT checks a few sectors at boot, speed is no matter. */
#include <kobold/crc32.h>

u32 crc32(const void *p, size_t len)
{
	const u8 *b = p;
	u32 crc = 0xffffffffu;

	while (len--) {
		crc ^= *b++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}
