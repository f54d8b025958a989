"""sandbox.py: runs a grading step (a student's build, a boot and its checks) in bubblewrap.

The step sees the system's programs read-only (/usr, /etc without its secrets),
the directories it is given (read-only unless named writable), an empty private
/tmp and a private /proc; it has no network (a namespace with only lo), no other
process to see, no capabilities, and limits on CPU time, memory (address space)
and the size of a file it writes. Run as root, it runs as nobody. Without bwrap
(Debian's bubblewrap) the step runs as the caller, with the same limits, and
available() says why, so that the report can say so.
"""
import os
import stat
import resource
import shutil
import subprocess

NOBODY = 65534
SECRETS = ["/etc/shadow", "/etc/gshadow", "/etc/ssh", "/etc/sudoers", "/etc/sudoers.d"]
# QEMU's TCG reserves a 1 GiB code buffer beside the 256 MiB guest: 3 GiB is room enough.
MEMORY = 3 << 30
CPU_SECONDS = 900
FILE_BYTES = 256 << 20


def bwrap():
    """The path of bwrap, or None."""
    return shutil.which("bwrap")


def available():
    """(True, how) when steps run in bwrap, else (False, why not)."""
    if os.environ.get("KOBOLD_NO_SANDBOX"):
        return False, "KOBOLD_NO_SANDBOX is set: builds and boots run as you"
    if not bwrap():
        return False, "bwrap is missing (apt-get install bubblewrap): builds and boots run as you"
    r = subprocess.run(command(["true"], [], []), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, preexec_fn=limits)
    if r.returncode:
        return False, "bwrap does not start here (%s): builds and boots run as you" % \
            (r.stdout.strip().split("\n") or ["?"])[-1]
    who = "as nobody, " if os.geteuid() == 0 else ""
    return True, ("bwrap: %sno network, read-only tree, private /tmp, %d s of CPU, %d GiB of memory"
                  % (who, CPU_SECONDS, MEMORY >> 30))


def limits():
    """The step's limits (a preexec_fn): CPU seconds, address space, file size, a session of its own."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.setsid()


def system_binds():
    """/usr read-only, the top-level links into it (merged /usr) or the directories themselves."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--ro-bind", "/etc", "/etc"]
    for secret in SECRETS:
        if os.path.isdir(secret):
            args += ["--tmpfs", secret]
        elif os.path.exists(secret):
            args += ["--ro-bind", "/dev/null", secret]
    return args


def command(argv, readable, writable, cwd=None, env=None):
    """The bwrap command line that runs argv with readable and writable directories bound."""
    args = [bwrap() or "bwrap", "--unshare-all", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    args += system_binds()
    for d in readable:
        args += ["--ro-bind", d, d]
    for d in writable:
        args += ["--bind", d, d]
    args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
    for k, v in (env or {}).items():
        args += ["--setenv", k, v]
    if cwd:
        args += ["--chdir", cwd]
    return args + ["--"] + list(argv)


def give(paths):
    """Makes paths (walked) the sandbox's own: as root, owned by nobody. Files hard-linked
    to the teacher's (more than one link: grade-class's trees) stay root's and read-only."""
    if os.geteuid() != 0:
        return
    for top in paths:
        os.chown(top, NOBODY, NOBODY)
        for d, dirs, files in os.walk(top):
            for n in dirs + files:
                path = os.path.join(d, n)
                st = os.lstat(path)
                if not (stat.S_ISREG(st.st_mode) and st.st_nlink > 1):
                    os.lchown(path, NOBODY, NOBODY)


def run(argv, readable=(), writable=(), cwd=None, env=None, timeout=600, sandboxed=True):
    """Runs argv, sandboxed or not, with the limits; returns (returncode or None on timeout, output).

    Output is text, stdout and stderr together, at most its last 256 KiB."""
    env = dict(env or {})
    if sandboxed:
        full = command(argv, readable, writable, cwd, env)
        if os.geteuid() == 0:  # nobody in the sandbox: the caller's files stay the caller's
            full = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"] + full
        proc_env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8"}
    else:
        full = list(argv)
        proc_env = dict(os.environ, **env)
    p = subprocess.Popen(full, cwd=None if sandboxed else cwd, env=proc_env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, preexec_fn=limits)
    try:
        out, _ = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, _ = p.communicate()
        code = None
    return code, out[-(256 << 10):].decode(errors="replace")
