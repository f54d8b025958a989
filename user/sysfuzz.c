/*
 * sysfuzz.c: random system calls with hostile arguments, to find the ones the
 * kernel does not refuse cleanly (an oops, a hang, a leak, a missing check).
 *
 *   sysfuzz [-v] [-u UID] [-f FIRST] SEED COUNT|SECONDSs
 *
 * Call I of seed S always has the same number and arguments: each is drawn
 * from a generator seeded by (S, I), so `sysfuzz -v -f I S 1` shows and
 * makes that call again. The calls run in a worker process, BATCH at a time
 * from a fresh state (its descriptors reopened, its memory new); a worker that
 * dies or sticks (the supervisor kills one that has not started a call for a
 * second) is followed by the next from the call after. Calls that would end
 * or wedge the worker itself (exit, execve, sigreturn, brk, an munmap of its
 * own memory) run in a child of the worker that is killed after 100 ms.
 * -u UID drops to that user (and group) first. Everything it makes lives in
 * /tmp/sfz, removed at the end. It prints the seed and, with -v, each call
 * (index, number, name, arguments) before making it and its result after.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BATCH 100
#define LOG_FD 250  /* the console, for the worker's lines */
#define PROG_FD 251 /* the pipe to the supervisor: the index of each call begun */
#define WATCHDOG_MS 1000
#define CHILD_MS 100
#define SCRATCH "/tmp/sfz"
#define PAGE 4096u
#define BUF_PAGES 8
#define ARENA_PAGES 16

/* ---- the random numbers: splitmix64, one stream a call ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 16);
}

static uint32_t below(uint32_t n) { return rnd() % n; }

#define PICK(a) ((a)[below(sizeof(a) / sizeof((a)[0]))])

/* ---- what each argument is ---- */

enum arg {
	X,	/* not used: 0 */
	INT,	/* any integer */
	FD,	/* a descriptor: the pool's, closed or absurd */
	WFD,	/* a descriptor whose file may be changed: the scratch files', pipes, sockets */
	LEN,	/* a length: 0, 1, 4095, 4096, huge */
	PTR,	/* a buffer the kernel reads or writes */
	PATH,	/* a name looked up: real files, bad pointers */
	WPATH,	/* a name created or changed: under the scratch directory, bad pointers */
	OFLAGS, /* open's flags */
	FLAGS,	/* random bits */
	MODE,	/* file mode and type */
	PID,	/* the worker, its group, none */
	SIG,	/* a signal number */
	UID,	/* a user or group id */
	ADDR,	/* an address for the memory calls: the arena's, absurd */
	IOV,	/* a struct iovec array */
	MSG,	/* a struct msghdr */
	SADDR,	/* a struct sockaddr */
	TS,	/* a struct timespec of a few ms at most, or a bad one */
	TV,	/* a struct timeval, the same */
	FDSET,	/* an fd_set */
	POLLFD, /* a struct pollfd array */
	CMD,	/* an ioctl, fcntl or prctl command */
	RES,	/* an rlimit resource */
	AIO,	/* an AIO context */
	IOCBS,	/* an array of struct iocb pointers */
	ARGV,	/* an argv or envp */
	MSEC,	/* poll's timeout: a few ms */
	DEV,	/* mknod's device: the harmless mem devices, absurd ones */
	FSTYPE, /* a file system type */
	FRAME,	/* a stack pointer for sigreturn: random words above it, or a bad address */
};

/* How a call is made: in the worker, in a child of it, or as a fork whose child exits at once. */
enum how { WORKER,
	   CHILD,
	   FORKISH,
	   SKIP };

struct call {
	int nr;
	const char *name;
	enum how how;
	enum arg a[6];
};

