"""udev_compare.py: `make udev-compare`: the same rules through systemd's
udevadm (Debian 12's udev package, systemd 252, in Debian's Linux in QEMU)
and through Kobold's, on the same virtio disk; prints where they differ.

`--record` boots Linux only and writes what udevadm printed for each case to
tests/udev_compare/linux-252.json, which `make test` (tests/test_udev_compare.py)
compares Kobold with, without booting Linux again.
"""
import json
import os
import sys

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "scripts", "bench"), os.path.join(ROOT, "tests")]
import linux_guest  # noqa: E402
import partimg  # noqa: E402
from udev_compare import cases, results  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "udev_compare", "linux-252.json")
CACHE = os.path.join(ROOT, "build", "udev-compare")
SERIAL = "kobold-disk"

# Runs every case in the guest: a clean /run/udev and one rules file each.
RUN_CASES = """#!/bin/sh
mkdir -p /run/udev /etc/udev/rules.d
for f in /cases/*.rules; do
    n=${f##*/}; n=${n%.rules}
    rm -rf /run/udev/data /run/udev/links /etc/udev/rules.d/*
    cp "$f" /etc/udev/rules.d/50-test.rules
    chmod 644 /etc/udev/rules.d/50-test.rules
    echo "UDEV-CASE-BEGIN $n"
    SYSTEMD_PAGER= udevadm test --action=add /sys/class/block/$(cat /cases/$n.dev) 2>&1
    echo "UDEV-CASE-END $n $?"
done
"""


def disk(path):
    """16 MiB with one primary partition: vda and vda1 on both systems."""
    return partimg.mbr(path, 16, [(2048, 8192, partimg.LINUX)])


def write_cases(outdir):
    """Each case's rules as NAME.rules and its device as NAME.dev; {archive name: path}."""
    os.makedirs(outdir, exist_ok=True)
    files = {}
    for name, dev, text in cases.CASES:
        for ext, data in ((".rules", text), (".dev", dev + "\n")):
            path = os.path.join(outdir, name + ext)
            with open(path, "w") as f:
                f.write(data)
            files["cases/" + name + ext] = path
    return files


def parse_cases(text):
    """{name: output} from the guest's UDEV-CASE-BEGIN/END markers."""
    out, name, buf = {}, None, []
    for line in text.replace("\r", "").split("\n"):
        if line.startswith("UDEV-CASE-BEGIN "):
            name, buf = line.split()[1], []
        elif line.startswith("UDEV-CASE-END ") and name:
            out[name] = "\n".join(buf) + "\n"
            name = None
        elif name:
            buf.append(line)
    return out


def record_linux():
    vmlinuz, root = linux_guest.fetch(CACHE, ["udev"])
    extra = linux_guest.libraries(root, ["bin/udevadm"])
    extra["bin/udevadm"] = os.path.join(root, "bin", "udevadm")
    extra.update(write_cases(os.path.join(CACHE, "cases")))
    script = os.path.join(CACHE, "udev-cases")
    with open(script, "w") as f:
        f.write(RUN_CASES)
    extra["bin/udev-cases"] = script
    initrd = linux_guest.initramfs(CACHE, root, extra)
    img = disk(os.path.join(CACHE, "disk.img"))
    args = ["-M", "pc", "-m", "512M", "-display", "none", "-no-reboot",
            "-chardev", "stdio,id=s,signal=off", "-serial", "chardev:s", "-monitor", "none",
            "-kernel", vmlinuz, "-initrd", initrd, "-append", "console=ttyS0 quiet",
            "-drive", "file=%s,if=none,id=vd0,format=raw" % img,
            "-device", "virtio-blk-pci,drive=vd0,serial=" + SERIAL]
    c = pexpect.spawn("qemu-system-x86_64", args, encoding="utf-8", codec_errors="replace",
                      timeout=600, maxread=65536)
    try:
        c.expect("KOBOLD-BENCH-READY")
        c.sendline("udevadm --version")
        c.expect(r"\n(\d+)\r*\n")
        version = c.match.group(1)
        c.expect("KOBOLD-BENCH-END")
        c.sendline("/bin/udev-cases")
        c.expect("KOBOLD-BENCH-END")
        outputs = parse_cases(c.before)
        c.sendline("done")
        c.expect(pexpect.EOF)
    finally:
        c.close(force=True)
    missing = [n for n, _, _ in cases.CASES if n not in outputs]
    if missing:
        raise SystemExit("udev-compare: no output from Linux for " + " ".join(missing))
    rec = {"udevadm": version, "package": "Debian 12 udev (apt-get download udev)",
           "kernel": os.path.basename(vmlinuz),
           "cases": {n: {"device": d, "output": outputs[n]} for n, d, _ in cases.CASES}}
    with open(RECORD, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    print("udev-compare: udevadm %s, %d cases recorded in %s"
          % (version, len(outputs), os.path.relpath(RECORD, ROOT)))


def main():
    if "--record" in sys.argv or not os.path.exists(RECORD):
        try:
            record_linux()
        except linux_guest.Unavailable as e:
            raise SystemExit("udev-compare: the Linux guest is unavailable: %s" % e)
    import udev_kobold  # noqa: E402
    with open(RECORD) as f:
        rec = json.load(f)
    kobold_out = udev_kobold.run_cases(os.path.join(CACHE, "kobold"))
    n = 0
    for name, dev, _ in cases.CASES:
        diff = results.differences(results.reduce(rec["cases"][name]["output"]),
                                   results.reduce(kobold_out[name]))
        kept = udev_kobold.KEPT.get(name, ())
        for field, (lin, kob) in sorted(diff.items()):
            n += 1
            print("%-24s %-6s %s%s\n    systemd %s: %r\n    Kobold:     %r"
                  % (name, dev, field, " (kept, docs/differences.md)" if field in kept else "",
                     rec["udevadm"], lin, kob))
    print("udev-compare: %d cases, %d differences" % (len(cases.CASES), n))


if __name__ == "__main__":
    main()
