#!/usr/bin/python3
"""mkrootfs.py: the entry list (scripts/gen_init_cpio.py's format) of the
root filesystem that `make rootfs` packs: the directories and mount points,
/bin/busybox with a symlink for each applet where busybox --list-full puts
it, the files of scripts/rootfs/etc, and those of scripts/rootfs/sbin (the
tree's own programs, such as lab 13's /sbin/hotplug, mode 0755). The applet
list comes from the tree
(the binary is i386 and need not run on the build machine); its names are
checked against the applet name table inside the binary.

usage: mkrootfs.py BUSYBOX APPLET_LIST ETC_DIR > rootfs.list"""
import os
import sys

DIRS = [("/bin", "0755"), ("/sbin", "0755"), ("/usr", "0755"), ("/usr/bin", "0755"),
        ("/usr/sbin", "0755"), ("/etc", "0755"), ("/root", "0700"), ("/proc", "0555"),
        ("/sys", "0555"), ("/dev", "0755"), ("/tmp", "1777"), ("/mnt", "0755")]


def applets_in_binary(path):
    """The binary's applet names: the NUL-separated, sorted table that starts "[", "[["."""
    with open(path, "rb") as f:
        data = f.read()
    start = data.find(b"[\0[[\0")
    if start < 0:
        sys.exit("mkrootfs.py: %s has no busybox applet table" % path)
    names = []
    for word in data[start:].split(b"\0"):
        if not word or (names and word.decode("latin-1") <= names[-1]):
            break
        names.append(word.decode("latin-1"))
    return names


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    busybox, listfile, etc = sys.argv[1:]
    with open(listfile) as f:
        paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    listed = sorted(p.rsplit("/", 1)[-1] for p in paths)
    found = sorted(applets_in_binary(busybox))
    if listed != found:
        sys.exit("mkrootfs.py: %s's applets differ from %s (only in the binary: %s; only in "
                 "the list: %s): update the list" % (busybox, listfile,
                                                     " ".join(sorted(set(found) - set(listed))),
                                                     " ".join(sorted(set(listed) - set(found)))))
    out = ["# the root filesystem of `make rootfs` (scripts/mkrootfs.py)"]
    out += ["dir %s %s 0 0" % d for d in DIRS]
    out.append("file /bin/busybox %s 0755 0 0" % os.path.abspath(busybox))
    for p in paths:
        if p != "bin/busybox":
            out.append("slink /%s /bin/busybox 0777 0 0" % p)
    for name in sorted(os.listdir(etc)):
        out.append("file /etc/%s %s 0644 0 0" % (name, os.path.abspath(os.path.join(etc, name))))
    out.append("slink /etc/mtab /proc/mounts 0777 0 0")  # busybox df and mount -a read it
    sbin = os.path.join(os.path.dirname(os.path.abspath(etc)), "sbin")
    for name in sorted(os.listdir(sbin)) if os.path.isdir(sbin) else []:
        out.append("file /sbin/%s %s 0755 0 0" % (name, os.path.join(sbin, name)))
    print("\n".join(out))


if __name__ == "__main__":
    main()