/* Linux i386's numbers (arch/x86/entry/syscalls/syscall_32.tbl). */
static const struct call calls[] = {
	{ 0, "restart_syscall", WORKER, { X } },
	{ 1, "exit", CHILD, { INT } },
	{ 2, "fork", FORKISH, { X } },
	{ 3, "read", WORKER, { FD, PTR, LEN } },
	{ 4, "write", WORKER, { FD, PTR, LEN } },
	{ 5, "open", WORKER, { PATH, OFLAGS, MODE } },
	{ 6, "close", WORKER, { FD } },
	{ 7, "waitpid", WORKER, { PID, PTR, FLAGS } },
	{ 8, "creat", WORKER, { WPATH, MODE } },
	{ 9, "link", WORKER, { PATH, WPATH } },
	{ 10, "unlink", WORKER, { WPATH } },
	{ 11, "execve", CHILD, { PATH, ARGV, ARGV } },
	{ 12, "chdir", WORKER, { PATH } },
	{ 13, "time", WORKER, { PTR } },
	{ 14, "mknod", WORKER, { WPATH, MODE, DEV } },
	{ 15, "chmod", WORKER, { WPATH, MODE } },
	{ 16, "lchown", WORKER, { WPATH, UID, UID } },
	{ 19, "lseek", WORKER, { FD, INT, INT } },
	{ 20, "getpid", WORKER, { X } },
	{ 21, "mount", WORKER, { PATH, WPATH, FSTYPE, FLAGS, PTR } },
	{ 22, "umount", WORKER, { WPATH } },
	{ 23, "setuid", WORKER, { UID } },
	{ 24, "getuid", WORKER, { X } },
	{ 27, "alarm", WORKER, { INT } },
	{ 29, "pause", CHILD, { X } },
	{ 30, "utime", WORKER, { WPATH, PTR } },
	{ 33, "access", WORKER, { PATH, INT } },
	{ 36, "sync", WORKER, { X } },
	{ 37, "kill", WORKER, { PID, SIG } },
	{ 38, "rename", WORKER, { WPATH, WPATH } },
	{ 39, "mkdir", WORKER, { WPATH, MODE } },
	{ 40, "rmdir", WORKER, { WPATH } },
	{ 41, "dup", WORKER, { FD } },
	{ 42, "pipe", WORKER, { PTR } },
	{ 43, "times", WORKER, { PTR } },
	{ 45, "brk", CHILD, { ADDR } },
	{ 46, "setgid", WORKER, { UID } },
	{ 47, "getgid", WORKER, { X } },
	{ 52, "umount2", WORKER, { WPATH, FLAGS } },
	{ 54, "ioctl", WORKER, { FD, CMD, PTR } },
	{ 55, "fcntl", WORKER, { FD, CMD, INT } },
	{ 57, "setpgid", WORKER, { PID, PID } },
	{ 60, "umask", WORKER, { MODE } },
	{ 63, "dup2", WORKER, { FD, FD } },
	{ 64, "getppid", WORKER, { X } },
	{ 65, "getpgrp", WORKER, { X } },
	{ 66, "setsid", WORKER, { X } },
	{ 75, "setrlimit", WORKER, { RES, PTR } },
	{ 77, "getrusage", WORKER, { INT, PTR } },
	{ 78, "gettimeofday", WORKER, { PTR, PTR } },
	{ 80, "getgroups", WORKER, { INT, PTR } },
	{ 81, "setgroups", WORKER, { INT, PTR } },
	{ 83, "symlink", WORKER, { WPATH, WPATH } }, /* a link never leads out of the scratch */
	{ 85, "readlink", WORKER, { PATH, PTR, LEN } },
	{ 88, "reboot", WORKER, { INT, INT, INT, PTR } },
	{ 91, "munmap", WORKER, { ADDR, LEN } },
	{ 92, "truncate", WORKER, { WPATH, INT } },
	{ 93, "ftruncate", WORKER, { WFD, INT } },
	{ 94, "fchmod", WORKER, { WFD, MODE } },
	{ 95, "fchown", WORKER, { WFD, UID, UID } },
	{ 96, "getpriority", WORKER, { INT, PID } },
	{ 97, "setpriority", WORKER, { INT, PID, INT } },
	{ 102, "socketcall", WORKER, { INT, PTR } },
	{ 114, "wait4", WORKER, { PID, PTR, FLAGS, PTR } },
	{ 116, "sysinfo", WORKER, { PTR } },
	{ 118, "fsync", WORKER, { FD } },
	{ 119, "sigreturn", CHILD, { FRAME } },
	{ 120, "clone", FORKISH, { FLAGS, PTR, PTR, PTR, PTR } },
	{ 122, "uname", WORKER, { PTR } },
	{ 125, "mprotect", WORKER, { ADDR, LEN, FLAGS } },
	{ 132, "getpgid", WORKER, { PID } },
	{ 133, "fchdir", WORKER, { FD } },
	{ 140, "_llseek", WORKER, { FD, INT, INT, PTR, INT } },
	{ 142, "_newselect", WORKER, { INT, FDSET, FDSET, FDSET, TV } },
	{ 145, "readv", WORKER, { FD, IOV, INT } },
	{ 146, "writev", WORKER, { FD, IOV, INT } },
	{ 147, "getsid", WORKER, { PID } },
	{ 148, "fdatasync", WORKER, { FD } },
	{ 158, "sched_yield", WORKER, { X } },
	{ 162, "nanosleep", WORKER, { TS, PTR } },
	{ 168, "poll", WORKER, { POLLFD, INT, MSEC } },
	{ 172, "prctl", WORKER, { CMD, INT, INT, INT, INT } },
	{ 173, "rt_sigreturn", CHILD, { FRAME } },
	{ 174, "rt_sigaction", WORKER, { SIG, PTR, PTR, LEN } },
	{ 175, "rt_sigprocmask", WORKER, { INT, PTR, PTR, LEN } },
	{ 176, "rt_sigpending", WORKER, { PTR, LEN } },
	{ 179, "rt_sigsuspend", CHILD, { PTR, LEN } },
	{ 180, "pread64", WORKER, { FD, PTR, LEN, INT, INT } },
	{ 181, "pwrite64", WORKER, { FD, PTR, LEN, INT, INT } },
	{ 182, "chown", WORKER, { WPATH, UID, UID } },
	{ 183, "getcwd", WORKER, { PTR, LEN } },
	{ 190, "vfork", FORKISH, { X } },
	{ 191, "ugetrlimit", WORKER, { RES, PTR } },
	{ 192, "mmap2", WORKER, { ADDR, LEN, FLAGS, FLAGS, FD, INT } },
	{ 193, "truncate64", WORKER, { WPATH, INT, INT } },
	{ 194, "ftruncate64", WORKER, { WFD, INT, INT } },
	{ 195, "stat64", WORKER, { PATH, PTR } },
	{ 196, "lstat64", WORKER, { PATH, PTR } },
	{ 197, "fstat64", WORKER, { FD, PTR } },
	{ 198, "lchown32", WORKER, { WPATH, UID, UID } },
	{ 205, "getgroups32", WORKER, { INT, PTR } },
	{ 206, "setgroups32", WORKER, { INT, PTR } },
	{ 207, "fchown32", WORKER, { WFD, UID, UID } },
	{ 209, "getresuid32", WORKER, { PTR, PTR, PTR } },
	{ 211, "getresgid32", WORKER, { PTR, PTR, PTR } },
	{ 212, "chown32", WORKER, { WPATH, UID, UID } },
	{ 213, "setuid32", WORKER, { UID } },
	{ 214, "setgid32", WORKER, { UID } },
	{ 219, "madvise", WORKER, { ADDR, LEN, INT } },
	{ 220, "getdents64", WORKER, { FD, PTR, LEN } },
	{ 221, "fcntl64", WORKER, { FD, CMD, INT } },
	{ 224, "gettid", WORKER, { X } },
	{ 238, "tkill", WORKER, { PID, SIG } },
	{ 239, "sendfile64", WORKER, { FD, FD, PTR, LEN } },
	{ 240, "futex", WORKER, { PTR, INT, INT, TS, PTR, INT } },
	{ 243, "set_thread_area", CHILD, { PTR } },
	{ 244, "get_thread_area", WORKER, { PTR } },
	{ 245, "io_setup", WORKER, { INT, PTR } },
	{ 246, "io_destroy", WORKER, { AIO } },
	{ 247, "io_getevents", WORKER, { AIO, INT, INT, PTR, TS } },
	{ 248, "io_submit", WORKER, { AIO, INT, IOCBS } },
	{ 249, "io_cancel", WORKER, { AIO, PTR, PTR } },
	{ 252, "exit_group", CHILD, { INT } },
	{ 258, "set_tid_address", WORKER, { PTR } },
	{ 265, "clock_gettime", WORKER, { INT, PTR } },
	{ 266, "clock_getres", WORKER, { INT, PTR } },
	{ 267, "clock_nanosleep", WORKER, { INT, FLAGS, TS, PTR } },
	{ 268, "statfs64", WORKER, { PATH, LEN, PTR } },
	{ 270, "tgkill", WORKER, { PID, PID, SIG } },
	{ 271, "utimes", WORKER, { WPATH, PTR } },
	{ 295, "openat", WORKER, { FD, PATH, OFLAGS, MODE } },
	{ 296, "mkdirat", WORKER, { FD, WPATH, MODE } },
	{ 297, "mknodat", WORKER, { FD, WPATH, MODE, DEV } },
	{ 298, "fchownat", WORKER, { FD, WPATH, UID, UID, FLAGS } },
	{ 299, "futimesat", WORKER, { FD, WPATH, PTR } },
	{ 300, "fstatat64", WORKER, { FD, PATH, PTR, FLAGS } },
	{ 301, "unlinkat", WORKER, { FD, WPATH, FLAGS } },
	{ 302, "renameat", WORKER, { FD, WPATH, FD, WPATH } },
	{ 304, "symlinkat", WORKER, { WPATH, FD, WPATH } },
	{ 305, "readlinkat", WORKER, { FD, PATH, PTR, LEN } },
	{ 306, "fchmodat", WORKER, { FD, WPATH, MODE } },
	{ 307, "faccessat", WORKER, { FD, PATH, INT } },
	{ 308, "pselect6", WORKER, { INT, FDSET, FDSET, FDSET, TS, PTR } },
	{ 309, "ppoll", WORKER, { POLLFD, INT, TS, PTR, LEN } },
	{ 320, "utimensat", WORKER, { FD, WPATH, PTR, FLAGS } },
	{ 330, "dup3", WORKER, { FD, FD, FLAGS } },
	{ 331, "pipe2", WORKER, { PTR, FLAGS } },
	{ 340, "prlimit64", WORKER, { PID, RES, PTR, PTR } },
	{ 355, "getrandom", WORKER, { PTR, LEN, FLAGS } },
	{ 359, "socket", WORKER, { INT, INT, INT } },
	{ 360, "socketpair", WORKER, { INT, INT, INT, PTR } },
	{ 361, "bind", WORKER, { FD, SADDR, LEN } },
	{ 362, "connect", WORKER, { FD, SADDR, LEN } },
	{ 363, "listen", WORKER, { FD, INT } },
	{ 364, "accept4", WORKER, { FD, PTR, PTR, FLAGS } },
	{ 365, "getsockopt", WORKER, { FD, INT, INT, PTR, PTR } },
	{ 366, "setsockopt", WORKER, { FD, INT, INT, PTR, LEN } },
	{ 367, "getsockname", WORKER, { FD, PTR, PTR } },
	{ 368, "getpeername", WORKER, { FD, PTR, PTR } },
	{ 369, "sendto", WORKER, { FD, PTR, LEN, FLAGS, SADDR, LEN } },
	{ 370, "sendmsg", WORKER, { FD, MSG, FLAGS } },
	{ 371, "recvfrom", WORKER, { FD, PTR, LEN, FLAGS, PTR, PTR } },
	{ 372, "recvmsg", WORKER, { FD, MSG, FLAGS } },
	{ 373, "shutdown", WORKER, { FD, INT } },
	{ 383, "statx", WORKER, { FD, PATH, FLAGS, INT, PTR } },
	{ 403, "clock_gettime64", WORKER, { INT, PTR } },
	{ 406, "clock_getres_time64", WORKER, { INT, PTR } },
	{ 407, "clock_nanosleep_time64", WORKER, { INT, FLAGS, TS, PTR } },
	{ 412, "utimensat_time64", WORKER, { FD, WPATH, PTR, FLAGS } },
	{ 413, "pselect6_time64", WORKER, { INT, FDSET, FDSET, FDSET, TS, PTR } },
	{ 414, "ppoll_time64", WORKER, { POLLFD, INT, TS, PTR, LEN } },
	{ 422, "futex_time64", WORKER, { PTR, INT, INT, TS, PTR, INT } },
	{ 439, "faccessat2", WORKER, { FD, PATH, INT, FLAGS } },
	{ -1, "random", WORKER, { INT, INT, INT, INT, INT, INT } }, /* any number at all */
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

/* ---- the worker's state: its memory and its descriptors ---- */

static char *buf;	      /* BUF_PAGES pages, then an unmapped page */
static char *ropage;	      /* a read-only page */
static char *arena;	      /* ARENA_PAGES pages the memory calls may change */
static int pool[32], npool;   /* descriptors opened at the worker's start */
static int wpool[12], nwpool; /* those whose files may be changed */
static long aio_ctx;
static pid_t self, parent;
static int as_root, verbose;
static size_t slot; /* the next free byte of buf for this call's structures */

/* Files read but never changed; as root, opened read-only. */
static const char *const sys_paths[] = {
	"/sys/kernel/uevent_seqnum",
	"/sys/class/sbd/sbd0/ro",
	"/sys/class/sbd/sbd0/uevent",
	"/sys/class/sbd/sbd0",
	"/sys/class",
	"/sys",
	"/proc/self/status",
	"/proc/self/cmdline",
	"/proc/meminfo",
	"/proc/self",
	"/proc",
	"/proc/self/fd",
	"/proc/self/exe",
	"/dev/null",
	"/dev/zero",
	"/dev/full",
	"/dev/sbd0",
	"/dev/kmsg",
	"/",
	"/etc/passwd",
	"/bin/busybox",
	"/tmp",
	".",
	"..",
	"",
};
/* Names under the scratch directory, or relative to the worker's directory (there at first). */
static const char *const scratch_paths[] = {
	SCRATCH "/f",
	SCRATCH "/g",
	SCRATCH "/d",
	SCRATCH "/d/x",
	SCRATCH "/m",
	SCRATCH "/l",
	SCRATCH "/f/x",
	SCRATCH "/nope/x",
	SCRATCH "/p",
	"sfz-a",
	"sfz-b",
	"d/sfz-c",
};
static const char *const words[] = { "add", "change", "0", "1", "-1", "4096", "0x10", "x\n" };

/* Where a bad pointer may point: (void *)0xc0000000 and so on. */
static uint32_t bad_pointer(void)
{
	static const uint32_t bad[] = { 0, 8, 0x1000, 0xbffff000, 0xc0000000, 0xc0100000,
					0xfffff000, 0xffffffff, 0x80000000, 0x7ffffffe };

	return PICK(bad);
}

/* Space in buf for n bytes; now and then right at the end of its last page. */
static char *slot_for(size_t n)
{
	if (n < PAGE && below(8) == 0)
		return buf + BUF_PAGES * PAGE - n;
	if (slot + n > (BUF_PAGES - 1) * PAGE)
		slot = 0;
	slot += n + 4;
	return buf + slot - n - 4;
}

static uint32_t gen_int(void)
{
	static const uint32_t special[] = { 0, 1, 2, 3, 4,
					    7, 8, 16, 31, 32,
					    63, 64, 255, 256, 4095,
					    4096, 4097, 0x7fff, 0xffff, 0x10000,
					    0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0xfffff000,
					    0xc0000000 };

	switch (below(4)) {
	case 0:
		return PICK(special);
	case 1:
		return below(64);
	case 2:
		return rnd();
	default:
		return -(int32_t)below(40);
	}
}

static uint32_t gen_fd(void)
{
	static const int32_t odd[] = { -1, 0, 1, 2, 255, 256, 1024, 0x7fffffff, -100 /* AT_FDCWD */ };

	if (npool && below(4) != 0)
		return pool[below(npool)];
	return below(3) ? (uint32_t)PICK(odd) : below(40);
}

static uint32_t gen_len(void)
{
	static const uint32_t lens[] = { 0, 1, 2, 4, 8, 16, 64, 100, 4095, 4096, 4097, 8192,
					 65536, 0x7fffffff, 0x80000000, 0xffffffff };

	return below(3) ? PICK(lens) : below(512);
}

/* A buffer: valid somewhere in buf, near the end of its last page, read-only, or bad. */
static uint32_t gen_ptr(void)
{
	switch (below(10)) {
	case 0:
	case 1:
		return bad_pointer();
	case 2:
		return (uint32_t)(uintptr_t)(buf + BUF_PAGES * PAGE - PICK(((const int[]){ 1, 2, 4, 8, 16, 64, 200 })));
	case 3:
		return (uint32_t)(uintptr_t)(ropage + below(64));
	case 4:
		return (uint32_t)(uintptr_t)(arena + below(ARENA_PAGES) * PAGE);
	default:
		return (uint32_t)(uintptr_t)slot_for(256);
	}
}

/* A name: a copy in buf (maybe at the very end of the page, unterminated) or a bad pointer. */
static uint32_t gen_name(const char *name)
{
	size_t n = strlen(name) + 1;
	char *p;

	switch (below(12)) {
	case 0:
		return bad_pointer();
	case 1: /* without its terminating zero, against the unmapped page */
		p = buf + BUF_PAGES * PAGE - (n - 1);
		memcpy(p, name, n - 1);
		return (uint32_t)(uintptr_t)p;
	case 2: /* longer than PATH_MAX */
		p = slot_for(5000);
		memset(p, 'a', 4999);
		p[4999] = 0;
		return (uint32_t)(uintptr_t)p;
	default:
		p = slot_for(n);
		memcpy(p, name, n);
		return (uint32_t)(uintptr_t)p;
	}
}

static uint32_t gen_mode(void)
{
	static const uint32_t types[] = { 0, S_IFREG, S_IFDIR, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK,
					  S_IFLNK, 0xf000 };

	return below(5) ? (PICK(types) | below(010000)) : rnd();
}

static uint32_t gen_flags(void)
{
	uint32_t f = 0;

	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return rnd();
	default:
		for (int i = below(4); i >= 0; i--)
			f |= 1u << below(32);
		return f;
	}
}

