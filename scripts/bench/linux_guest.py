"""linux_guest.py: a minimal Linux guest to compare Kobold with (make bench,
make udev-compare, make usertests-linux and aiotests-linux).

It is assembled from Debian's own packages (linux-image-amd64 and
busybox-static, fetched with `apt-get download`, and any others asked for):
the kernel, and an initramfs holding busybox, the virtio modules and an /init
that runs the commands it is given and powers off. Everything is cached in
the directory the caller names.
"""
import glob
import gzip
import os
import re
import shutil
import subprocess
import zlib

import pexpect

MODULES = ["virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
           "virtio_pci", "virtio_blk"]


class Unavailable(Exception):
    """The Debian packages could not be fetched or unpacked."""


def _run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise Unavailable("%s: %s" % (" ".join(cmd), (p.stderr or p.stdout).strip()[-300:]))
    return p.stdout


def fetch(cache, packages=()):
    """Downloads and unpacks the kernel, busybox-static and packages once;
    returns (vmlinuz, root dir)."""
    root = os.path.join(cache, "root")
    done = os.path.join(cache, ".unpacked")
    wanted = " ".join(packages)
    if not os.path.exists(done) or open(done).read() != wanted:
        os.makedirs(cache, exist_ok=True)
        image = _run(["apt-cache", "depends", "linux-image-amd64"])
        pkgs = [l.split()[-1] for l in image.splitlines() if "Depends: linux-image-" in l]
        if not pkgs:
            raise Unavailable("apt-cache knows no linux-image-amd64 (run apt-get update)")
        for old in glob.glob(os.path.join(cache, "*.deb")):
            os.unlink(old)
        _run(["apt-get", "download", pkgs[0], "busybox-static"] + list(packages), cwd=cache)
        shutil.rmtree(root, ignore_errors=True)
        for deb in glob.glob(os.path.join(cache, "*.deb")):
            _run(["dpkg-deb", "-x", deb, root])
        with open(done, "w") as f:
            f.write(wanted)
    vmlinuz = sorted(glob.glob(os.path.join(root, "boot", "vmlinuz-*")))
    if not vmlinuz:
        raise Unavailable("no vmlinuz in the unpacked package")
    return vmlinuz[-1], root


