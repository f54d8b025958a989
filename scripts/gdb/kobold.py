# kobold.py: gdb helpers for Kobold's device model, in the manner of Linux's
# scripts/gdb (lx-...): they read kernel memory only, never call the kernel,
# so they work at any stop, even inside a half-done registration.
#
#   kobold-classes              classes, their class devices and struct device members
#   kobold-sysfs [PATH]         the sysfs tree from memory, as the shell's `tree`
#   kobold-kobject EXPR|PATH    one kobject: path, refcount, state, parent, release
#   kobold-kobjects             every live kobject, as the shell's `kobjects`
#   kobold-uevents [-p]         the event journal, as `udevadm monitor --journal [-p]`
#   $kobold_class_device("sbd0" [, "sbd"])   a struct class_device *
#   $kobold_kobject("/sys/class/sbd/sbd0")   a struct kobject *
#   $container_of(ptr, "struct class_device", "kobj")
#
# Each command has a short alias: kb-classes, kb-sysfs, ...
# Loaded by `make gdb`; by hand: (gdb) source scripts/gdb/kobold.py
import gdb

# ---- reading kernel memory ------------------------------------------------

_types = {}
# Another kernel file (gdb's `file`) may lay the structures out differently.
gdb.events.new_objfile.connect(lambda event: _types.clear())


def lookup_type(name):
    """A struct type with its fields (not the opaque declaration some files see)."""
    if name not in _types:
        try:
            t = gdb.lookup_type(name)
        except gdb.error:
            t = None
        if t is None or not t.strip_typedefs().fields():
            raise gdb.GdbError("no debug information for %s: is this the Kobold kernel?" % name)
        _types[name] = t
    return _types[name]


def offset_of(typename, member):
    """Byte offset of member ("subsys.kobj" allowed) in typename."""
    t = lookup_type(typename)
    off = 0
    for part in member.split("."):
        for f in t.strip_typedefs().fields():
            if f.name == part:
                off += f.bitpos // 8
                t = f.type
                break
        else:
            raise gdb.GdbError("%s has no member %s" % (typename, member))
    return off


def container_of(ptr, typename, member):
    """The typename * that holds ptr at member."""
    addr = int(ptr.cast(gdb.lookup_type("unsigned long"))) - offset_of(typename, member)
    return gdb.Value(addr).cast(lookup_type(typename).pointer())


def list_for_each_entry(head, typename, member):
    """Entries of a struct list_head (a value, not a pointer), in list order."""
    head_addr = int(head.address)
    node = head["next"]
    seen = 0
    while int(node) != head_addr:
        yield container_of(node, typename, member)
        node = node["next"]
        seen += 1
        if seen > 1000000:
            raise gdb.GdbError("list at 0x%x does not end: corrupt?" % head_addr)


def static_var(filename, name):
    """A file-scope variable: 'file.c'::name, else a unique global name."""
    for expr in ("'%s'::%s" % (filename, name), name):
        try:
            return gdb.parse_and_eval(expr)
        except gdb.error:
            pass
    raise gdb.GdbError("cannot find %s in %s" % (name, filename))


def cstr(ptr, default=""):
    if int(ptr) == 0:
        return default
    return ptr.string("latin-1")


def symbol_name(fn):
    """The function a code pointer points at ("sbd_release"), or its address."""
    addr = int(fn.cast(gdb.lookup_type("unsigned long")))
    if addr == 0:
        return "NULL"
    block = gdb.block_for_pc(addr)
    while block is not None and block.function is None:
        block = block.superblock
    if block is not None and block.function is not None:
        return block.function.print_name
    # a function with no debug block of its own (a tail call at -O2): the ELF symbol
    sym = gdb.execute("info symbol %d" % addr, to_string=True).split()
    if len(sym) >= 2 and sym[1] == "in":
        return sym[0]
    return "0x%x" % addr


def kernel_address(v):
    return "0x%x" % int(v.cast(gdb.lookup_type("unsigned long")))


def dev_string(devt):
    devt = int(devt)
    return "%u:%u" % (devt >> 20, devt & ((1 << 20) - 1))


# ---- kobjects (lib/kobject.c) ---------------------------------------------

