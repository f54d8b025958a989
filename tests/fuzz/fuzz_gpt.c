/*
 * fuzz_gpt.c: libFuzzer target for the GUID partition table parser
 * (block/partitions/efi.c) and check_partition's checks after it. With
 * flag 1 the input's headers get correct CRCs, so that the fuzzer reaches
 * past them into the entries; a read or an allocation may fail.
 * Seeds: tests/fuzz/corpus/gpt.
 */
#include "partdisk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pd_run(data, size, efi_partition);
	return pd_run(data, size, NULL);
}
