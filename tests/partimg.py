"""partimg.py: disk images with a partition table, written byte by byte (the
MBR of the PC, the EBR chain of logical partitions, and UEFI's GPT with its
CRCs and backup), so that the tests need no sfdisk."""
import struct
import uuid
import zlib

SECTOR = 512
LINUX = 0x83
EXTENDED = 0x05
LINUX_FS_GUID = uuid.UUID("0fc63daf-8483-4772-8e79-3d69d8477de4")


def _mbr_entry(start, size, ptype, boot=0):
    return struct.pack("<B3sB3sII", boot, b"\0\0\0", ptype, b"\0\0\0", start, size)


def _table(entries):
    """A 512-byte sector holding up to four entries and the 0x55AA signature."""
    body = b"".join(_mbr_entry(*e) for e in entries).ljust(64, b"\0")
    return b"\0" * 446 + body + b"\x55\xaa"


def write_sector(f, n, data):
    f.seek(n * SECTOR)
    f.write(data)


def mbr(path, mib, primaries, logicals=(), ext_index=None, links=None):
    """primaries: (start, size, type); logicals: (start, size) inside the
    extended primary at ext_index. The first EBR is the extended partition's
    first sector, each later one the sector before its partition; links
    (EBR sectors, relative to the extended start) replace the chain's links."""
    with open(path, "wb") as f:
        f.truncate(mib * 1024 * 1024)
        write_sector(f, 0, _table(primaries))
        if ext_index is None:
            return path
        ext_start = primaries[ext_index][0]
        ebrs = [ext_start] + [start - 1 for start, _ in logicals[1:]]
        for i, (start, size) in enumerate(logicals):
            entries = [(start - ebrs[i], size, LINUX)]
            nxt = links[i] if links else (ebrs[i + 1] - ext_start if i + 1 < len(logicals) else None)
            if nxt is not None:
                entries.append((nxt, 2, EXTENDED))
            write_sector(f, ebrs[i], _table(entries))
    return path


def _gpt_header(my_lba, alt_lba, first, last, entries_lba, n, entries_crc):
    h = struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, my_lba, alt_lba,
                    first, last, uuid.UUID(int=1).bytes_le, entries_lba, n, 128, entries_crc)
    crc = zlib.crc32(h) & 0xffffffff
    return (h[:16] + struct.pack("<I", crc) + h[20:]).ljust(SECTOR, b"\0")


def gpt(path, mib, parts, n_entries=128, corrupt_primary=False):
    """parts: (first_lba, last_lba) in entry order; a protective MBR, the
    primary header and entries at 1-33, the backup ones at the end."""
    sectors = mib * 1024 * 1024 // SECTOR
    entries = b""
    for i, (first, last) in enumerate(parts):
        name = ("part%d" % (i + 1)).encode("utf-16-le")
        entries += struct.pack("<16s16sQQQ72s", LINUX_FS_GUID.bytes_le,
                               uuid.UUID(int=i + 2).bytes_le, first, last, 0, name)
    entries = entries.ljust(n_entries * 128, b"\0")
    ecrc = zlib.crc32(entries) & 0xffffffff
    esec = (len(entries) + SECTOR - 1) // SECTOR
    first, last = 2 + esec, sectors - 2 - esec
    with open(path, "wb") as f:
        f.truncate(sectors * SECTOR)
        write_sector(f, 0, _table([(1, min(sectors - 1, 0xffffffff), 0xEE)]))
        primary = _gpt_header(1, sectors - 1, first, last, 2, n_entries, ecrc)
        if corrupt_primary:
            primary = primary[:40] + b"\xff" + primary[41:]  # first_usable changed: CRC fails
        write_sector(f, 1, primary)
        write_sector(f, 2, entries)
        write_sector(f, sectors - 1 - esec, entries)
        write_sector(f, sectors - 1, _gpt_header(sectors - 1, 1, first, last, sectors - 1 - esec,
                                                 n_entries, ecrc))
    return path