KOBJ_STATE_ADDED = 2


def kobject_state_name(kobj):
    """As kobject_state_name(): read from the kernel's own table."""
    state = int(kobj["state"])
    names = static_var("kobject.c", "state_names")
    if 0 <= state < names.type.range()[1] + 1:
        return cstr(names[state])
    return "invalid"


def kobject_name(kobj):
    return cstr(kobj["k_name"], "(unnamed)")


def kobject_refcount(kobj):
    """As kref_read(): a released count shows as 0."""
    n = int(kobj["kref"]["refcount"]["counter"])
    return n if n > 0 else 0


def kobject_path(kobj):
    """As kobject_get_path(): "/class/block/vda", or only the name once unlinked.
    Like the other kobject_ helpers here, it takes a struct kobject *."""
    if int(kobj["state"]) != KOBJ_STATE_ADDED:
        return kobject_name(kobj)
    parts = []
    k = kobj
    while int(k) != 0:
        parts.append(kobject_name(k))
        k = k["parent"]
    return "/" + "/".join(reversed(parts))


def kobject_ktype(kobj):
    """As get_ktype(): the kset's member type wins over the object's own."""
    kset = kobj["kset"]
    if int(kset) != 0 and int(kset["ktype"]) != 0:
        return kset["ktype"]
    return kobj["ktype"]


def live_kobjects():
    """Every kobject not yet released, in kobject_init order."""
    return list_for_each_entry(static_var("kobject.c", "kobject_live"),
                               "struct kobject", "live")


# The structure around a kobject, told by its type, as to_class_dev() etc.
CONTAINERS = {
    "ktype_class_device": ("struct class_device", "kobj"),
    "ktype_class": ("struct class", "subsys.kobj"),
    "ktype_device": ("struct device", "kobj"),
    "ktype_driver": ("struct device_driver", "kobj"),
    "ktype_bus": ("struct bus_type", "subsys.kobj"),
    "ktype_class_dir": ("struct class_dir", "kobj"),
    "kset_ktype": ("struct kset", "kobj"),
}


def kobject_container(kobj):
    """(typename, pointer) of the structure embedding kobj, or None."""
    ktype = kobject_ktype(kobj)
    if int(ktype) == 0:
        return None
    sym = gdb.execute("info symbol %d" % int(ktype), to_string=True).split()
    name = sym[0] if sym and sym[0] != "No" else None
    if name not in CONTAINERS:
        return None
    typename, member = CONTAINERS[name]
    return typename, container_of(kobj, typename, member)


def to_kobject(v):
    """A struct kobject * from a kobject, a pointer to one, or anything embedding one."""
    kobj_t = lookup_type("struct kobject")
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_PTR:
        target = t.target().strip_typedefs()
        if target == kobj_t.strip_typedefs():
            return v
        v = v.dereference()
        t = target
    if t == kobj_t.strip_typedefs():
        return v.address
    for member in ("kobj", "subsys"):
        if any(f.name == member for f in t.fields()):
            return to_kobject(v[member])
    raise gdb.GdbError("%s has no kobject in it" % t)


# ---- sysfs (fs/sysfs) ------------------------------------------------------

SYSFS_ROOT, SYSFS_DIR, SYSFS_KOBJ_ATTR, SYSFS_KOBJ_LINK = 0x1, 0x2, 0x4, 0x20
SYSFS_FLAG_REMOVED = 0x1


def sysfs_root():
    return static_var("mount.c", "sysfs_root_sd").address


def rb_first(node):
    if int(node) == 0:
        return node
    while int(node["left"]) != 0:
        node = node["left"]
    return node


def rb_next(node):
    if int(node["right"]) != 0:
        return rb_first(node["right"])
    parent = node["parent"]
    while int(parent) != 0 and int(node) == int(parent["right"]):
        node, parent = parent, parent["parent"]
    return parent


def sysfs_children(sd):
    """A directory's children in name order: an in-order walk of its rbtree."""
    if not int(sd["type"]) & (SYSFS_ROOT | SYSFS_DIR):
        return
    node = rb_first(sd["dir"]["children"]["rb_node"])
    while int(node) != 0:
        yield container_of(node, "struct sysfs_dirent", "node")
        node = rb_next(node)


