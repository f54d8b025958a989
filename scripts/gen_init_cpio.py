#!/usr/bin/python3
"""gen_init_cpio.py: a newc cpio archive from a list of entries, in the
format of Linux's usr/gen_init_cpio (one a line, '#' starts a comment):

    dir   NAME MODE UID GID
    file  NAME LOCATION MODE UID GID
    slink NAME TARGET MODE UID GID
    nod   NAME MODE UID GID c|b MAJOR MINOR

usage: gen_init_cpio.py LIST > archive.cpio   (LIST may be - for stdin)"""
import stat
import sys


def pad4(out):
    out.write(b"\0" * (-out.tell() % 4))


def member(out, ino, name, mode, uid, gid, data=b"", rmajor=0, rminor=0):
    name_b = name.lstrip("/").encode() + b"\0"
    fields = [ino, mode, uid, gid, 1, 0, len(data), 0, 0, rmajor, rminor, len(name_b), 0]
    out.write(b"070701" + b"".join(b"%08X" % f for f in fields))
    out.write(name_b)
    pad4(out)
    out.write(data)
    pad4(out)


def entry(words):
    kind, name = words[0], words[1]
    if kind == "dir":
        return name, stat.S_IFDIR | int(words[2], 8), int(words[3]), int(words[4]), b"", 0, 0
    if kind == "file":
        with open(words[2], "rb") as f:
            data = f.read()
        return name, stat.S_IFREG | int(words[3], 8), int(words[4]), int(words[5]), data, 0, 0
    if kind == "slink":
        return (name, stat.S_IFLNK | int(words[3], 8), int(words[4]), int(words[5]),
                words[2].encode(), 0, 0)
    if kind == "nod":
        kind_bit = {"c": stat.S_IFCHR, "b": stat.S_IFBLK}[words[5]]
        return (name, kind_bit | int(words[2], 8), int(words[3]), int(words[4]), b"",
                int(words[6]), int(words[7]))
    raise ValueError("unknown entry type %r" % kind)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1])
    out = sys.stdout.buffer
    ino = 721
    for lineno, line in enumerate(src, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            name, mode, uid, gid, data, rmaj, rmin = entry(words)
        except (IndexError, ValueError, KeyError, OSError) as e:
            sys.exit("gen_init_cpio.py: %s:%d: %s" % (sys.argv[1], lineno, e))
        member(out, ino, name, mode, uid, gid, data, rmaj, rmin)
        ino += 1
    member(out, 0, "TRAILER!!!", 0, 0, 0)
    out.write(b"\0" * (-out.tell() % 512))


if __name__ == "__main__":
    main()
