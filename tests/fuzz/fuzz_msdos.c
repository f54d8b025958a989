/*
 * fuzz_msdos.c: libFuzzer target for the MBR parser (block/partitions/msdos.c)
 * and check_partition's checks after it: extended chains that loop, link
 * past the disk or run long, several extended entries, reads and
 * allocations that fail. Seeds: tests/fuzz/corpus/msdos.
 */
#include "partdisk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pd_run(data, size, msdos_partition);
	return pd_run(data, size, NULL);
}