static uint32_t gen_oflags(int root_safe)
{
	uint32_t f = below(3) | (below(2) ? 0 : gen_flags());

	if (root_safe) /* O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND off */
		f &= ~(3u | 0100u | 01000u | 02000u);
	return f;
}

static uint32_t gen_pid(void)
{
	static const int32_t odd[] = { 0, 99999, -99999, 0x7fffffff, (int32_t)0x80000000 };

	switch (below(3)) {
	case 0:
		return self;
	case 1:
		return -self; /* the worker's own process group */
	default:
		return PICK(odd);
	}
}

static uint32_t gen_ts(int usec)
{
	uint32_t *t = (uint32_t *)slot_for(8);

	if (below(6) == 0)
		return bad_pointer() | 0x1000; /* never NULL: that sleeps for ever */
	t[0] = below(6) ? 0 : PICK(((const uint32_t[]){ -1u, 0x80000000u }));
	t[1] = below(6) ? below(usec ? 3000 : 3000000) : PICK(((const uint32_t[]){ -1u, 1000000000u, 1000000u }));
	return (uint32_t)(uintptr_t)t;
}

static uint32_t gen_iov(void)
{
	int n = below(5);
	uint32_t *v = (uint32_t *)slot_for(8 * (n + 1));

	for (int i = 0; i < n; i++) {
		v[2 * i] = gen_ptr();
		v[2 * i + 1] = below(3) ? below(300) : gen_len();
	}
	return below(8) ? (uint32_t)(uintptr_t)v : bad_pointer();
}

