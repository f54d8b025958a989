"""test_labs_compose.py: all the lab solutions together, applied in any order, give
the same files; the tree with them all (test_labs.py's shared solved tree, whose every
checker test_labs.py runs) is as .clang-format has it and passes the docs' transcripts
and the registration failslab walks; and the starters and broken solutions fail their
checkers as they should. (A file of its own, so that make test can run it beside
test_labs.py; both use the same built trees.)

make test applies the solutions in three orders: forward, backward and one
shuffled with a seed drawn per run (printed, and KOBOLD_LABS_SEED=N repeats it),
checks the transcripts a lab is known to change (marked labs=) and those of the
README and the tutorial, and walks the failslab suites whose code a lab's files
touch. `make labs-compose-all` (KOBOLD_LABS_ORDERS=all) walks every order that can
matter, checks every transcript and walks every registration walk."""
import itertools
import os
import re
import random
import shutil
import sys


from test_labs import LABS, ROOT, base, build, checker, patch, solved, workdir  # noqa: F401
import doccheck  # noqa: E402 (test_labs put scripts/ on the path)
import labtree  # noqa: E402


def solved_files(base_tree, order, dest):
    """The lab files after applying the solutions in this order to the starting tree."""
    for rel in labtree.lab_files():
        src = os.path.join(base_tree, rel)
        if os.path.exists(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    for lab in order:
        ok, out = labtree.apply(dest, patch(lab))
        assert ok, "after labs %s, labs/solutions/lab%d.patch does not apply:\n%s" % (
            list(order[:order.index(lab)]), lab, out)
    return {rel: open(os.path.join(dest, rel)).read() for rel in labtree.lab_files()
            if os.path.exists(os.path.join(dest, rel))}


ALL = os.environ.get("KOBOLD_LABS_ORDERS") == "all"
SEED = int(os.environ.get("KOBOLD_LABS_SEED") or random.randrange(1 << 32))


def bounded_orders():
    """make test's orders: forward, backward, and one shuffled with SEED."""
    shuffled = list(LABS)
    random.Random(SEED).shuffle(shuffled)
    print("labs composed in the order %s (KOBOLD_LABS_SEED=%d)" % (shuffled, SEED))
    return [tuple(LABS), tuple(LABS[::-1]), tuple(shuffled)]


def orders():
    """The orders that can matter: every order of the labs that share a file with
    another lab, with the labs whose files are their own before, between and after
    them, forwards and backwards. (Patches to disjoint files commute, so the other
    orders give the same files; all 720 orders of six labs took minutes.)"""
    files = labtree.lab_files()
    shared = sorted({lab for labs in files.values() if len(labs) > 1 for lab in labs})
    alone = [lab for lab in LABS if lab not in shared]
    for lab in alone:  # what makes the shortcut sound
        assert all(labs == [lab] for labs in files.values() if lab in labs), lab
    seen = []
    for p in itertools.permutations(shared):
        for own in (alone, alone[::-1]):
            for k in range(len(own) + 1):
                order = tuple(own[:k]) + p + tuple(own[k:])
                if order not in seen:
                    seen.append(order)
    return seen


def student_docs(block):
    """make test's transcripts on the solved tree: those a lab is known to change (labs=)
    and those a student follows beside the labs (the README's and the tutorial's)."""
    return ALL or block.labs() or os.path.basename(block.path) in ("README.md", "tutorial.md")


def test_solutions_compose_in_any_order(base, solved, workdir):
    """Every order of the lab's solutions that can matter applies and gives the same
    files; the tree with them all (built once, shared with test_labs.py, which runs every
    checker on it) has its lab files as .clang-format has them, and passes the docs'
    transcripts and the failslab walks of the registrations."""
    tree, _ = base
    results = []
    walked = orders() if ALL else bounded_orders()
    for n, order in enumerate(walked):
        results.append(solved_files(tree, order, os.path.join(workdir, "order%d" % n)))
    assert len(results) >= (2 * len(LABS) if ALL else 3), "too few orders: %d" % len(results)
    for order, r in zip(walked, results):
        assert r == results[0], "the order %s gives other files than %s (KOBOLD_LABS_SEED=%d)" % (
            list(order), list(walked[0]), SEED)
    all_tree, kernel = solved
    assert results[0] == {rel: open(os.path.join(all_tree, rel)).read() for rel in results[0]}, \
        "the shared solved tree is not the solutions applied in order"

    sources = [f for f in labtree.lab_files() if f.endswith((".c", ".h"))]
    r = labtree.sh(["make", "-s", "format-check", "FILES=" + " ".join(sources)], all_tree)
    assert r.returncode == 0, "the solutions are not as .clang-format has them:\n" + r.stdout
    blocks = [b for path in doccheck.doc_files() for b in doccheck.parse_file(path)
              if not (b.skipped() or b.for_solution() or b.for_start())]
    chains = []  # a block and the blocks that continue its boot
    for b in blocks:
        if b.continues() and chains and chains[-1][-1].path == b.path:
            chains[-1].append(b)
        else:
            chains.append([b])
    chosen = [b for chain in chains if any(student_docs(b) for b in chain) for b in chain]
    failures = doccheck.check_blocks(chosen, kernel=kernel)
    assert not failures, "with every lab solved:\n" + "\n\n".join(failures)
    # The other suites a solution can touch: the failslab walks of the registrations
    # (a lab's interface adds an allocation to every disk's). make test walks the two
    # whose code the labs' files change or hook (sbd: labs 1 to 3; virtio_blk: labs 3
    # and 11); blkstat's and virtio_console's load no lab's code, and labs-compose-all
    # walks them too. The walk over every shell command (minutes) is left out: no lab
    # adds or changes a command.
    walks = "failslab_walk and not every_command" if ALL else \
        "failslab_walk_modprobe_sbd or failslab_walk_virtio_blk_probe"
    r = labtree.sh([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    os.path.join(ROOT, "tests", "test_reliability.py"), "-k", walks], ROOT,
                   env=dict(os.environ, KOBOLD_KERNEL=kernel))
    assert r.returncode == 0, "with every lab solved, the failslab walks fail:\n" + r.stdout[-3000:]


NULL_SHOW = """\
/* blkinfo.c: a lab 3 solution with a NULL dereference in show, for the checker's test. */
#include <kobold/blkdev.h>
#include <kobold/module.h>
#include <kobold/string.h>

static ssize_t info_show(struct class_device *cd, char *buf)
{
	struct gendisk *volatile disk = NULL;

	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\\n", disk->major);
}
static CLASS_DEVICE_ATTR(info, S_IRUGO, info_show, NULL);

static int blkinfo_add(struct class_device *cd)
{
	return class_device_create_file(cd, &class_device_attr_info);
}

static void blkinfo_remove(struct class_device *cd)
{
	class_device_remove_file(cd, &class_device_attr_info);
}

static struct class_interface blkinfo_interface = {
	.class = &block_class,
	.add = blkinfo_add,
	.remove = blkinfo_remove,
};

static int blkinfo_init(void)
{
	return class_interface_register(&blkinfo_interface);
}

static void blkinfo_exit(void)
{
	class_interface_unregister(&blkinfo_interface);
}

module_init(blkinfo_init);
module_exit(blkinfo_exit);
"""


def test_checker_shows_the_oops_not_the_boot_banner(base, workdir):
    """A show() that dereferences NULL: the checklist shows the oops and where it was."""
    tree, _ = base
    broken = os.path.join(workdir, "oops")
    shutil.copytree(tree, broken, symlinks=True)
    with open(os.path.join(broken, "drivers/block/blkinfo.c"), "w") as f:
        f.write(NULL_SHOW)
    kernel = build(broken)
    r = checker(broken, 3, kernel, stop_at_fail=True)  # the first failure is the one shown
    assert r.returncode == 1, r.stdout
    failed = r.stdout.split("FAIL", 1)[1]
    first = failed.split("\n  PASS")[0].split("\n  FAIL")[0]
    assert "BUG: kernel NULL pointer dereference" in first, r.stdout
    assert "EIP: info_show+" in first, r.stdout
    assert "Kobold" not in first.split("BUG:")[0], "the boot banner came first:\n" + first
    shutil.rmtree(broken, ignore_errors=True)


def solution_without(base, workdir, lab, rel, line):
    """Lab N's checker on the starting tree with the reference solution applied, less
    one line of the file at REL (a solution with one mistake)."""
    tree, _ = base
    d = os.path.join(workdir, "lab%d-less-a-line" % lab)
    shutil.copytree(tree, d, symlinks=True)
    assert labtree.apply(d, patch(lab))[0]
    target = os.path.join(d, rel)
    with open(target) as f:
        text = f.read()
    assert line in text, "labs/solutions/lab%d.patch no longer has %r" % (lab, line)
    with open(target, "w") as f:
        f.write(text.replace(line, ""))
    r = checker(d, lab, build(d))
    shutil.rmtree(d, ignore_errors=True)
    return r


def starter_checker(base, workdir, lab, starter, dest):
    """Lab N's checker on a copy of the starting tree with the lab's starter file
    (labs/labN/STARTER) in place at DEST: the copy's path and the checker's result."""
    tree, _ = base
    d = os.path.join(workdir, "lab%d-starter" % lab)
    shutil.copytree(tree, d, symlinks=True)
    shutil.copy(os.path.join(ROOT, "labs", "lab%d" % lab, starter), os.path.join(d, dest))
    return d, checker(d, lab, build(d))


def test_lab5_starter_works_until_an_allocation_fails(base, workdir):
    """The lab 5 starter loads and unloads cleanly, and only the failslab walk catches it."""
    starter, r = starter_checker(base, workdir, 5, "kpipe.c", "drivers/misc/kpipe.c")
    assert r.returncode == 1, r.stdout
    assert "PASS  kpipe loads with nr=3" in r.stdout and "PASS  rmmod kpipe and modprobe" in r.stdout, r.stdout
    assert "FAIL  failslab over every allocation" in r.stdout, r.stdout
    assert "BUG: kmalloc:" in r.stdout, r.stdout  # the checklist shows what the kernel reported
    shutil.rmtree(starter, ignore_errors=True)


def test_lab5_a_device_left_behind_shows_the_failure_injected(base, workdir):
    """A probe whose error path forgets to unregister: the BUG/WARNING check fails, and its
    message starts at the failure failslab injected (and where), not in mid-report."""
    r = solution_without(base, workdir, 5, "drivers/misc/kpipe.c", "\tclass_device_unregister(&p->cdev);\n")
    assert r.returncode == 1 and "FAIL  no step prints BUG or WARNING" in r.stdout, r.stdout
    block = re.split(r"\n  (?:PASS|FAIL)  ", r.stdout.split("FAIL  no step prints BUG or WARNING", 1)[1])[0]
    lines = [l.strip() for l in block.strip().split("\n")]
    assert lines[1].startswith("at `failslab "), block
    assert re.search(r"FAULT_INJECTION: forcing a failure", lines[2]), block
    assert re.search(r"\bat kmalloc\(", lines[3]) or "at " in lines[3], block
    assert any(re.search(r"\bWARNING: at drivers/base/class.c", l) for l in lines[4:]), block


def test_lab6_starter_works_but_is_not_ported(base, workdir):
    """The lab 6 starter (the article's API) works and does not leak; the checks of the
    new places, the new DEVPATH and the source fail, and only those."""
    starter, r = starter_checker(base, workdir, 6, "kthermo.c", "drivers/misc/kthermo.c")
    assert r.returncode == 1, r.stdout
    for ok in ["rmmod kthermo removes", "100 rmmod/modprobe cycles", "modprobe kthermo nr=9"]:
        assert "PASS  " + ok in r.stdout, r.stdout
    assert r.stdout.count("FAIL  ") == 6, r.stdout
    assert "still uses the article's API: class_device" in r.stdout, r.stdout
    shutil.rmtree(starter, ignore_errors=True)


def test_lab7_starter_fails_and_the_pin_check_can_fail(base, workdir):
    """The lab 7 starter (a skeleton) builds with WERROR, loads and fails every check;
    the reference solution without `.owner = THIS_MODULE` fails only the pinning check."""
    variant, r = starter_checker(base, workdir, 7, "kobold.c", "drivers/char/kobold.c")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == len(labtree.load(7).CHECKS), r.stdout
    assert "No such file or directory (no character device node)" in r.stdout, r.stdout
    shutil.rmtree(variant, ignore_errors=True)

    r = solution_without(base, workdir, 7, "drivers/char/kobold.c", "\t.owner = THIS_MODULE,\n")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == 1, r.stdout
    assert "FAIL  rmmod kobold is refused while /dev/kobold is open" in r.stdout, r.stdout


def test_lab9_starter_works_but_has_no_pm(base, workdir):
    """The lab 9 starter works and does not leak: it passes the speed and leak checks
    and fails the five that look at the tree and the suspend."""
    starter, r = starter_checker(base, workdir, 9, "kfan.c", "drivers/misc/kfan.c")
    assert r.returncode == 1, r.stdout
    for ok in ["each fan's speed keeps what is written", "10 suspends and 10 rmmod/modprobe"]:
        assert "PASS  " + ok in r.stdout, r.stdout
    assert r.stdout.count("FAIL  ") == 5, r.stdout
    assert "a fan's parent is the controller" in r.stdout, r.stdout
    shutil.rmtree(starter, ignore_errors=True)


def test_lab10_a_rule_by_name_fails_only_the_slot_check(base, workdir):
    """Rules that name the disk (KERNEL=="vdc") instead of its slot give the checker's
    three-disk boot every link it wants; only the boot with slot 5's disk alone (vda)
    catches them, and that check is the one to fail."""
    tree, _ = base
    d = os.path.join(workdir, "lab10-by-name")
    shutil.copytree(tree, d, symlinks=True)
    rules = os.path.join(d, "etc", "udev", "rules.d", "70-backup.rules")
    os.makedirs(os.path.dirname(rules), exist_ok=True)
    with open(rules, "w") as f:
        f.write('SUBSYSTEM=="block", KERNEL=="vdc", SYMLINK+="backup"\n'
                'SUBSYSTEM=="block", KERNEL=="vdc[0-9]", SYMLINK+="backup%n"\n')
    r = checker(d, 10, build(d))
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == 1, r.stdout
    assert "FAIL  with slot 5's disk alone (so named vda)" in r.stdout, r.stdout
    shutil.rmtree(d, ignore_errors=True)


def test_lab11_without_the_change_event_fails_only_that_check(base, workdir):
    """The reference solution without its kobject_hotplug(KOBJ_CHANGE): the disk still
    grows and shrinks, through work, on both transports; only the event check fails."""
    r = solution_without(base, workdir, 11, "drivers/block/virtio_blk.c",
                         "\tkobject_hotplug(&vblk->disk->cdev.kobj, KOBJ_CHANGE);\n")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == 1, r.stdout
    assert "FAIL  each resize sends one change event for the disk" in r.stdout, r.stdout


def solution_with(base, workdir, lab, rel, old, new):
    """Lab N's checker on the starting tree with the reference solution applied and one
    piece of the file at REL replaced (a solution with one mistake)."""
    tree, _ = base
    d = os.path.join(workdir, "lab%d-changed" % lab)
    shutil.copytree(tree, d, symlinks=True)
    assert labtree.apply(d, patch(lab))[0]
    target = os.path.join(d, rel)
    with open(target) as f:
        text = f.read()
    assert old in text, "labs/solutions/lab%d.patch no longer has %r" % (lab, old)
    with open(target, "w") as f:
        f.write(text.replace(old, new))
    r = checker(d, lab, build(d))
    shutil.rmtree(d, ignore_errors=True)
    return r


def test_lab12_starter_and_wrong_buses_fail(base, workdir):
    """The lab 12 starter (the bus and driver registered, the TODOs empty) passes only the
    check of the bus's files; a match that matches everything fails only the match
    check; a remove that keeps its minor fails only the hidden checks (labs/hidden/lab12.py:
    the checks before it have used the 16 minors, so both fail). Three boots: a remove
    that forgets misc_deregister was tried by hand: it fails the del check."""
    starter, r = starter_checker(base, workdir, 12, "kbus.c", "drivers/misc/kbus.c")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("PASS  ") == 1 and "PASS  /sys/bus/kbus has add, del" in r.stdout, r.stdout
    assert "Function not implemented" in r.stdout, r.stdout
    shutil.rmtree(starter, ignore_errors=True)

    r = solution_with(base, workdir, 12, "drivers/misc/kbus.c",
                      "return strcmp(to_kbus_device(dev)->type, to_kbus_driver(drv)->type) == 0;",
                      "return dev && drv;")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == 1, r.stdout
    assert "FAIL  a device of another type" in r.stdout, r.stdout

    r = solution_with(base, workdir, 12, "drivers/misc/kbus.c",
                      "\tkbus_minors[misc->minor - KBUS_MINOR_BASE] = NULL;\n", "")
    assert r.returncode == 1, r.stdout
    assert r.stdout.count("FAIL  ") == 2 and r.stdout.count(" (hidden)\n") == 2, r.stdout
    assert "FAIL  20 rounds of add and del: the driver's minors are given back" in r.stdout, r.stdout
