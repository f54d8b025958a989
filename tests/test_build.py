"""test_build.py: the Makefile's side: tools named or installed, the build's output and its
dependency on the list of sources, the compilation database, the run targets' QEMU lines."""
import json
import os
import re
import shutil
import subprocess

import pytest

import kobold

ROOT = kobold.ROOT
MAKEFILES = ["Makefile"] + sorted("mk/" + f for f in os.listdir(os.path.join(ROOT, "mk")) if f.endswith(".mk"))
# $(Q)$(NEED) WHAT PACKAGE...   (WHAT may be quoted)
NEED_CALL = re.compile(r'\$\(NEED\)\s+("[^"]*"|\S+)\s+([a-z0-9][a-z0-9 .+-]*)')


def need_calls():
    calls = []
    for mk in MAKEFILES:
        with open(os.path.join(ROOT, mk)) as f:
            for m in NEED_CALL.finditer(f.read()):
                calls.append((mk, m.group(1), m.group(2).split()))
    return calls


def path_without(tmp_path, *hidden):
    """A directory of links to every command on PATH except the hidden ones."""
    d = tmp_path / "bin"
    d.mkdir()
    for p in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(p):
            continue
        for name in os.listdir(p):
            src = os.path.join(p, name)
            if name in hidden or (d / name).exists() or not os.access(src, os.X_OK):
                continue
            if os.path.isfile(src):
                os.symlink(src, d / name)
    return str(d)


def run(cmd, cwd=ROOT, env=None, timeout=600):
    """cmd as a user types it: not as a sub-make of make test (no MAKEFLAGS, no MAKELEVEL)."""
    env = dict(env or os.environ)
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(var, None)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def make_n(*args):
    r = run(["make", "-n"] + list(args))
    assert r.returncode == 0, r.stderr
    return r.stdout.replace("\\\n", " ")


# -- the tools: named with the install command, or installed ------------------------

@pytest.mark.parametrize("tool,package", [("dot", "graphviz"), ("gdb", "gdb"),
                                          ("clang-format-19", "clang-format-19")])
def test_make_test_names_a_hidden_tool_with_its_install_command(tmp_path, tool, package):
    """make test's deps with a tool hidden from PATH (installing off): the tool is named
    with the exact apt-get command, the make fails, and doctor says the same."""
    env = dict(os.environ, PATH=path_without(tmp_path, tool), KOBOLD_NO_INSTALL="1")
    r = run(["make", "-s", "deps"], env=env)
    assert r.returncode != 0, r.stdout + r.stderr
    want = re.compile(r"^kobold: %s is missing; install it with: (sudo )?apt-get install %s$"
                      % (re.escape(tool), re.escape(package)), re.M)
    assert want.search(r.stderr), r.stderr
    r = run(["make", "-s", "doctor"], env=env)
    assert r.returncode != 0, r.stdout
    assert re.search(r"^  MISSING  %s\s+%s\s" % (re.escape(tool), re.escape(package)), r.stdout, re.M), r.stdout
    assert re.search(r"^Install what is missing with: (sudo )?apt-get install .*\b%s\b" % re.escape(package),
                     r.stdout, re.M), r.stdout


def test_need_names_python_modules_and_paths():
    env = dict(os.environ, KOBOLD_NO_INSTALL="1")
    r = run(["scripts/need.sh", "py:kobold_no_such_module", "python3-nosuch"], env=env)
    assert r.returncode == 1
    assert re.search(r"py:kobold_no_such_module is missing; install it with: (sudo )?apt-get install python3-nosuch",
                     r.stderr), r.stderr
    assert run(["scripts/need.sh", "py:os", "python3"], env=env).returncode == 0
    assert run(["scripts/need.sh", "/nonexistent/x", "pkg"], env=env).returncode == 1
    assert run(["scripts/need.sh", "sh", "dash"], env=env).returncode == 0


def test_doctor_checks_every_tool_a_target_needs():
    """Every `$(NEED) TOOL PACKAGE` of the Makefile and mk/*.mk is a line of make doctor."""
    calls = need_calls()
    assert len(calls) > 10, calls
    out = run(["make", "-s", "doctor"]).stdout
    checked = set(re.findall(r"^  (?:ok|MISSING)\s+.+?\s{2,}(\S+)\s", out, re.M))
    for mk, what, packages in calls:
        for p in packages:
            assert p in checked, "%s needs %s (%s) but make doctor does not check it:\n%s" % (mk, what, p, out)


def test_make_test_installs_every_optional_tool_the_tests_use():
    """deps (make test's first step) covers the tools of the tests: gdb, dot, clang, clang-format-19, git."""
    out = make_n("deps")
    for tool, package in [("gdb", "gdb"), ("dot", "graphviz"), ("clang", "clang"),
                          ("clang-format-19", "clang-format-19"), ("git", "git"),
                          ("py:pytest", "python3-pytest"), ("py:pexpect", "python3-pexpect"),
                          ("py:xdist", "python3-pytest-xdist")]:
        assert re.search(r"need\.sh %s %s( \|\||$)" % (re.escape(tool), re.escape(package)), out, re.M), (tool, out)
    assert "libclang-rt-dev" in out
    test = make_n("test")
    assert "KOBOLD_DEBUG_KERNEL=build/debug/kobold.elf" in test, test