static uint32_t gen_saddr(void)
{
	uint16_t *s = (uint16_t *)slot_for(16);

	for (int i = 0; i < 8; i++)
		s[i] = below(3) ? 0 : rnd();
	s[0] = below(3) ? 16 /* AF_NETLINK */ : below(3) ? below(50)
							 : rnd();
	return below(8) ? (uint32_t)(uintptr_t)s : bad_pointer();
}

static uint32_t gen_msg(void)
{
	uint32_t *m = (uint32_t *)slot_for(28);

	m[0] = gen_saddr();
	m[1] = below(2) ? 12 : gen_len();
	m[2] = gen_iov();
	m[3] = below(5);
	m[4] = gen_ptr();
	m[5] = gen_len();
	m[6] = gen_flags();
	return below(8) ? (uint32_t)(uintptr_t)m : bad_pointer();
}

static uint32_t gen_fdset(void)
{
	uint32_t *s = (uint32_t *)slot_for(128);

	if (below(4) == 0)
		return below(2) ? 0 : bad_pointer();
	for (int i = 0; i < 32; i++)
		s[i] = below(4) ? 0 : rnd();
	return (uint32_t)(uintptr_t)s;
}

static uint32_t gen_pollfd(void)
{
	int n = below(6);
	int32_t *p = (int32_t *)slot_for(8 * (n + 1));

	for (int i = 0; i < n; i++) {
		p[2 * i] = gen_fd();
		p[2 * i + 1] = below(2) ? 1 /* POLLIN */ : rnd();
	}
	return below(8) ? (uint32_t)(uintptr_t)p : bad_pointer();
}