def sysfs_name(sd):
    return cstr(sd["name"])


def sysfs_find(sd, name):
    """As sysfs_find_dirent(): a binary search of the rbtree by strcmp order."""
    node = sd["dir"]["children"]["rb_node"]
    key = name.encode("latin-1")
    while int(node) != 0:
        child = container_of(node, "struct sysfs_dirent", "node")
        other = sysfs_name(child).encode("latin-1")
        if key == other:
            return child
        node = node["left"] if key < other else node["right"]
    return None


def sysfs_lookup(path, follow_last=True):
    """As sysfs_lookup() from "/": the node at an absolute path, or a GdbError."""
    cur = sysfs_root()
    parts = [p for p in path.split("/") if p]
    for i, part in enumerate(parts):
        if not int(cur["type"]) & (SYSFS_ROOT | SYSFS_DIR):
            raise gdb.GdbError("%s: Not a directory" % path)
        if part == ".":
            continue
        if part == "..":
            if int(cur["parent"]) != 0:
                cur = cur["parent"]
            continue
        nxt = sysfs_find(cur, part)
        if nxt is None:
            raise gdb.GdbError("%s: No such file or directory" % path)
        if int(nxt["type"]) == SYSFS_KOBJ_LINK and (follow_last or i + 1 < len(parts)):
            nxt = nxt["link"]["target"]
        cur = nxt
    return cur


def sysfs_depth(sd):
    d = 0
    while int(sd["parent"]) != 0:
        sd = sd["parent"]
        d += 1
    return d


def sysfs_path_below(ancestor, sd):
    parts = []
    while int(sd) != int(ancestor):
        parts.append(sysfs_name(sd))
        sd = sd["parent"]
    return "/" + "/".join(reversed(parts))


def sysfs_path(sd):
    if int(sd["type"]) == SYSFS_ROOT:
        return "/"
    return sysfs_path_below(sysfs_root(), sd)


def sysfs_readlink(sd):
    """As sysfs_readlink(): the target relative to the link's directory."""
    src, target = sd["parent"], sd["link"]["target"]
    a, b = src, target
    da, db = sysfs_depth(a), sysfs_depth(b)
    while da > db:
        a, da = a["parent"], da - 1
    while db > da:
        b, db = b["parent"], db - 1
    while int(a) != int(b):
        a, b = a["parent"], b["parent"]
    common = a
    if int(common) == int(target) and int(common["parent"]) != 0:
        common = common["parent"]
    ups = sysfs_depth(src) - sysfs_depth(common)
    return "../" * ups + sysfs_path_below(common, target)[1:]


def sysfs_tree_lines(sd, prefix, counts, out):
    children = list(sysfs_children(sd))
    for i, c in enumerate(children):
        last = i + 1 == len(children)
        line = prefix + ("`-- " if last else "|-- ") + sysfs_name(c)
        ctype = int(c["type"])
        if ctype == SYSFS_KOBJ_LINK:
            line += " -> " + sysfs_readlink(c)
        out.append(line)
        if ctype != SYSFS_DIR:
            counts[1] += 1
            continue
        counts[0] += 1
        sysfs_tree_lines(c, prefix + ("    " if last else "|   "), counts, out)


# ---- classes (drivers/base/class.c) ------------------------------------------

def all_classes():
    """Every registered class: the members of class_subsys, in add order."""
    return [container_of(k, "struct class", "subsys.kobj")
            for k in list_for_each_entry(gdb.parse_and_eval("class_subsys")["list"],
                                         "struct kobject", "entry")]


def class_devices(cls):
    return list_for_each_entry(cls["children"], "struct class_device", "node")


def class_members(cls):
    """The newer API's members: struct devices on cls->devices (dev->class_node)."""
    return list_for_each_entry(cls["devices"], "struct device", "class_node")


def find_class_device(name, classname=None):
    found = []
    for cls in all_classes():
        if classname is not None and cstr(cls["name"]) != classname:
            continue
        for cd in class_devices(cls):
            if cd["class_id"].string("latin-1") == name:
                found.append(cd)
    return found


# ---- the hotplug journal (lib/kobject_uevent.c) -----------------------------

