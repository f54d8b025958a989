"""test_docs.py: every shell transcript in README.md, docs/*.md and docs/labs/*.md
(```console blocks, see scripts/doccheck.py) is run on a real boot and must print
what the doc says, so the docs cannot go stale."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import doccheck  # noqa: E402

KNOWN_OPTIONS = {"skip", "continue", "append", "solution", "start", "labs", "disk", "qemu"}


def groups():
    """Blocks checked on the starting tree, a block and the blocks that continue it."""
    out = []
    for path in doccheck.doc_files():
        for b in doccheck.parse_file(path):
            if b.skipped() or b.for_solution() or b.for_start():
                continue
            if b.continues() and out and out[-1][0].path == path:
                out[-1].append(b)
            else:
                out.append([b])
    return out


GROUPS = groups()


@pytest.mark.parametrize("group", GROUPS, ids=[g[0].name for g in GROUPS])
def test_transcript(group):
    failures = doccheck.check_blocks(group)
    assert not failures, "\n\n".join(failures)


def test_docs_have_transcripts_and_known_directives():
    names = {os.path.relpath(g[0].path, ROOT) for g in GROUPS}
    for doc in ["README.md", "docs/tutorial.md", "docs/block.md", "docs/device-model.md"]:
        assert doc in names, "%s has no checked transcript" % doc
    for path in doccheck.doc_files():
        for b in doccheck.parse_file(path):
            assert set(b.options) <= KNOWN_OPTIONS, "%s: unknown check option %s" % (b.name, b.options)
            assert b.steps, "%s: a console block with no command" % b.name
            for lab in b.labs():
                assert doccheck.lab_adds(lab), "%s: labs=%d, but lab %d lists no ADDS" % (b.name, lab, lab)


def test_matcher_accepts_placeholders_and_rejects_differences():
    m = doccheck.matches
    assert m(["[...] sbd: 1 disk of 4096 KiB, major ..."], ["[    0.05] sbd: 1 disk of 4096 KiB, major 254"])
    assert m(["a", "...", "d"], ["a", "b", "c", "d"])
    assert m(["a", "...", "d"], ["a", "d"])
    assert m(["a  "], ["a", ""])
    assert not m(["1.0"], ["1.1"])
    assert not m(["a", "d"], ["a", "b", "d"])
    assert not m(["a"], ["a", "b"])
    assert not m(["x...y"], ["x", "y"])  # an inline ... stays within its line


def test_a_lab_marker_accepts_that_labs_lines_and_nothing_else():
    """labs="1": lab 1's size_kb may appear anywhere in the output; other lines may not."""
    m, adds = doccheck.matches, doccheck.lab_adds(1)
    doc = ["-rw-r--r-- ro", "-rw-r--r-- uevent", "-r--r--r-- version"]
    solved = ["-rw-r--r-- ro", "-r--r--r-- size_kb", "-rw-r--r-- uevent", "-r--r--r-- version"]
    assert m(doc, solved, adds)
    assert not m(doc, solved)  # without the marker the solved tree fails
    assert not m(doc, solved[:1] + ["-r--r--r-- sizes"] + solved[2:], adds)
    assert not m(doc, solved[1:], adds)  # a line the doc shows is still required
    tree = ["`-- sbd0", "    |-- ro", "    `-- version", "", "1 directory, 2 files"]
    assert m(tree, tree[:2] + ["    |-- size_kb"] + tree[2:4] + ["1 directory, 3 files"], adds)
    assert not m(tree, tree[:4] + ["1 directory, 3 files"])


def test_a_wrong_transcript_fails(tmp_path):
    doc = tmp_path / "wrong.md"
    doc.write_text("```console\nkobold:/# cat /sys/class/sbd/sbd0/version\n9.9\n```\n"
                   "```console\nkobold:/sys# ls\n```\n")
    failures = doccheck.check_blocks(doccheck.parse_file(str(doc)))
    assert len(failures) == 2
    assert "+1.0" in failures[0] and "-9.9" in failures[0], failures[0]
    assert "the prompt shows /sys but the shell is in /" in failures[1], failures[1]