static uint32_t gen_cmd(void)
{
	static const uint32_t cmds[] = {
		0,
		1,
		2,
		3,
		4,
		5,
		6,
		7,
		8,
		9,
		10,
		1024,
		1030,
		0x5401,
		0x5402,
		0x5413,
		0x541b,
		0x5421,
		0x5451,
		0x5450,
		0x1260,
		0x80041272,
		0x125d,
		0x125e,
		0x1261,
		0x1268,
		0x127b,
		0x4004e001,
		0x8008e002,
		0xc0047101,
		15,
		16,
		22,
		36,
		0xffffffff,
	};

	return below(4) ? PICK(cmds) : rnd();
}

static uint32_t gen_iocbs(void)
{
	int n = below(4);
	uint32_t *pp = (uint32_t *)slot_for(4 * (n + 1));

	for (int i = 0; i < n; i++) {
		uint32_t *cb = (uint32_t *)slot_for(64);

		memset(cb, 0, 64);
		cb[4] = below(9);			 /* aio_lio_opcode (16 bits) | aio_reqprio */
		cb[5] = gen_fd();			 /* aio_fildes */
		cb[6] = gen_ptr();			 /* aio_buf */
		cb[8] = gen_len();			 /* aio_nbytes */
		cb[10] = below(2) ? 0 : 512 * below(16); /* aio_offset */
		cb[14] = below(4) ? 0 : rnd();		 /* aio_flags */
		pp[i] = below(8) ? (uint32_t)(uintptr_t)cb : bad_pointer();
	}
	return below(8) ? (uint32_t)(uintptr_t)pp : bad_pointer();
}

static uint32_t gen_argv(void)
{
	uint32_t *v = (uint32_t *)slot_for(16);

	v[0] = gen_name(PICK(words));
	v[1] = below(3) ? 0 : gen_ptr();
	v[2] = 0;
	return below(4) ? (uint32_t)(uintptr_t)v : below(2) ? 0
							    : bad_pointer();
}

static uint32_t gen_addr(void)
{
	switch (below(6)) {
	case 0:
		return bad_pointer();
	case 1:
		return (uint32_t)(uintptr_t)(arena + below(ARENA_PAGES * PAGE));
	default:
		return (uint32_t)(uintptr_t)(arena + below(ARENA_PAGES) * PAGE);
	}
}

/* sigreturn's frame: the saved registers as random words, eflags' DF and TF often set. */
static uint32_t gen_frame(void)
{
	uint32_t *f = (uint32_t *)slot_for(1024);

	if (below(6) == 0)
		return bad_pointer();
	for (int i = 0; i < 256; i++)
		f[i] = below(2) ? rnd() : gen_int();
	/* eflags: sigreturn's sigcontext starts at word 2, rt_sigreturn's (uc_mcontext) at 42 */
	f[2 + 16] = f[42 + 16] = rnd() | (below(2) ? 0x400 : 0);
	return (uint32_t)(uintptr_t)(f + 2);
}