def test_a_student_checks_labs_without_the_optional_tools():
    """check-lab and grade need QEMU, python3 and pexpect, not make test's gdb, graphviz or clang."""
    for target in (["check-lab", "LAB=1"], ["grade"]):
        out = make_n(*target)
        for tool in ("qemu-system-i386", "python3", "py:pexpect"):
            assert re.search(r"need\.sh \S*%s " % re.escape(tool), out), (target, tool, out)
        for tool in ("gdb", "dot", "clang"):
            assert not re.search(r"need\.sh \S*%s " % re.escape(tool), out), (target, tool, out)


def test_ci_installs_what_doctor_checks():
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        ci = f.read()
    listed = set(re.search(r"packages=\((.*?)\)", ci, re.S).group(1).split())
    for mk, what, packages in need_calls():
        if mk == "mk/bench.mk":
            continue  # CI does not run the benchmarks
        for p in packages:
            if p == "qemu-system-gui":
                continue  # make run-gui opens a window; CI opens none
            assert p in listed, ".ci/run does not install %s (%s needs it for %s)" % (p, mk, what)


# -- the run targets -------------------------------------------------------------------

@pytest.mark.parametrize("target", ["run", "run-grub", "run-gui"])
def test_run_targets_let_reboot_restart(target):
    """No -no-reboot: the shell's reboot restarts the machine; isa-debug-exit stays."""
    out = make_n(target)
    qemu = [l for l in out.split("\n") if l.lstrip().startswith("qemu-system-i386 ")]
    assert len(qemu) == 1, out
    assert "-no-reboot" not in qemu[0], qemu
    assert "-device isa-debug-exit,iobase=0xf4,iosize=0x04" in qemu[0], qemu
    assert "virtio-blk-pci" in qemu[0], qemu
    if target == "run-gui":
        assert "-nographic" not in qemu[0] and "-display none" not in qemu[0], qemu
        assert "-serial mon:stdio" in qemu[0], qemu
        assert "need.sh" in out and "qemu-system-gui" in out, out
    else:
        assert "-nographic" in qemu[0], qemu


def test_run_passes_the_rootfs_once_built(tmp_path):
    """make run boots with build/rootfs.cpio as an initramfs when it exists, and without when not."""
    built = tmp_path / "rootfs.cpio"
    built.write_bytes(b"")
    for rootfs, want in [(str(built), True), (str(tmp_path / "none.cpio"), False)]:
        out = make_n("run", "ROOTFS=" + rootfs)
        qemu = [l for l in out.split("\n") if l.lstrip().startswith("qemu-system-i386 ")]
        assert len(qemu) == 1, out
        assert ("-initrd " + rootfs in qemu[0]) == want, qemu


def test_help_and_readme_list_the_targets():
    out = run(["make", "-s", "help"]).stdout
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    for target in ["run", "run-grub", "run-gui", "debug", "gdb", "gdb-soak", "test", "doctor",
                   "compile_commands.json", "format-check", "clean", "rootfs"]:
        assert re.search(r"^make %s\b" % re.escape(target), out, re.M), (target, out)
        assert "make %s" % target in readme, "README.md does not list make %s" % target


# -- the build in a copy of the tree ---------------------------------------------------

