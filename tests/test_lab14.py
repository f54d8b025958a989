"""test_lab14.py: lab 14 (QEMU's edu device): the device as the kernel shows it without
the lab's driver, and the checker failing the starter and wrong drivers, each at the
check its mistake breaks and with a message that names it. (test_labs.py runs the
checker on the starting tree and on the reference solution, labs/solutions/lab14.patch.)
Wrong drivers, each with mistakes that break different checks, so that each costs one
build and one boot."""
import os
import re
import shutil

import pytest

import kobold
from test_labs import ROOT, base, build, checker, patch, workdir  # noqa: F401
import labtree  # noqa: E402 (test_labs put scripts/ on the path)

EDU = "drivers/misc/edu.c"


def variant(base, workdir, name, text):
    """The starting tree with drivers/misc/edu.c as text, built: (tree, kernel)."""
    tree, _ = base
    d = os.path.join(workdir, name)
    shutil.copytree(tree, d, symlinks=True)
    with open(os.path.join(d, EDU), "w") as f:
        f.write(text)
    return d, build(d)


def solution():
    return labtree.solved_lab_files([patch(14)])[EDU].decode()


def wrong(changes):
    """The reference solution with each (old, new) replaced once; old must be there."""
    text = solution()
    for old, new in changes:
        assert old in text, "labs/solutions/lab14.patch no longer has %r" % old
        text = text.replace(old, new, 1)
    return text


def failed(out, hidden=False):
    """The checks that failed: the checker's own, or labs/hidden/lab14.py's."""
    return [l.split("FAIL  ", 1)[1] for l in out.split("\n")
            if "FAIL  " in l and l.endswith("(hidden)") == hidden]


def test_the_edu_device_without_its_driver(base, monkeypatch):
    """-device edu on the starting tree: lspci and /sys/bus/pci show vendor 1234, device
    11e8, class 00ff, BAR0 of 1 MiB in /proc/iomem, its INTx IRQ, and no driver bound."""
    tree, kernel = base
    monkeypatch.setattr(kobold, "KERNEL", kernel)  # not the working tree's: lab 14 may be solved there
    k = kobold.boot("", qemu_args=["-device", "edu"])
    try:
        m = re.search(r"^00:(\d\d)\.0 00ff: 1234:11e8 \(rev 10\)$", k.run("lspci"), re.M)
        assert m, k.run("lspci")
        d = "/sys/bus/pci/devices/0000:00:%s.0" % m.group(1)
        assert k.run("cat %s/vendor %s/device %s/class" % (d, d, d)).split() == ["0x1234", "0x11e8", "0x00ff00"]
        bar = k.run("cat %s/resource" % d).split()
        start, end = int(bar[0], 16), int(bar[1], 16)
        assert end - start + 1 == 1 << 20 and int(bar[2], 16) & 0x200, bar  # 1 MiB of memory
        assert re.search(r"^%08x-%08x : 0000:00:%s\.0$" % (start, end, m.group(1)), k.run("cat /proc/iomem"), re.M)
        irq = k.run("cat %s/irq" % d).strip()
        assert irq.isdigit() and 0 < int(irq) < 16, irq
        assert "No such file" in k.run("readlink %s/driver" % d) or not k.run("readlink %s/driver" % d).strip()
        assert "edu" not in k.run("cat /proc/interrupts")
    finally:
        k.close()


def test_lab14_starter_fails_at_probe(base, workdir):
    """The starter builds with WERROR and loads; its probe (a TODO) binds nothing."""
    with open(os.path.join(ROOT, "labs", "lab14", "edu.c")) as f:
        d, kernel = variant(base, workdir, "lab14-starter", f.read())
    r = checker(d, 14, kernel, stop_at_fail=True)
    assert r.returncode == 1, r.stdout
    assert failed(r.stdout)[0].startswith("edu binds to the device"), r.stdout
    assert "the driver did not bind" in r.stdout and re.search(r"^0 of \d+ checks pass", r.stdout, re.M), r.stdout
    shutil.rmtree(d, ignore_errors=True)


NOT_RUN = ["the handler acknowledges", "DMA to the device", "no BUG", "rmmod edu frees all"]

