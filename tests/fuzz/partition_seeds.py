#!/usr/bin/env python3
"""partition_seeds.py: writes the seed corpus of fuzz_msdos and fuzz_gpt
(tests/fuzz/corpus/), one file per case the parsers must get right, in
partdisk.h's format: capacity, minors, flags, then sectors that repeat.
Run it again after changing a case; the files are kept in the tree
(or written below the directory given)."""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIX_CRC, READ_ENOMEM, KMALLOC_FAIL = 1, 2, 4


def disk(capacity, sectors, limit=16, flags=0, fail_read=0, fail_alloc=0):
    """sectors: {sector number: 512 bytes}; laid out so that each lands on its own image sector."""
    for nsect in range(max(len(sectors), 1), 64):
        if len({s % nsect for s in sectors}) == len(sectors):
            break
    img = bytearray(512 * nsect)
    for s, data in sectors.items():
        img[(s % nsect) * 512:(s % nsect) * 512 + 512] = data
    head = struct.pack("<IBBBB", capacity, limit - 1, flags, fail_read, fail_alloc)
    return head + bytes(img)


def mbr(entries):
    """entries: (type, start, size) for each of up to four slots."""
    s = bytearray(512)
    for i, (ptype, start, size) in enumerate(entries):
        if ptype:
            struct.pack_into("<B3xBxxxII", s, 0x1be + 16 * i, 0, ptype, start, size)
    s[510:512] = b"\x55\xaa"
    return bytes(s)


def gpt_header(lba, alt, entries_lba, n):
    """n entries at entries_lba; usable sectors 34-2014 of a 2048-sector disk."""
    h = bytearray(512)
    h[0:8] = b"EFI PART"
    struct.pack_into("<IIIIQQQQ16sQIII", h, 8, 0x10000, 92, 0, 0, lba, alt, 34, 2014,
                     b"\x11" * 16, entries_lba, n, 128, 0)
    return bytes(h)  # CRCs left for partdisk.h's FIX_CRC


def gpt_entries(parts, n):
    e = bytearray(n * 128)
    for i, (first, last) in parts.items():
        struct.pack_into("<16s16sQQ", e, 128 * i, b"\x0f" * 16, b"\x22" * 16, first, last)
    return {2 + k: bytes(e[512 * k:512 * k + 512]).ljust(512, b"\0") for k in range((len(e) + 511) // 512)}


def gpt(parts, n=8, backup=True, primary=True):
    """A GPT of n entries (the seeds stay under libFuzzer's 6,000 bytes), both headers sharing them."""
    sectors = {0: mbr([(0xee, 1, 2047)])}
    if primary:
        sectors[1] = gpt_header(1, 2047, 2, n)
    sectors.update(gpt_entries(parts, n))
    if backup:
        sectors[2047] = gpt_header(2047, 1, 2, n)
    return sectors


MSDOS = {
    "primaries_and_logicals": disk(2048, {0: mbr([(0x83, 64, 512), (0x05, 1024, 1000)]),
                                          1024: mbr([(0x83, 1, 100), (0x05, 200, 2)]),
                                          1224: mbr([(0x83, 1, 50)])}),
    # an extended entry that reaches past the disk's end, its chain linking past it
    "extended_past_the_end": disk(2048, {0: mbr([(0x83, 64, 100), (0x05, 1024, 5000), (0x0f, 3000, 10)]),
                                         1024: mbr([(0x83, 1, 100), (0x05, 1500, 2)])}),
    # two extended chains: the second numbers on from the first
    "two_extended_chains": disk(2048, {0: mbr([(0x05, 100, 400), (0x05, 600, 400)]),
                                       100: mbr([(0x83, 1, 10), (0x05, 50, 2)]),
                                       150: mbr([(0x83, 1, 10)]),
                                       600: mbr([(0x83, 1, 20)])}),
    # a chain longer than the disk's minors: said once
    "more_than_minors": disk(2048, dict([(0, mbr([(0x05, 65, 1000)]))] +
                                        [(65 + 2 * i, mbr([(0x83, 1, 1)] + ([(0x05, 2 * (i + 1), 1)] if i < 7 else [])))
                                         for i in range(8)]), limit=6),
    "chain_loops_back": disk(2048, {0: mbr([(0x05, 100, 1000)]), 100: mbr([(0x83, 1, 10), (0x05, 50, 2)]),
                                    150: mbr([(0x83, 1, 10), (0x05, 50, 2)])}),
    "overlap_and_past_the_end": disk(2048, {0: mbr([(0x83, 100, 200), (0x83, 150, 100), (0x83, 2048, 10),
                                                    (0x83, 2000, 0xffffffff)])}),
    "ebr_read_fails_enomem": disk(2048, {0: mbr([(0x83, 64, 100), (0x05, 1024, 1000)]),
                                         1024: mbr([(0x83, 1, 100)])}, flags=READ_ENOMEM, fail_read=1),
}

GPT = {
    "good": disk(2048, gpt({0: (34, 533), 2: (600, 699)}), flags=FIX_CRC),
    "primary_damaged_backup_used": disk(2048, gpt({0: (34, 533)}, primary=False), flags=FIX_CRC),
    # no memory for the entries: an error, not a bad primary (no backup)
    "entries_enomem": disk(2048, gpt({0: (34, 533)}), flags=FIX_CRC | KMALLOC_FAIL, fail_alloc=1),
    "header_read_enomem": disk(2048, gpt({0: (34, 533)}), flags=FIX_CRC | READ_ENOMEM, fail_read=1),
    "more_entries_than_minors": disk(2048, gpt({i: (34 + 10 * i, 43 + 10 * i) for i in range(20)}, n=20),
                                     flags=FIX_CRC),
    "no_crc_fix": disk(2048, gpt({0: (34, 533)})),
}


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    for name, seeds in (("msdos", MSDOS), ("gpt", GPT)):
        d = os.path.join(top, name)
        os.makedirs(d, exist_ok=True)
        for case, data in seeds.items():
            with open(os.path.join(d, case), "wb") as f:
                f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
