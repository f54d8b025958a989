#!/usr/bin/env python3
"""Lab 14 checker: a PCI driver for QEMU's edu device, with MSI, a bottom half and DMA
(docs/labs/lab14-edu.md). One boot with `-device edu`, QEMU's monitor (to read the
device's registers as the device sees them) and user/edutest.c in an initramfs."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import labuser  # noqa: E402
from labcheck import OOPS, expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="14" -->.
FILES = ["drivers/misc/edu.c"]
ADDS = [r"edu( +\d+ +\d+)?", r"\[ *\d+\.\d+\] edu 0000:00:0\d\.0: version 1\.0"]

DEV = "/dev/edu"
EDU_IRQ_STATUS = 0x24
PROGRAM = "edutest"
PROGRAMS = [PROGRAM]  # the course's programs the checks run (grade-class builds them once per class)


def machine(s):
    """The kernel the checks share: booted once with the edu device, the monitor and
    edutest; again after a failed check. Each check leaves edu loaded. Once a factorial
    has hung (ready), the checks that need the device fail at once: a boot and a wait
    each would only show the same hang again."""
    if s.k is None or not s.k.monitor_path:
        s.boot(qemu_args=["-device", "edu", "-initrd", labuser.initrd({PROGRAM: labuser.build(PROGRAM)})],
               monitor=True)
    return s


def function(s):
    """The edu function's sysfs name (0000:00:SS.0), from lspci's 1234:11e8."""
    m = re.search(r"^(\S+) 00ff: 1234:11e8", s.run("lspci"), re.M)
    expect(m, "lspci does not list the edu device (1234:11e8)")
    return "0000:" + m.group(1)


def sysdir(s):
    return "/sys/bus/pci/devices/" + function(s)


def edu_irq_line(s):
    """The /proc/interrupts line of the handler named edu: (irq, count, type), or None."""
    m = re.search(r"^ *(\d+): +(\d+) +(\S+) +edu$", s.run("cat /proc/interrupts"), re.M)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else None


def irq_count(s):
    line = edu_irq_line(s)
    expect(line, "cat /proc/interrupts has no line for a handler named edu:\n%s"
           % s.run("cat /proc/interrupts"))
    return line[1]


def work_runs(s):
    """The runs of each work function since boot, from ps's work statistics: {name: runs}."""
    out = s.run("ps")
    expect("run since boot" in out, "ps printed no work statistics:\n%s" % out)
    rows = re.findall(r"^ *(\d+) (\S+)(?: \(and others\))?$", out.split("run since boot", 1)[1], re.M)
    return {name: int(runs) for runs, name in rows}


def irq_status(s):
    """edu's interrupt status register, read through QEMU's monitor (xp: as the CPU would)."""
    res = s.text("cat %s/resource" % sysdir(s)).split()
    bar0 = int(res[0], 16)
    out = s.k.monitor("xp /1wx %#x" % (bar0 + EDU_IRQ_STATUS))
    m = re.search(r":\s*(0x[0-9a-f]+)", out)
    expect(m, "QEMU's monitor did not read edu's interrupt status register: %r" % out)
    return int(m.group(1), 16)


def node(s):
    """Fails the check unless /dev/edu is the driver's char node (a write to a missing
    node would make a plain file of that name)."""
    out = s.text("ls -l " + DEV)
    expect(re.fullmatch(r"c[-rw]{9} +10, +241 /dev/edu", out),
           "ls -l %s printed: %s (the driver did not bind?)" % (DEV, out))


def ready(s):
    """The driver bound and answering: /dev/edu, and one factorial within 5 s."""
    expect(not getattr(s, "edu_hung", False), "not run: a factorial hung or oopsed in an earlier check (see it)")
    machine(s)
    node(s)
    try:
        out = s.k.run("echo 1 > %s; cat %s" % (DEV, DEV), timeout=5)
    except AssertionError as e:
        s.edu_hung = True
        transcript = str(e).split("\n", 1)[1] if "\n" in str(e) else ""
        raise AssertionError("timed out waiting for echo 1 > %s (5 s): a handler that sleeps or never "
                             "finishes, or a wait for an interrupt never handled?\n%s" % (DEV, transcript))
    s.dirty = True
    if any(OOPS.match(l) for l in out.split("\n")):
        s.edu_hung = True
        raise AssertionError("echo 1 > %s; cat %s printed:\n%s" % (DEV, DEV, out.strip()))
    expect_eq(out.strip(), "1", "echo 1 > %s; cat %s" % (DEV, DEV))
    return s


def passes(s, *tests):
    """edutest's tests; QEMU 7.2's edu stops the whole machine on a DMA outside its
    buffer (hw_error), which is said in words rather than by QEMU's register dump."""
    try:
        labuser.passes(machine(s), PROGRAM, *tests)
    except AssertionError as e:
        m = re.search(r"hardware error: (EDU: DMA range [^\n]*)", str(e))
        if not m:
            raise
        raise AssertionError("QEMU stopped the machine: %s: the device's side of a DMA must lie in its "
                             "buffer (0x40000 + offset, len bytes): source and destination swapped, the "
                             "wrong direction bit, or the wrong count?" % m.group(1))


def dmesg_clean(s, what):
    bad = [l for l in s.lines("dmesg") if OOPS.match(l) or "nobody cared" in l]
    expect(not bad, "%s: the kernel reported:\n%s" % (what, "\n".join(bad[:8])))