WRONG = {
    # The handler never acknowledges; the DMA to the device runs the other way; remove
    # leaves BAR0 mapped.
    "no-ack-direction-iounmap": ([
        ("\twritel(status, e->regs + EDU_IRQ_ACK);\n", ""),
        ("(to_ram ? EDU_DMA_TO_RAM : 0)", "EDU_DMA_TO_RAM"),
        ("static void edu_unmap(struct edu *e, struct pci_dev *pdev)\n{\n\tiounmap(e->regs);\n",
         "static void edu_unmap(struct edu *e, struct pci_dev *pdev)\n{\n"),
    ], ["the handler acknowledges", "DMA to the device", "rmmod edu frees all"],
        ["reads 0x1 after a factorial", "QEMU stopped the machine: EDU: DMA range",
         "after rmmod edu (iounmap)"]),
    # The factorial read at once (no wait); a DMA a quarter as long as asked; remove keeps
    # the IRQ and MSI.
    "early-read-length-msi": ([
        ("\twait_for_completion(&e->fact_done);\n\te->result = e->fact;",
         "\te->result = readl(e->regs + EDU_FACT);"),
        ("\twritel(len, e->regs + EDU_DMA_COUNT);", "\twritel(len / 4, e->regs + EDU_DMA_COUNT);"),
        ("\tmisc_deregister(&edu_misc);\n\tfree_irq((int)pdev->irq, e);\n\tpci_disable_msi(pdev);\n",
         "\tmisc_deregister(&edu_misc);\n"),
    ], ["writing n to /dev/edu", "DMA to the device", "rmmod edu frees all"],
        # edu's factorial thread may beat the early read (QEMU's vCPU slowed by a loaded
        # host): the values come out right and the missing work item is what fails it.
        [("read before the device was done?", "123 factorials ran no work item 123 times"),
         "FAIL dma_round_trip",
         "/proc/interrupts still has edu's line after rmmod edu (free_irq)"]),
    # No bottom half: the handler reads the factorial and completes the wait itself, and
    # the work item never runs; remove keeps the regions; the file operations have no
    # .owner (a hidden check's).
    "no-work-regions-owner": ([
        ("\tspin_lock(&e->irq_lock);\n\te->pending |= status;\n\tspin_unlock(&e->irq_lock);\n"
         "\tschedule_work(&e->work);\n",
         "\tif (status & EDU_IRQ_FACT) {\n\t\te->fact = readl(e->regs + EDU_FACT);\n\t\tcomplete(&e->fact_done);\n"
         "\t}\n\tif (status & EDU_IRQ_DMA)\n\t\tcomplete(&e->dma_done);\n"),
        ("\tiounmap(e->regs);\n\tpci_release_regions(pdev);\n}\n", "\tiounmap(e->regs);\n}\n"),
        ("\t.owner = THIS_MODULE,\n", ""),
    ], ["writing n to /dev/edu", "rmmod edu frees all"],
        ["123 factorials ran no work item 123 times",
         "/proc/iomem still shows the edu region after rmmod edu (pci_release_regions)",
         "rmmod edu with /dev/edu open: expected 'rmmod: ERROR: Module edu is in use'"]),
    # No MSI (INTx, a level line) and a handler that tests the wrong bit, so it never
    # acknowledges and always says IRQ_NONE: an interrupt storm, which the kernel survives
    # by masking the line (2.6's "nobody cared"), and the factorial never completes.
    "intx-storm": ([
        ("\terr = pci_enable_msi(pdev);\n\tif (err)\n\t\tgoto out_free;\n", ""),
        ("out_msi:\n\tpci_disable_msi(pdev);\nout_free:\n", "out_msi:\n"),
        ("\tif (!status)\n\t\treturn IRQ_NONE;", "\tif (!(status & EDU_STATUS_IRQFACT))\n\t\treturn IRQ_NONE;"),
    ], ["the interrupt is an MSI", "writing n to /dev/edu"] + NOT_RUN,
        ["expected 'PCI-MSI', got 'IO-APIC-level'", "nobody cared", "Disabling IRQ #"]),
    # The handler sleeps: the first factorial hangs the kernel or oopses, and the checks
    # after it that need the device are not run (not a boot and a wait each).
    "sleeps": ([
        ("\tschedule_work(&e->work);\n\treturn IRQ_HANDLED;", "\tschedule_work(&e->work);\n\tmsleep(1);\n\treturn IRQ_HANDLED;"),
        ("#include <kobold/printk.h>\n", "#include <kobold/printk.h>\n#include <kobold/sched.h>\n"),
    ], ["writing n to /dev/edu"] + NOT_RUN,
        ["BUG: sleeping function called from invalid context", "edu_irq+",
         "not run: a factorial hung or oopsed in an earlier check"]),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_lab14_checker_fails_a_wrong_driver(base, workdir, name):
    changes, checks, messages = WRONG[name]
    d, kernel = variant(base, workdir, "lab14-" + name, wrong(changes))
    r = checker(d, 14, kernel)
    assert r.returncode == 1, r.stdout
    got = failed(r.stdout)
    assert len(got) == len(checks) and all(g.startswith(c) for g, c in zip(got, checks)), r.stdout
    if name.endswith("owner"):
        assert [h.split(",")[0] for h in failed(r.stdout, hidden=True)] == ["rmmod edu is refused while the shell "
                                                                          "holds /dev/edu open"], r.stdout
    for m in messages:  # a tuple: either diagnosis, where the wrong driver's symptom races
        assert any(alt in r.stdout for alt in (m if isinstance(m, tuple) else (m,))), \
            "%r not in:\n%s" % (m, r.stdout)
    shutil.rmtree(d, ignore_errors=True)