static uint32_t gen_dev(void)
{
	static const uint32_t devs[] = { 0, 0x103, 0x105, 0x107, 0xc801, 0xffffffff, 0xfff00 };

	return PICK(devs); /* never a disk's: the worker must not write over one */
}

/* The buffers of a call start out as a mix of zeros, random words and little strings. */
static void fill(void)
{
	uint32_t *w = (uint32_t *)buf;

	for (unsigned i = 0; i < BUF_PAGES * PAGE / 4; i += 8) {
		uint32_t r = rnd();

		w[i] = r & 1 ? r : 0;
		w[i + 1] = r & 2 ? below(64) : 0;
		if ((r & 0x1c) == 0)
			strcpy((char *)&w[i + 2], words[r >> 29]);
	}
	slot = 0;
}

static uint32_t gen(enum arg a, const struct call *c)
{
	switch (a) {
	case X:
		return 0;
	case INT:
		return gen_int();
	case FD:
		return gen_fd();
	case WFD:
		/* never a real file's: fchmod as root would change /sys for good */
		return nwpool && below(4) ? (uint32_t)wpool[below(nwpool)] : PICK(((const uint32_t[]){ -1u, 255, 1024 }));
	case LEN:
		return gen_len();
	case PTR:
		return gen_ptr();
	case PATH:
		return gen_name(below(4) ? PICK(sys_paths) : PICK(scratch_paths));
	case WPATH:
		return gen_name(PICK(scratch_paths));
	case OFLAGS:
		return gen_oflags(0);
	case FLAGS:
		return gen_flags();
	case MODE:
		return gen_mode();
	case PID:
		return gen_pid();
	case SIG:
		return below(8) ? below(65) : rnd();
	case UID:
		return PICK(((const uint32_t[]){ 0, 65534, 1000, -1u, 0x7fffffff, 1 }));
	case ADDR:
		return gen_addr();
	case IOV:
		return gen_iov();
	case MSG:
		return gen_msg();
	case SADDR:
		return gen_saddr();
	case TS:
		return gen_ts(0);
	case TV:
		return gen_ts(1);
	case FDSET:
		return gen_fdset();
	case POLLFD:
		return gen_pollfd();
	case CMD:
		return gen_cmd();
	case RES:
		return below(6) ? below(16) : rnd();
	case AIO:
		return below(3) ? (uint32_t)aio_ctx : below(2) ? 0
							       : rnd();
	case IOCBS:
		return gen_iocbs();
	case ARGV:
		return gen_argv();
	case MSEC:
		return below(4);
	case DEV:
		return gen_dev();
	case FRAME:
		return gen_frame();
	case FSTYPE:
		return gen_name(PICK(((const char *const[]){ "ramfs", "tmpfs", "ext2", "nofs", "" })));
	}
	(void)c;
	return 0;
}

/* ---- making the calls ---- */

/* Six arguments in ebx, ecx, edx, esi, edi, ebp; the result as the kernel gives it (-errno). */
long raw_syscall(long nr, long a, long b, long c, long d, long e, long f);
/* The same for fork, vfork and clone, whose child exits at once (it may share this stack). */
long raw_forkish(long nr, long a, long b, long c, long d, long e);
/* sigreturn and rt_sigreturn with the stack pointer at sp: no return unless it fails. */
long raw_sigreturn(long nr, long sp);
__asm__(".text\n"
	".globl raw_syscall\n"
	"raw_syscall:\n"
	"	push %ebp; push %ebx; push %esi; push %edi\n"
	"	mov 20(%esp), %eax; mov 24(%esp), %ebx; mov 28(%esp), %ecx\n"
	"	mov 32(%esp), %edx; mov 36(%esp), %esi; mov 40(%esp), %edi\n"
	"	mov 44(%esp), %ebp\n"
	"	int $0x80\n"
	"	pop %edi; pop %esi; pop %ebx; pop %ebp\n"
	"	ret\n"
	".globl raw_forkish\n"
	"raw_forkish:\n"
	"	push %ebx; push %esi; push %edi\n"
	"	mov 16(%esp), %eax; mov 20(%esp), %ebx; mov 24(%esp), %ecx\n"
	"	mov 28(%esp), %edx; mov 32(%esp), %esi; mov 36(%esp), %edi\n"
	"	int $0x80\n"
	"	test %eax, %eax\n"
	"	jnz 1f\n"
	"	mov $1, %eax; xor %ebx, %ebx\n"
	"	int $0x80\n"
	"1:	pop %edi; pop %esi; pop %ebx\n"
	"	ret\n"
	".globl raw_sigreturn\n"
	"raw_sigreturn:\n"
	"	mov 4(%esp), %eax; mov 8(%esp), %esp\n"
	"	int $0x80\n"
	"	ud2\n");

static void say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	if (write(fd, line, n) < 0)
		return;
}