def test_graph_of_a_real_boot(tmp_path):
    """make graph's drawing: the right kinds of node from a real `tree /sys`, rendered by dot."""
    import importlib.util
    import shutil
    import subprocess
    spec = importlib.util.spec_from_file_location("sysfs_graph", os.path.join(ROOT, "scripts", "sysfs-graph.py"))
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    g = graph.Graph(*graph.parse_tree(graph.tree_from_kernel())).build()
    kinds = {p: k for p, (k, _) in g.nodes.items()}
    assert kinds.get("/sys/class/sbd") == "class", kinds
    assert kinds.get("/sys/class/sbd/sbd0") == "classdev", kinds
    assert kinds.get("/sys/class/block/sbd0") == "classdev", kinds
    assert kinds.get("/sys/bus/pci") == "bus", kinds
    assert kinds.get("/sys/devices/pci0000:00") == "device", kinds
    assert ("/sys/class/sbd", "/sys/class/sbd/sbd0", "", "solid") in g.edges
    assert ("/sys/devices/pci0000:00", "/sys/devices/pci0000:00/0000:00:00.0", "", "solid") in g.edges
    assert not any(k == "device" and p.endswith("/uevent") for p, k in kinds.items())
    assert kinds.get("/sys/bus/platform") == "bus" and kinds.get("/sys/bus/serio") == "bus", kinds
    assert kinds.get("/sys/devices/platform/i8042/serio0") == "device", kinds
    assert "/sys/devices/platform/i8042/serio0/id" not in kinds	# an attribute group
    assert ("/sys/devices/platform/i8042", "/sys/devices/platform/i8042/serio0", "", "solid") in g.edges
    # the newer API: a class's link to its member device; no node for the <class> glue directory
    assert kinds.get("/sys/devices/virtual/vtconsole/vtcon0") == "device", kinds
    assert "/sys/devices/virtual/vtconsole" not in kinds, kinds
    assert ("/sys/class/vtconsole", "/sys/devices/virtual/vtconsole/vtcon0", "member", "dashed") in g.edges
    assert ("/sys/devices/virtual", "/sys/devices/virtual/vtconsole/vtcon0", "", "solid") in g.edges
    dot = tmp_path / "g.dot"
    dot.write_text(g.dot())
    assert shutil.which("dot"), "Graphviz is missing: sudo apt-get install graphviz"
    subprocess.run(["dot", "-Tsvg", "-o", str(tmp_path / "g.svg"), str(dot)], check=True)
    assert "<svg" in (tmp_path / "g.svg").read_text()


# Version claims once stated wrongly in the docs or comments, each with the
# release that shows the right one (checked in the 2.6 history).
STALE_VERSION_CLAIMS = [
    (r"2\.6\.0-2\.6\.22's `subsys->rwsem`", "struct subsystem went in 2.6.22 (823bccfc400); list_lock from 2.6.12"),
    (r"2\.6\.23 turned it\s+(\*\s+)?into the kset's list_lock", "the kset's list_lock came in 2.6.12 (f2b2462eac)"),
    (r"2\.6\.16's `module_mutex`|as 2\.6\.16's\s+(\*\s+)?\(a semaphore, DECLARE_MUTEX", "2.6.16 still had DECLARE_MUTEX(module_mutex); 2.6.17 a mutex"),
    (r"`tty_mutex` from 2\.6\.16", "tty_sem was a semaphore in 2.6.16; tty_mutex came in 2.6.17"),
    (r"`kthread_create_on_cpu` came in 3\.6|3\.6's kthread_create_on_cpu", "3.6.5 has no kthread_create_on_cpu; 3.7.2 has it"),
    (r"2\.6\.14's class_device\.parent", "class_device.parent came in 2.6.15 (51d172d5f3a)"),
    (r"2\.6\.11-2\.6\.34's dev->sem", "struct device's sem came in 2.6.13 (af70316af18)"),
    (r"devtmpfs kernels \(2\.6\.3x\)", "DEVNAME in every device's events from 2.6.31 (6fcf53acccf)"),
    (r"\"requests\" alone \(2\.6\.24", "virtio-blk named its queue \"requests\" from 2.6.31"),
    (r"fixed 10-second threshold in 2\.6\.18-2\.6\.20", "10 s was fixed from 2.6.14 to 2.6.23; a sysctl from 2.6.24"),
    (r"until 2\.6\.26 made it a spinlock again\)", "2.6.25 made the BKL always a semaphore (6478d8800b7)"),
    (r"as 2\.6\.24 and later did, where\s+2\.6\.20's was still write-only", "a device's uevent: readable 2.6.22, action names 2.6.23"),
    (r"2\.6\.21-2\.6\.33 released them in device_del", "devres stayed in device_del through 3.6"),
    (r"lazily in `__switch_to` \(2\.6\.20 on\)", "2.6.20 used %gs in the kernel; %fs from 2.6.21 (464d1a78fbf)"),
    (r"`_RO/_RW/_WO`: 3\.11", "DEVICE_ATTR_WO came in 3.12 (1130c55c757)"),
    (r"4 KiB with `CONFIG_4KSTACKS`\)", "CONFIG_4KSTACKS came in 2.6.6, not 2.6.0"),
]


def test_corrected_version_claims_stay_corrected():
    import re
    import subprocess
    files = subprocess.run(["git", "ls-files", "docs", "*.c", "*.h", "README.md"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in files:
        with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for pattern, right in STALE_VERSION_CLAIMS:
            if re.search(pattern, text):
                found.append(f"{name}: /{pattern}/: {right}")
    assert not found, "\n".join(found)
