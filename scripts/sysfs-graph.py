#!/usr/bin/env python3
"""sysfs-graph.py: a picture of Kobold's device model, as `make graph` draws it.

Boots the kernel the way `make run` does, runs the shell's `tree /sys`, and
turns what it prints into a Graphviz graph: classes and their class devices,
devices (by parent), buses and their drivers, and the sysfs links between
them (`device`, `driver`, and the bus's lists). A class member of the newer
API is a device (in /sys/devices) that its class's directory links to: a
dashed "member" edge. The <class> directories that group such devices
under a parent (/sys/devices/virtual/<class>) are no devices: their
children hang from the nearest device above. Attributes are left out.

usage: sysfs-graph.py OUT   writes OUT.dot, OUT.svg and OUT.png
       sysfs-graph.py --dot-from TREE_FILE OUT   (no boot: a saved `tree /sys`)
"""
import os
import posixpath
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

TREE_LINE = re.compile(r"^((?:\|   |    )*)(?:\|-- |`-- )(.*)$")


def parse_tree(text, top="/sys"):
    """{path: link target or None} and the set of paths that have children."""
    entries, parents, stack = {}, set(), [top]
    for line in text.split("\n"):
        m = TREE_LINE.match(line.rstrip())
        if not m:
            continue
        depth = len(m.group(1)) // 4
        name, _, target = m.group(2).partition(" -> ")
        del stack[depth + 1:]
        path = posixpath.join(stack[depth], name)
        parents.add(stack[depth])
        entries[path] = target or None
        stack.append(path)
    return entries, parents


def resolve(path, target):
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), target))


class Graph:
    def __init__(self, entries, parents):
        self.entries, self.parents = entries, parents
        self.nodes = {}  # path -> (kind, label)
        self.edges = []  # (from, to, label, style)

    def is_dir(self, p):
        return p in self.parents and self.entries.get(p) is None

    def children(self, p):
        return sorted(c for c in self.entries if posixpath.dirname(c) == p)

    def build(self):
        for cls in self.children("/sys/class"):
            self.nodes[cls] = ("class", posixpath.basename(cls))
            for cd in self.children(cls):
                if self.is_dir(cd):
                    self.nodes[cd] = ("classdev", posixpath.basename(cd))
                    self.edges.append((cls, cd, "", "solid"))
                elif self.entries[cd]:  # a struct device member: a link into /sys/devices
                    self.edges.append((cls, resolve(cd, self.entries[cd]), "member", "dashed"))
        self.devices("/sys/devices", None)
        for bus in self.children("/sys/bus"):
            self.nodes[bus] = ("bus", posixpath.basename(bus))
            for drv in self.children(bus + "/drivers"):
                self.nodes[drv] = ("driver", posixpath.basename(drv))
                self.edges.append((bus, drv, "", "solid"))
            for link in self.children(bus + "/devices"):
                if self.entries[link]:
                    self.edges.append((bus, resolve(link, self.entries[link]), "", "dotted"))
        for path, target in sorted(self.entries.items()):
            name = posixpath.basename(path)
            owner = posixpath.dirname(path)
            if target and name in ("device", "driver") and owner in self.nodes:
                self.edges.append((owner, resolve(path, target), name, "dashed"))
        self.edges = [e for e in self.edges if e[0] in self.nodes and e[1] in self.nodes]
        return self

    def is_glue(self, p):
        """/sys/devices/virtual/<class> or a <class> directory under a device:
        a directory with no uevent file whose children have one."""
        kids = self.children(p)
        return (p + "/uevent" not in self.entries and kids and
                all(self.is_dir(k) and k + "/uevent" in self.entries for k in kids))

    def devices(self, d, parent):
        for c in self.children(d):
            if not self.is_dir(c):
                continue
            if parent and self.is_glue(c):
                self.devices(c, parent)
                continue
            if c + "/uevent" not in self.entries and not any(map(self.is_dir, self.children(c))):
                continue  # an attribute group (serio's id/), not a device
            self.nodes[c] = ("device", posixpath.basename(c))
            if parent:
                self.edges.append((parent, c, "", "solid"))
            self.devices(c, c)

    STYLE = {
        "class": 'shape=folder, style=filled, fillcolor="#fde68a"',
        "classdev": 'shape=box, style="rounded,filled", fillcolor="#fef3c7"',
        "device": 'shape=box, style=filled, fillcolor="#dbeafe"',
        "bus": 'shape=folder, style=filled, fillcolor="#bbf7d0"',
        "driver": 'shape=component, style=filled, fillcolor="#dcfce7"',
    }
    CLUSTERS = [("classes", "/sys/class", ("class", "classdev")),
                ("devices", "/sys/devices", ("device",)),
                ("buses", "/sys/bus", ("bus", "driver"))]

    def dot(self):
        ids = {p: "n%d" % i for i, p in enumerate(sorted(self.nodes))}
        out = ["digraph kobold_device_model {",
               '  graph [rankdir=LR, fontname="Helvetica", label="Kobold: /sys as the device model '
               'sees it (make graph)", labelloc=t, fontsize=18];',
               '  node [fontname="Helvetica", fontsize=11];',
               '  edge [fontname="Helvetica", fontsize=9, color="#555555"];']
        for name, top, kinds in self.CLUSTERS:
            out.append('  subgraph cluster_%s { label="%s"; style=rounded; color="#999999";' % (name, top))
            for p in sorted(self.nodes):
                kind, label = self.nodes[p]
                if kind in kinds:
                    out.append('    %s [label="%s", tooltip="%s", %s];' % (ids[p], label, p, self.STYLE[kind]))
            out.append("  }")
        for a, b, label, style in self.edges:
            attrs = ["style=%s" % style]
            if label:
                attrs.append('label="%s"' % label)
            if style != "solid":
                attrs.append("constraint=false")
            out.append("  %s -> %s [%s];" % (ids[a], ids[b], ", ".join(attrs)))
        out.append("}")
        return "\n".join(out) + "\n"


def tree_from_kernel():
    import doccheck
    k = doccheck.boot_like_make_run()
    try:
        return k.run("tree /sys", timeout=60)
    finally:
        doccheck.shutdown(k)


def main(argv):
    if len(argv) == 4 and argv[1] == "--dot-from":
        with open(argv[2]) as f:
            text, out = f.read(), argv[3]
    elif len(argv) == 2:
        text, out = tree_from_kernel(), argv[1]
    else:
        sys.stderr.write(__doc__)
        return 2
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    g = Graph(*parse_tree(text)).build()
    with open(out + ".tree", "w") as f:
        f.write(text)
    with open(out + ".dot", "w") as f:
        f.write(g.dot())
    for fmt in ("svg", "png"):
        r = subprocess.run(["dot", "-T" + fmt, "-o", "%s.%s" % (out, fmt), out + ".dot"])
        if r.returncode:
            return r.returncode
    kinds = [k for k, _ in g.nodes.values()]
    print("%s: %d classes, %d class devices, %d devices, %d buses, %d drivers, %d edges" % (
        out, kinds.count("class"), kinds.count("classdev"), kinds.count("device"),
        kinds.count("bus"), kinds.count("driver"), len(g.edges)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