/* Waits up to ms for pid; kills it (and its group) if it is still there. */
static void wait_or_kill(pid_t pid, int ms, int *status)
{
	struct timespec tick = { 0, 1000000 };

	for (int i = 0; i < ms; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
}

/* The arguments of call i: the same for the same seed and index, whatever came before. */
static const struct call *draw(uint64_t seed, uint32_t i, uint32_t *args)
{
	const struct call *c;

	rng_state = seed * 0x100000001b3ull ^ ((uint64_t)i << 20) ^ 0x5f5f;
	rnd();
	c = &calls[below(NCALLS)];
	fill();
	for (int k = 0; k < 6; k++)
		args[k] = gen(c->a[k], c);
	if (c->nr == 5 || c->nr == 295) { /* open, openat: a real file only to read */
		int k = c->nr == 5 ? 0 : 1, scratch = below(2);

		args[k] = gen_name(scratch ? PICK(scratch_paths) : PICK(sys_paths));
		args[k + 1] = gen_oflags(!scratch);
	}
	return c;
}

/* Refuses what would hurt the supervisor, the console or the machine rather than the kernel. */
static int harmful(const struct call *c, uint32_t *a)
{
	for (int k = 0; k < 6; k++)
		if ((c->a[k] == FD || c->a[k] == WFD) && (a[k] == LOG_FD || a[k] == PROG_FD))
			a[k] = -1;
	for (int k = 0; k < 6; k++)
		if (c->a[k] == PID && ((int32_t)a[k] == -1 || (int32_t)a[k] == parent ||
				       (int32_t)a[k] == -parent || a[k] == 1))
			a[k] = self;
	if (c->nr == 37 || c->nr == 238 || c->nr == 270) { /* kill, tkill, tgkill */
		uint32_t *sig = &a[c->nr == 270 ? 2 : 1];

		if (*sig == SIGKILL || *sig == SIGSTOP || (*sig >= SIGTSTP && *sig <= SIGTTOU))
			*sig = 0; /* the worker would stop or die: only whether it exists */
	}
	return c->nr == 88 && (a[0] == 0xfee1dead || a[1] == 0xfee1dead);
}

/* Whether a memory call reaches outside the arena (then a child makes it). */
static int outside_arena(const struct call *c, const uint32_t *a)
{
	uint32_t lo = (uint32_t)(uintptr_t)arena, hi = lo + ARENA_PAGES * PAGE;

	if (c->nr != 91 && c->nr != 125 && c->nr != 192 && c->nr != 219)
		return 0;
	if (c->nr == 192 && !(a[3] & MAP_FIXED))
		return 0;
	return a[0] < lo || a[0] >= hi || a[1] > hi - a[0];
}

static long make_call(const struct call *c, uint32_t *a, long nr)
{
	pid_t pid;
	int status;
	long r;

	if (c->how == FORKISH) {
		r = raw_forkish(nr, a[0], a[1], a[2], a[3], a[4]);
		while (waitpid(-1, &status, WNOHANG | __WALL) > 0)
			;
		return r;
	}
	if (c->how == CHILD || outside_arena(c, a)) {
		pid = fork();
		if (pid < 0)
			return -errno;
		if (pid == 0 && (nr == 119 || nr == 173))
			raw_sigreturn(nr, a[0]);
		if (pid == 0)
			_exit((int)raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]) & 0xff);
		wait_or_kill(pid, CHILD_MS, &status);
		return WIFSIGNALED(status) ? 1000 + WTERMSIG(status) : WEXITSTATUS(status);
	}
	return raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- the worker ---- */

static void add_pool(int fd, int writable)
{
	if (fd < 0 || npool >= (int)(sizeof(pool) / sizeof(pool[0])))
		return;
	pool[npool++] = fd;
	if (writable && nwpool < (int)(sizeof(wpool) / sizeof(wpool[0])))
		wpool[nwpool++] = fd;
}

static void open_pool(void)
{
	int p[2];

	for (unsigned i = 0; i < 19; i++) /* the real files, up to /etc/passwd */
		add_pool(open(sys_paths[i], O_RDONLY | O_NONBLOCK), 0);
	add_pool(open("/dev/null", O_RDWR), 0);
	add_pool(open("/dev/sbd0", O_RDONLY | O_DIRECT), 0); /* AIO's reads */
	add_pool(open(SCRATCH "/f", O_RDWR | O_CREAT, 0644), 1);
	add_pool(open(SCRATCH, O_RDONLY | O_DIRECTORY), 1);
	if (pipe2(p, O_NONBLOCK) == 0) {
		write(p[1], "pipe", 4);
		add_pool(p[0], 1);
		add_pool(p[1], 1);
	}
	add_pool(socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK, 15), 1);
	add_pool(socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK, 15), 1);
	aio_ctx = 0;
	raw_syscall(245, 4, (long)&aio_ctx, 0, 0, 0, 0);
}

static void on_signal(int sig) { (void)sig; }