def journal_records():
    journal = static_var("kobject_uevent.c", "journal")
    length = journal.type.range()[1] + 1
    head = int(static_var("kobject_uevent.c", "journal_head"))
    count = int(static_var("kobject_uevent.c", "journal_count"))
    first = (head + length - count) % length
    for i in range(count):
        yield journal[(first + i) % length]


def record_vars(rec):
    """The event's KEY=VALUE strings, as uevent_record_next_var() walks them."""
    n = int(rec["env_len"])
    raw = gdb.selected_inferior().read_memory(rec["env"].address, n).tobytes() if n else b""
    return [v.decode("latin-1") for v in raw.split(b"\0")[:-1]]


# ---- commands ---------------------------------------------------------------

class KoboldCommand(gdb.Command):
    """Base: registers NAME and its kb- alias."""

    def __init__(self, name, completer=gdb.COMPLETE_NONE):
        super().__init__(name, gdb.COMMAND_DATA, completer)
        short = "kb-" + name[len("kobold-"):]
        try:
            gdb.execute("alias %s = %s" % (short, name), to_string=True)
        except gdb.error:
            pass


class KoboldClasses(KoboldCommand):
    """List the classes and their members: kobold-classes [CLASS]

Classes in name order, as `ls /sys/class`; under each its class devices in
registration order (class->children): class_id, dev_t, refcount, state,
address; then its struct device members (class->devices, the newer API,
each a link in /sys/class/CLASS) the same way, with their path."""

    def __init__(self):
        super().__init__("kobold-classes")

    def invoke(self, arg, from_tty):
        want = arg.strip() or None
        classes = sorted(all_classes(), key=lambda c: cstr(c["name"]).encode("latin-1"))
        for cls in classes:
            name = cstr(cls["name"])
            if want and name != want:
                continue
            devs = list(class_devices(cls))
            members = list(class_members(cls))
            intfs = list(list_for_each_entry(cls["interfaces"], "struct class_interface", "node"))
            n = len(devs) + len(members)
            gdb.write("%s: (struct class *) %s, %d device%s, %d interface%s, release %s\n" % (
                name, kernel_address(cls), n, "" if n == 1 else "s",
                len(intfs), "" if len(intfs) == 1 else "s", symbol_name(cls["release"])))
            for cd in devs:
                kobj = cd["kobj"].address
                devt = dev_string(cd["devt"]) if int(cd["devt"]) else "-"
                gdb.write("    %-12s %-8s refs %-3u %-8s (struct class_device *) %s\n" % (
                    cd["class_id"].string("latin-1"), devt, kobject_refcount(kobj),
                    kobject_state_name(kobj), kernel_address(cd)))
            for dev in members:
                kobj = dev["kobj"].address
                devt = dev_string(dev["devt"]) if int(dev["devt"]) else "-"
                gdb.write("    %-12s %-8s refs %-3u %-8s (struct device *) %s -> %s\n" % (
                    dev["bus_id"].string("latin-1"), devt, kobject_refcount(kobj),
                    kobject_state_name(kobj), kernel_address(dev), kobject_path(kobj)))
            for intf in intfs:
                gdb.write("    interface add %s remove %s add_dev %s remove_dev %s\n" % (
                    symbol_name(intf["add"]), symbol_name(intf["remove"]),
                    symbol_name(intf["add_dev"]), symbol_name(intf["remove_dev"])))


class KoboldSysfs(KoboldCommand):
    """Print the sysfs tree from kernel memory: kobold-sysfs [PATH]

PATH (default /sys) is absolute. The output is what the shell's `tree PATH`
prints: each directory's children in its red-black tree's order, links as
`name -> target`, then the counts."""

    def __init__(self):
        super().__init__("kobold-sysfs")

    def invoke(self, arg, from_tty):
        path = arg.strip() or "/sys"
        sd = sysfs_lookup(path)
        out, counts = [path], [0, 0]
        if int(sd["type"]) & (SYSFS_ROOT | SYSFS_DIR):
            sysfs_tree_lines(sd, "", counts, out)
        out.append("")
        out.append("%d director%s, %d file%s" % (counts[0], "y" if counts[0] == 1 else "ies",
                                                 counts[1], "" if counts[1] == 1 else "s"))
        gdb.write("\n".join(out) + "\n")