def probed(s):
    """edu binds to the device: /dev/edu (10:241), BAR0 claimed as edu in /proc/iomem, the version logged"""
    machine(s)
    expect("edu" in s.text("lsmod").split(), "lsmod does not list edu")
    link = s.text("readlink %s/driver" % sysdir(s))
    expect(link.endswith("/edu"), "%s/driver is %r: the driver did not bind (dmesg: %s)"
           % (sysdir(s), link, " / ".join(l for l in s.lines("dmesg") if re.search(r"\bedu\b", l))[-300:] or "nothing of edu"))
    node(s)
    expect(re.search(r"^  [0-9a-f]+-[0-9a-f]+ : edu$", s.run("cat /proc/iomem"), re.M),
           "/proc/iomem shows no region named edu below the device's BAR (pci_request_regions):\n%s"
           % s.run("cat /proc/iomem"))
    expect(re.search(r"edu %s: version 1\.0" % function(s)[5:], s.run("dmesg")) or
           re.search(r"edu 0000:00:0\d\.0: version 1\.0", s.run("dmesg")),
           "dmesg has no line 'edu %s: version 1.0' (the identification register's)" % function(s))


def msi(s):
    """the interrupt is an MSI: /proc/interrupts shows edu as PCI-MSI, and the function's irq file shows that IRQ"""
    machine(s)
    line = edu_irq_line(s)
    expect(line, "cat /proc/interrupts has no line for a handler named edu:\n%s" % s.run("cat /proc/interrupts"))
    expect_eq(line[2], "PCI-MSI", "the type of edu's line in /proc/interrupts")
    expect_eq(s.text("cat %s/irq" % sysdir(s)), str(line[0]), "cat %s/irq (pdev->irq while MSI is on)" % sysdir(s))


msi.points = 2


def factorials(s):
    """writing n to /dev/edu and reading it gives n! for 0 to 12 (and 110 more), each by an interrupt and its work item; bad numbers get EINVAL"""
    ready(s)
    before, runs = irq_count(s), work_runs(s)
    passes(s, "factorials", "fact_bad_input")
    after = irq_count(s)
    expect(after - before >= 123, "123 factorials raised %d interrupts on edu's line: set the status "
           "register's raise-interrupt bit (0x80) and wait for the interrupt" % (after - before))
    ran = {name: n - runs.get(name, 0) for name, n in work_runs(s).items() if n > runs.get(name, 0)}
    expect(any(n >= 123 for n in ran.values()), "123 factorials ran no work item 123 times (ps's work "
           "statistics, the runs meanwhile: %s): the handler acknowledges and schedules the work item, "
           "which reads the factorial and completes the wait" % (", ".join(
               "%s %d" % kv for kv in sorted(ran.items())) or "none"))


factorials.points = 3


def acknowledged(s):
    """the handler acknowledges each interrupt: edu's interrupt status register reads 0 afterwards"""
    ready(s)
    s.run("echo 7 > " + DEV)
    status = irq_status(s)
    expect(status == 0, "edu's interrupt status register (0x24) reads %#x after a factorial: the "
           "handler must write the bits it read to the acknowledge register (0x64)" % status)


acknowledged.points = 2


def dma(s):
    """DMA to the device's buffer and back: 4095 bytes, 100 at an offset, 20 read at an offset; bad requests refused"""
    ready(s)
    before = irq_count(s)
    passes(s, "dma_round_trip", "dma_bad_requests")
    after = irq_count(s)
    expect(after - before >= 5, "5 DMAs raised %d interrupts: set the command's interrupt bit (0x4) "
           "and wait for it" % (after - before))
    expect_eq(irq_status(s), 0, "edu's interrupt status register after the DMAs")


dma.points = 3


def no_bug(s):
    """no BUG, WARNING or "nobody cared" in dmesg (a handler that sleeps: scheduling while atomic)"""
    ready(s)
    s.run("echo 3 > %s; cat %s" % (DEV, DEV))
    dmesg_clean(s, "dmesg after factorials and DMAs")


no_bug.points = 2


def unload_reload(s):
    """rmmod edu frees all (node, IRQ, MSI, mapping, region); modprobe edu works again, 5 times, nothing leaked"""
    ready(s)
    d = sysdir(s)
    phys = "phys=%x " % int(s.text("cat %s/resource" % d).split()[0], 16)
    s.run("echo 4 > " + DEV)
    before = s.snapshot()
    for i in range(5):
        expect_eq(s.text("rmmod edu"), "", "rmmod edu")
        expect(DEV[5:] not in s.ls("/dev"), "/dev/edu is still there after rmmod edu")
        expect(edu_irq_line(s) is None, "/proc/interrupts still has edu's line after rmmod edu (free_irq)")
        irq = s.text("cat %s/irq" % d)
        expect(irq.isdigit() and int(irq) < 16, "cat %s/irq after rmmod edu is %s, not the pin's IRQ: "
               "pci_disable_msi gives it back" % (d, irq))
        expect(" : edu" not in s.run("cat /proc/iomem"),
               "/proc/iomem still shows the edu region after rmmod edu (pci_release_regions)")
        expect(phys not in s.run("cat /proc/vmallocinfo"), "/proc/vmallocinfo still maps BAR0 (%s) "
               "after rmmod edu (iounmap)" % phys.strip())
        out = s.text("modprobe edu")
        expect(DEV[5:] in s.ls("/dev"), "after rmmod edu and modprobe edu (round %d) there is no %s; "
               "modprobe and dmesg said:\n%s\n%s" % (i + 1, DEV, out,
                                                    "\n".join([l for l in s.lines("dmesg") if "edu" in l or "PCI" in l][-4:])))
    passes(s, "factorials")
    dmesg_clean(s, "dmesg after 5 rmmod/modprobe cycles")
    expect_same(before, s.snapshot())


unload_reload.points = 3


CHECKS = [probed, msi, factorials, acknowledged, dma, no_bug, unload_reload]

if __name__ == "__main__":
    sys.exit(run("Lab 14: a PCI driver for QEMU's edu device", CHECKS))