static void setup_worker(int prog_w)
{
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	self = getpid();
	dup2(1, LOG_FD);
	dup2(prog_w, PROG_FD);
	fcntl(PROG_FD, F_SETFD, FD_CLOEXEC);
	fcntl(LOG_FD, F_SETFD, FD_CLOEXEC);
	close(prog_w);
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	if (null > 2)
		close(null);
	for (int sig = 1; sig < 65; sig++) /* a signal it sends itself runs a handler */
		signal(sig, sig == SIGPIPE ? SIG_IGN : on_signal);
	buf = mmap(NULL, (BUF_PAGES + 1) * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	munmap(buf + BUF_PAGES * PAGE, PAGE);
	ropage = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(ropage, 0x5a, PAGE);
	mprotect(ropage, PAGE, PROT_READ);
	arena = mmap(NULL, ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (chdir(SCRATCH) != 0)
		chdir("/tmp");
	open_pool();
}

static void log_call(uint32_t i, long nr, const struct call *c, const uint32_t *a)
{
	say(LOG_FD, "sysfuzz: #%u %ld %s(%#x, %#x, %#x, %#x, %#x, %#x)", i, nr, c->name, a[0], a[1],
	    a[2], a[3], a[4], a[5]);
}

static void worker(uint64_t seed, uint32_t first, uint32_t end, int prog_w)
{
	uint32_t a[6];

	setup_worker(prog_w);
	for (uint32_t i = first; i != end; i++) {
		const struct call *c = draw(seed, i, a);
		long nr = c->nr >= 0 ? c->nr : (long)(below(2) ? below(460) : rnd());
		long r;

		if (c->nr < 0 && (nr == 1 || nr == 252 || nr == 29 || nr == 2 || nr == 190 ||
				  nr == 120 || nr == 11 || nr == 119 || nr == 173 || nr == 179 ||
				  nr == 45 || nr == 243 || nr == 91 || nr == 125 || nr == 192 ||
				  nr == 88 || nr == 37 || nr == 238 || nr == 270 || nr == 340 ||
				  nr == 57 || nr == 162 || nr == 267 || nr == 407))
			nr = 1000 + nr; /* a number with rules of its own: made with its own table entry */
		if (write(PROG_FD, &i, sizeof(i)) != sizeof(i))
			_exit(3);
		if (harmful(c, a))
			continue;
		if (verbose)
			log_call(i, nr, c, a);
		r = make_call(c, a, nr);
		if (verbose)
			say(LOG_FD, " = %ld\n", r);
	}
	_exit(0);
}

/* ---- the supervisor ---- */

struct totals {
	uint32_t calls, workers, died, stuck;
};

/* The name of call i, for the supervisor's lines: drawn again, as the worker drew it. */
static const char *name_of(uint64_t seed, uint32_t i)
{
	static char buf_space[(BUF_PAGES + 1) * PAGE] __attribute__((aligned(4096)));
	uint32_t a[6];

	if (!buf) { /* the supervisor draws into a buffer of its own */
		buf = ropage = arena = buf_space;
	}
	return draw(seed, i, a)->name;
}

/* Runs calls first..end-1 in a worker; returns the index after the last one begun. */
static uint32_t supervise(uint64_t seed, uint32_t first, uint32_t end, struct totals *t)
{
	int p[2], status = 0;
	uint32_t last = first - 1, got;
	struct pollfd pfd;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return end;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		worker(seed, first, end, p[1]);
	}
	close(p[1]);
	t->workers++;
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	for (;;) {
		int n = poll(&pfd, 1, WATCHDOG_MS);

		if (n == 0) {
			say(1, "sysfuzz: call %u (%s) took over %d ms: killed\n", last,
			    name_of(seed, last), WATCHDOG_MS);
			t->stuck++;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || read(p[0], &got, sizeof(got)) != sizeof(got))
			break;
		last = got;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	kill(-pid, SIGKILL); /* whatever the worker left behind in its group */
	while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		last = end - 1;
	else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
		say(1, "sysfuzz: worker died of signal %d at call %u (%s)\n", WTERMSIG(status), last,
		    name_of(seed, last));
		t->died++;
	}
	if (last + 1 == first) /* not one call begun: the next worker starts after it */
		last = first;
	t->calls += last + 1 - first;
	return last + 1;
}

/* ---- cleaning up ---- */

/* Removes path and what is under it, never crossing into another file system. */
static void remove_tree(const char *path, dev_t dev)
{
	char sub[512];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	for (int i = 0; i < 8 && umount(path) == 0; i++)
		;
	if (lstat(path, &st) != 0 || (dev && st.st_dev != dev))
		return;
	if (unlink(path) == 0 || rmdir(path) == 0 || !S_ISDIR(st.st_mode))
		return;
	chmod(path, 0700);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
		remove_tree(sub, st.st_dev);
	}
	closedir(dir);
	rmdir(path);
}

/* The scratch tree, and what relative names may have made where the worker went. */
static void clean_up(void)
{
	static const char *const dirs[] = { "/", "/tmp", "/sys", "/sys/class", "/sys/class/sbd/sbd0",
					    "/proc", "/dev" };
	char path[256];

	if (chdir("/") != 0)
		return;
	remove_tree(SCRATCH, 0);
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/sfz-a", dirs[i]);
		remove_tree(path, 0);
		snprintf(path, sizeof(path), "%s/sfz-b", dirs[i]);
		remove_tree(path, 0);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: sysfuzz [-v] [-u UID] [-f FIRST] SEED COUNT|SECONDSs\n");
	return 2;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct totals t = { 0 };
	uint32_t first = 0, i, end;
	uint64_t seed;
	double stop = 0;
	char ro[4] = "";
	int opt, fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	while ((opt = getopt(argc, argv, "vu:f:")) != -1) {
		if (opt == 'v')
			verbose = 1;
		else if (opt == 'u') {
			uid_t uid = (uid_t)strtoul(optarg, NULL, 0);

			if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0) {
				perror("sysfuzz: setuid");
				return 1;
			}
		} else if (opt == 'f')
			first = (uint32_t)strtoul(optarg, NULL, 0);
		else
			return usage();
	}
	if (argc - optind != 2)
		return usage();
	seed = strtoull(argv[optind], NULL, 0);
	end = (uint32_t)strtoul(argv[optind + 1], NULL, 0);
	if (strchr(argv[optind + 1], 's')) {
		stop = now() + end;
		end = 0xffffffffu;
	} else
		end += first;
	as_root = geteuid() == 0;
	parent = getpid();
	mkdir(SCRATCH, 0777);
	mkdir(SCRATCH "/d", 0777);
	if ((fd = open("/sys/class/sbd/sbd0/ro", O_RDONLY)) >= 0) {
		if (read(fd, ro, 2) < 0)
			ro[0] = 0;
		close(fd);
	}
	printf("sysfuzz: seed %llu, uid %d, calls from %u\n", (unsigned long long)seed, (int)geteuid(),
	       first);
	for (i = first; i < end && (!stop || now() < stop);) {
		uint32_t batch_end = (i / BATCH + 1) * BATCH;

		i = supervise(seed, i, batch_end < end ? batch_end : end, &t);
	}
	clean_up();
	if (as_root && ro[0] && (fd = open("/sys/class/sbd/sbd0/ro", O_WRONLY)) >= 0) {
		if (write(fd, ro, 1) < 0)
			perror("sysfuzz: sbd0/ro");
		close(fd);
	}
	printf("sysfuzz: seed %llu: %u calls, %u workers, %u died, %u stuck\n",
	       (unsigned long long)seed, t.calls, t.workers, t.died, t.stuck);
	return 0;
}