def kobject_from_arg(arg):
    """A struct kobject * from a sysfs path, a kobject path, or an expression."""
    arg = arg.strip().strip('"')
    if arg.startswith("/"):
        if not arg.startswith("/sys"):
            arg = "/sys" + arg
        sd = sysfs_lookup(arg)
        if int(sd["type"]) != SYSFS_DIR or int(sd["dir"]["kobj"]) == 0:
            raise gdb.GdbError("%s is not a kobject's directory" % arg)
        return sd["dir"]["kobj"]
    return to_kobject(gdb.parse_and_eval(arg))


class KoboldKobject(KoboldCommand):
    """Show one kobject: kobold-kobject EXPR | PATH

EXPR is a struct kobject, a pointer to one, or a structure embedding one
(class_device, device, class, kset): `kobold-kobject cd`,
`kobold-kobject $kobold_class_device("sbd0")`. PATH is a directory in sysfs:
`kobold-kobject /sys/class/sbd/sbd0`. Path, refcount and state are as the
shell's `kobjects` shows them; release is the function kobject_put will call
at the last reference (and, for a class device, whose release that calls)."""

    def __init__(self):
        super().__init__("kobold-kobject", gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("usage: kobold-kobject EXPR | PATH")
        kobj = kobject_from_arg(arg)
        k = kobj
        gdb.write("kobject %s '%s'\n" % (kernel_address(kobj), kobject_name(k)))
        outer = kobject_container(kobj)
        if outer:
            gdb.write("  in:       (%s *) %s\n" % outer)
        gdb.write("  path:     %s\n" % kobject_path(k))
        gdb.write("  refcount: %d\n" % int(k["kref"]["refcount"]["counter"]))
        gdb.write("  state:    %s\n" % kobject_state_name(k))
        parent = k["parent"]
        gdb.write("  parent:   %s\n" % ("NULL" if int(parent) == 0 else "%s '%s'" % (
            kernel_address(parent), kobject_path(parent))))
        kset = k["kset"]
        gdb.write("  kset:     %s\n" % ("NULL" if int(kset) == 0 else "%s '%s'" % (
            kernel_address(kset), kobject_name(kset["kobj"].address))))
        ktype = kobject_ktype(k)
        if int(ktype) == 0:
            gdb.write("  ktype:    NULL\n  release:  none\n")
        else:
            gdb.write("  ktype:    %s\n" % gdb.execute("info symbol %d" % int(ktype),
                                                      to_string=True).split(" in ")[0].strip())
            gdb.write("  release:  %s%s\n" % (symbol_name(ktype["release"]),
                                               self.delegate(outer)))
        sd = k["sd"]
        gdb.write("  sysfs:    %s\n" % ("none" if int(sd) == 0 else sysfs_path(sd)))

    @staticmethod
    def delegate(outer):
        """class_dev_release and device_release call the object's own release,
        else its class's (release, or dev_release for a struct device)."""
        if outer and outer[0] == "struct device":
            dev = outer[1]
            if int(dev["release"]) != 0:
                return " -> %s (the device's)" % symbol_name(dev["release"])
            cls = dev["class"]
            if int(cls) != 0 and int(cls["dev_release"]) != 0:
                return " -> %s (class %s)" % (symbol_name(cls["dev_release"]), cstr(cls["name"]))
            return " -> none: release() will WARN"
        if not outer or outer[0] != "struct class_device":
            return ""
        cd = outer[1]
        if int(cd["release"]) != 0:
            return " -> %s (the device's)" % symbol_name(cd["release"])
        cls = cd["class"]
        if int(cls) != 0 and int(cls["release"]) != 0:
            return " -> %s (class %s)" % (symbol_name(cls["release"]), cstr(cls["name"]))
        return " -> none: release() will WARN"


def outside_sysfs(kobj, live):
    """What the shell's kobjects adds to an object never added: its kset, and
    how many objects have it as theirs."""
    if kobject_state_name(kobj) != "initialized":
        return ""
    kset = kobj["kset"]
    text = " (not in sysfs" + (", in kset " + kobject_name(kset["kobj"].address) if int(kset) else "")
    members = sum(1 for k in live if int(k["kset"]) and int(k["kset"]["kobj"].address) == int(kobj))
    if members:
        text += ", the kset of %u object%s" % (members, "" if members == 1 else "s")
    return text + ")"


class KoboldKobjects(KoboldCommand):
    """List every kobject not yet released: kobold-kobjects

The same lines as the shell's `kobjects`: refcount, state, path (the name
only once unlinked), oldest first."""

    def __init__(self):
        super().__init__("kobold-kobjects")

    def invoke(self, arg, from_tty):
        lines = ["REFS STATE       PATH"]
        live = list(live_kobjects())
        for k in live:
            lines.append("%4u %-11s %s%s" % (kobject_refcount(k), kobject_state_name(k),
                                             kobject_path(k), outside_sysfs(k, live)))
        gdb.write("\n".join(lines) + "\n")


class KoboldUevents(KoboldCommand):
    """List the hotplug event journal: kobold-uevents [-p]

The lines of the shell's `udevadm monitor --journal` (with -p: `... -p`),
oldest first, read from the journal's ring in kernel memory."""

    def __init__(self):
        super().__init__("kobold-uevents")

    def invoke(self, arg, from_tty):
        props = arg.strip() in ("-p", "--property")
        if arg.strip() and not props:
            raise gdb.GdbError("usage: kobold-uevents [-p]")
        out = []
        dropped = int(static_var("kobject_uevent.c", "journal_dropped"))
        if dropped:
            out.append("(%d older events dropped from the journal)" % dropped)
        for rec in journal_records():
            us = (int(rec["timestamp_ns"]) // 1000) & 0xffffffff  # unsigned long, as the shell
            out.append("KERNEL[%d.%06d] %-8s %s (%s)" % (
                us // 1000000, us % 1000000, cstr(rec["action"]), cstr(rec["devpath"]),
                cstr(rec["subsystem"])))
            if props:
                out.extend(record_vars(rec))
                out.append("")
        gdb.write("".join(line + "\n" for line in out))


# ---- convenience functions ----------------------------------------------------

class ClassDeviceFunction(gdb.Function):
    """$kobold_class_device(NAME [, CLASS]): the registered struct class_device *
called NAME (its class_id), in CLASS if given. An error if there is none,
or more than one and no CLASS: e.g. $kobold_class_device("sbd0", "sbd")."""

    def __init__(self):
        super().__init__("kobold_class_device")

    def invoke(self, name, classname=None):
        name = name.string()
        cls = classname.string() if classname is not None else None
        found = find_class_device(name, cls)
        if not found:
            raise gdb.GdbError("no class device %s%s" % (name, " in class " + cls if cls else ""))
        if len(found) > 1:
            raise gdb.GdbError("%s is in several classes (%s): name one" % (
                name, ", ".join(cstr(cd["class"]["name"]) for cd in found)))
        return found[0]


class KobjectFunction(gdb.Function):
    """$kobold_kobject(PATH): the struct kobject * whose directory is PATH
("/sys/class/sbd/sbd0", or its kobject path "/class/sbd/sbd0")."""

    def __init__(self):
        super().__init__("kobold_kobject")

    def invoke(self, path):
        return kobject_from_arg(path.string())


class ContainerOfFunction(gdb.Function):
    """$container_of(PTR, "TYPE", "MEMBER"): the TYPE * that holds PTR at
MEMBER, as the kernel's container_of()."""

    def __init__(self):
        super().__init__("container_of")

    def invoke(self, ptr, typename, member):
        return container_of(ptr, typename.string(), member.string())


KoboldClasses()
KoboldSysfs()
KoboldKobject()
KoboldKobjects()
KoboldUevents()
ClassDeviceFunction()
KobjectFunction()
ContainerOfFunction()

# The kernel runs at PAGE_OFFSET (0xC0000000) and up once boot.S has turned
# paging on; QEMU halted at its first instruction has paging off, and gdb's
# reads of the code there (to skip a function's prologue when it sets a
# breakpoint) would find nothing. The code never changes: read it from the
# ELF file, as Linux's scripts/gdb users do.
gdb.execute("set trust-readonly-sections on")