@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the committed and working files, built once."""
    d = tmp_path_factory.mktemp("tree") / "kobold"
    files = run(["git", "ls-files", "-co", "--exclude-standard"]).stdout.split()
    for rel in files:
        src = os.path.join(ROOT, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(str(d / rel)), exist_ok=True)
            shutil.copy2(src, str(d / rel))
    r = run(["make", "-j2", "build/kobold.elf"], cwd=str(d))
    assert r.returncode == 0, r.stdout + r.stderr
    return str(d), r.stdout


def test_build_prints_only_short_lines(tree):
    _, out = tree
    bad = [l for l in out.splitlines() if not re.match(r"^  [A-Z]{2,6} +\S+", l)]
    assert not bad, "raw lines among the short ones:\n" + "\n".join(bad)
    assert "  AS      build/ksyms.S" in out.splitlines(), out


def nm_has(d, symbol):
    out = run(["nm", "build/kobold.elf"], cwd=d).stdout
    return re.search(r" [tT] %s$" % symbol, out, re.M) is not None


def test_added_and_removed_sources_relink(tree):
    """A new module is linked in; once its file is removed, make relinks without it."""
    d, _ = tree
    mod = os.path.join(d, "drivers", "misc", "buildprobe.c")
    with open(mod, "w") as f:
        f.write('/* buildprobe.c: a module the build test adds and removes. */\n'
                '#include <kobold/module.h>\n\n'
                'static int buildprobe_init(void)\n{\n\treturn 0;\n}\n\n'
                'static void buildprobe_exit(void)\n{\n}\n\n'
                'module_init(buildprobe_init);\nmodule_exit(buildprobe_exit);\n')
    r = run(["make", "-j2", "build/kobold.elf"], cwd=d)
    assert r.returncode == 0, r.stdout + r.stderr
    assert nm_has(d, "buildprobe_init"), r.stdout
    os.unlink(mod)
    r = run(["make", "-j2", "build/kobold.elf"], cwd=d)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Nothing to be done" not in r.stdout + r.stderr and "  LD      build/kobold.elf" in r.stdout, r.stdout
    assert not nm_has(d, "buildprobe_init"), "the removed module is still in the kernel"
    r = run(["make", "build/kobold.elf"], cwd=d)
    assert "  LD" not in r.stdout, "nothing changed, yet make relinked:\n" + r.stdout


def test_compile_commands_lists_every_kernel_source_with_its_flags(tree):
    """make compile_commands.json: each file the kernel build compiles, with that very command."""
    d, _ = tree
    r = run(["make", "compile_commands.json"], cwd=d)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(d, "compile_commands.json")) as f:
        db = {os.path.relpath(e["file"], d): e for e in json.load(f)}
    compiled = {}
    for line in make_n_in(d, "-B", "build/kobold.elf").split("\n"):
        m = re.search(r" -c (\S+\.c) -o (\S+)$", line)
        if m:
            compiled[m.group(1)] = line.split()
    assert len(compiled) > 50, compiled
    assert sorted(db) == sorted(compiled), set(db) ^ set(compiled)
    for src, cmd in compiled.items():
        e = db[src]
        assert e["directory"] == d and e["arguments"][-4:] == ["-c", src, "-o", cmd[-1]], e
        args = [a.replace("'", "").replace('"', "") for a in cmd[:-4] if not a.startswith("-M")]
        got = [a.replace('"', "") for a in e["arguments"][:-4]]
        assert got == args, (src, got, args)
        assert "-m32" in got and "-ffreestanding" in got and "-Iinclude" in got, got


def make_n_in(d, *args):
    r = run(["make", "-n"] + list(args), cwd=d)
    assert r.returncode == 0, r.stderr
    return r.stdout


# -- .clang-format ----------------------------------------------------------------------

def test_clang_format_config_formats_kernel_style(tmp_path):
    """make format FILES=... gives Linux style (tabs, braces, for-each macros as calls), and
    make format-check then passes; an unformatted file is named with its count of lines."""
    src = tmp_path / "probe.c"
    src.write_text("static int probe(struct list_head *h){\n  struct class *c;\n"
                   "  list_for_each_entry(c,h,node) {\n    if (c) return 1;\n  }\n  return 0;\n}\n")
    r = run(["make", "-s", "format-check", "FILES=" + str(src)])
    assert r.returncode != 0 and "  FORMAT  %s: " % src in r.stdout, r.stdout + r.stderr
    r = run(["make", "-s", "format", "FILES=" + str(src)])
    assert r.returncode == 0, r.stderr
    assert src.read_text() == ("static int probe(struct list_head *h)\n{\n\tstruct class *c;\n"
                               "\tlist_for_each_entry(c, h, node) {\n\t\tif (c)\n\t\t\treturn 1;\n"
                               "\t}\n\treturn 0;\n}\n"), src.read_text()
    r = run(["make", "-s", "format-check", "FILES=" + str(src)])
    assert r.returncode == 0 and r.stdout == "", r.stdout
    # Code written in the project's style stays as it is.
    r = run(["make", "-s", "format-check", "FILES=lib/kstrtox.c"])
    assert r.returncode == 0, r.stdout


def test_the_whole_tree_passes_format_check():
    """Every C file git knows, the labs' starters included, is as .clang-format has it."""
    r = run(["make", "-s", "format-check"])
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr


def test_format_check_names_each_file_and_fails_when_clang_format_does(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int  x;\nint  y;  int z;\n")
    r = run(["make", "-s", "format-check", "FILES=%s lib/kstrtox.c" % bad])
    assert r.returncode != 0 and r.stdout == "  FORMAT  %s: 2 lines differ from .clang-format\n" % bad, r.stdout
    r = run(["make", "-s", "format-check", "FILES=%s" % (tmp_path / "missing.c")])
    assert r.returncode != 0 and "  FORMAT  clang-format exit 1" in r.stdout, r.stdout


def test_the_summary_line_adds_up_every_report_and_counts_a_missing_one_as_failed(tmp_path):
    """make test's last line comes from its JUnit reports, added up."""
    one, two = tmp_path / "one.xml", tmp_path / "two.xml"
    one.write_text('<testsuites><testsuite tests="5" failures="1" errors="0" skipped="1"/></testsuites>')
    two.write_text('<testsuite tests="3" failures="0" errors="1" skipped="0"/>')
    summary = os.path.join(ROOT, "scripts", "test-summary.py")

    def last_line(*paths):
        out = subprocess.run(["/usr/bin/python3", summary] + [str(p) for p in paths],
                             capture_output=True, text=True, check=True).stdout
        return out.strip().split("\n")[-1]

    assert last_line(one) == "3 passed, 1 failed, 1 skipped"
    assert last_line(one, two) == "5 passed, 2 failed, 1 skipped"
    assert last_line(one, tmp_path / "missing.xml") == "3 passed, 2 failed, 1 skipped"