def _cpio_entry(out, name, mode, data=b"", ino=[1]):
    """One entry of a newc cpio archive (the initramfs format)."""
    ino[0] += 1
    fields = [ino[0], mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(hdr + name.encode() + b"\0")
    out.write(b"\0" * ((4 - (len(hdr) + len(name) + 1) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def libraries(root, binaries):
    """The shared libraries the binaries (paths below root) need, as
    {name in the archive: host path}: found in root first, else on the host
    (Debian 12 amd64, the guest's own release), as the dynamic linker would."""
    libdirs = [os.path.join(root, d) for d in ("lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu",
                                               "lib/x86_64-linux-gnu/systemd")]
    env = dict(os.environ, LD_LIBRARY_PATH=":".join(libdirs))
    found = {}
    for b in binaries:
        p = subprocess.run(["ldd", os.path.join(root, b)], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise Unavailable("ldd %s: %s" % (b, p.stderr.strip()))
        for line in p.stdout.splitlines():
            m = re.match(r"\s*(\S+)(?: => (\S+))? \(0x", line)
            if not m or m.group(1).startswith("linux-vdso"):
                continue
            if m.group(2) == "not" or (m.group(2) is None and not m.group(1).startswith("/")):
                raise Unavailable("%s needs %s, found nowhere" % (b, m.group(1)))
            host = os.path.realpath(m.group(2) or m.group(1))
            name = m.group(1) if m.group(1).startswith("/") else \
                "lib/x86_64-linux-gnu/" + m.group(1)
            found[name.lstrip("/")] = host
    return found


INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in %s; do insmod /lib/$m.ko || echo "insmod $m failed"; done
i=0
while [ ! -e /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo KOBOLD-BENCH-READY
while read -r cmd; do
    [ "$cmd" = done ] && break
    echo "KOBOLD-BENCH-CMD $cmd"
    sh -c "$cmd" 2>&1
    echo KOBOLD-BENCH-END
done
poweroff -f
"""


def initramfs(cache, root, extra=None):
    """Builds the gzip'd initramfs with busybox, the modules, /init and the extra
    files ({name in the archive: host path}, directories made as needed); again
    only when one of those is newer."""
    extra = extra or {}
    # One archive per set of extra files: make bench, usertests-linux and aiotests-linux
    # each ask for their own, and a cached one must hold every file asked for.
    key = zlib.crc32("\0".join(sorted(extra)).encode())
    path = os.path.join(cache, "initramfs-%08x.cpio.gz" % key)
    if os.path.exists(path) and all(os.path.getmtime(p) < os.path.getmtime(path)
                                    for p in extra.values()):
        return path
    mods = {}
    for m in MODULES:
        found = glob.glob(os.path.join(root, "lib", "modules", "*", "kernel", "**", m + ".ko"),
                          recursive=True)
        if found:
            mods[m] = found[0]
    if "virtio_blk" not in mods or "virtio_pci" not in mods:
        raise Unavailable("virtio modules not found in the kernel package")
    with gzip.open(path + ".tmp", "wb") as out:
        dirs = {"bin", "lib", "proc", "sys", "dev", "tmp"}
        for name in extra:
            parts = name.split("/")[:-1]
            dirs.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
        for d in sorted(dirs):
            _cpio_entry(out, d, 0o040755)
        with open(os.path.join(root, "bin", "busybox"), "rb") as f:
            _cpio_entry(out, "bin/busybox", 0o100755, f.read())
        for m in MODULES:
            if m in mods:
                with open(mods[m], "rb") as f:
                    _cpio_entry(out, "lib/%s.ko" % m, 0o100644, f.read())
        for name, host_path in sorted(extra.items()):
            with open(host_path, "rb") as f:
                _cpio_entry(out, name, 0o100755, f.read())
        order = " ".join(m for m in MODULES if m in mods)
        _cpio_entry(out, "init", 0o100755, (INIT % order).encode())
        _cpio_entry(out, "TRAILER!!!", 0)
    os.rename(path + ".tmp", path)
    return path


def boot(cache, programs, qemu_args=()):
    """Debian's kernel in QEMU with the initramfs holding programs ({name in the
    archive: host path}) and qemu_args added, at /init's KOBOLD-BENCH-READY: a
    pexpect child that runs each line sent as a command. Raises Unavailable."""
    vmlinuz, root = fetch(cache)
    initrd = initramfs(cache, root, programs)
    args = ["-M", "pc", "-m", "512M", "-display", "none", "-no-reboot",
            "-chardev", "stdio,id=s,signal=off", "-serial", "chardev:s", "-monitor", "none",
            "-kernel", vmlinuz, "-initrd", initrd, "-append", "console=ttyS0 quiet"] + list(qemu_args)
    c = pexpect.spawn("qemu-system-x86_64", args, encoding="utf-8", codec_errors="replace",
                      timeout=300)
    try:
        c.expect("KOBOLD-BENCH-READY")
    except BaseException:
        c.close(force=True)
        raise
    return c


def run_suite(cache, name, command, programs, qemu_args=(), record=None):
    """Runs a test program of user/ (name: usertests, aiotests) on the guest by
    command, prints its "ok NAME", "FAIL NAME: why" and count lines, and writes
    them to record if given (make NAME-linux --record: the reference make test
    holds the suite to). 0 if none failed, else 1."""
    c = boot(cache, programs, qemu_args)
    try:
        c.sendline(command)
        c.expect(r"%s: \d+ passed, \d+ failed" % name)
        out = c.before + c.after
        c.expect("KOBOLD-BENCH-END")
        c.sendline("done")
        c.expect(pexpect.EOF)
    finally:
        c.close(force=True)
    lines = [l.strip() for l in out.replace("\r", "").split("\n")
             if re.match(r"(ok|FAIL) \S+|%s: " % name, l.strip())]
    print("\n".join(lines))
    if record:
        os.makedirs(os.path.dirname(record), exist_ok=True)
        with open(record, "w") as f:
            f.write("# build/user/%s on Debian 12's Linux (amd64 kernel), make %s-linux --record\n"
                    % (name, name))
            f.write("\n".join(lines) + "\n")
    return 0 if lines and lines[-1].endswith(" 0 failed") else 1
