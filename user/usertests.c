/*
 * usertests.c: the system calls user space relies on, each test a small
 * program of its own with the result Linux gives, after xv6's usertests.
 * Built with `gcc -m32 -static` (make user); the same binary runs on
 * Debian's i386 Linux (make usertests-linux) and, with processes, on
 * Kobold, so that every expectation here is Linux's behaviour.
 *
 *   usertests [NAME...]     all tests, or those named; prints "ok NAME" or
 *                           "FAIL NAME: why", then "usertests: N passed, N failed"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <asm/ldt.h>
#include <time.h>
#include <unistd.h>

#define TEST_BRIEF /* reasons as "COND (errno N)" */
#include "test.h"

#define TMP "/tmp/usertests"

/* ---- files ---- */

static void write_read_lseek(void)
{
	char buf[16] = { 0 };
	int fd = open(TMP "-f", O_CREAT | O_TRUNC | O_RDWR, 0644);

	CHECK(fd >= 0);
	CHECK(write(fd, "hello, world", 12) == 12);
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	CHECK(read(fd, buf, sizeof(buf)) == 5 && memcmp(buf, "world", 5) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0); /* end of file */
	CHECK(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL);
	CHECK(close(fd) == 0);
	CHECK(unlink(TMP "-f") == 0);
}

/* ftruncate wants a regular file open for writing; truncate a regular file (2.6's do_sys_*truncate). */
static void truncate_errors(void)
{
	int fd = open(TMP "-t", O_CREAT | O_TRUNC | O_RDWR, 0644), ro, p[2];
	struct stat st;

	CHECK(fd >= 0 && write(fd, "hello", 5) == 5);
	CHECK(ftruncate(fd, 2) == 0 && fstat(fd, &st) == 0 && st.st_size == 2);
	CHECK(syscall(SYS_ftruncate, fd, -1L) == -1 && errno == EINVAL);
	CHECK(syscall(SYS_truncate, TMP "-t", -1L) == -1 && errno == EINVAL);
	CHECK((ro = open(TMP "-t", O_RDONLY)) >= 0);
	CHECK(ftruncate(ro, 0) == -1 && errno == EINVAL);
	CHECK(fstat(fd, &st) == 0 && st.st_size == 2);
	CHECK(pipe(p) == 0);
	CHECK(ftruncate(p[1], 0) == -1 && errno == EINVAL);
	CHECK(pwrite(p[1], "x", 1, 0) == -1 && errno == ESPIPE);
	CHECK(pread(p[0], &st, 1, 0) == -1 && errno == ESPIPE);
	CHECK(truncate("/dev/null", 0) == -1 && errno == EINVAL);
	CHECK(truncate("/tmp", 0) == -1 && errno == EISDIR);
	close(p[0]);
	close(p[1]);
	close(ro);
	close(fd);
	CHECK(unlink(TMP "-t") == 0);
}

/* A write or a truncate past the largest file size: EFBIG, and the file as it was. */
static void efbig_far_past_the_end(void)
{
	int fd = (int)syscall(SYS_open, TMP "-b", O_CREAT | O_TRUNC | O_RDWR, 0644); /* no O_LARGEFILE */
	char buf[8] = { 0 };
	struct stat st;

	CHECK(fd >= 0 && write(fd, "abc", 3) == 3);
	CHECK(pwrite64(fd, "XYZ", 3, 1ll << 44) == -1 && errno == EFBIG);
	CHECK(pwrite64(fd, "XYZ", 3, -4096) == -1 && errno == EINVAL);
	CHECK(pread64(fd, buf, 3, -1) == -1 && errno == EINVAL);
	CHECK(fstat(fd, &st) == 0 && st.st_size == 3);
	CHECK(pread(fd, buf, sizeof(buf), 0) == 3 && memcmp(buf, "abc", 3) == 0);
	close(fd);
	CHECK(unlink(TMP "-b") == 0);
}

static void bad_fd(void)
{
	char c;

	CHECK(read(-1, &c, 1) == -1 && errno == EBADF);
	CHECK(write(1000, &c, 1) == -1 && errno == EBADF);
	CHECK(close(1000) == -1 && errno == EBADF);
	CHECK(dup2(1000, 5) == -1 && errno == EBADF);
}

static void open_errors(void)
{
	CHECK(open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT);
	CHECK(open("/proc/self/nonexistent", O_RDONLY) == -1 && errno == ENOENT);
	CHECK(mkdir(TMP "-d", 0755) == 0);
	CHECK(open(TMP "-d", O_WRONLY) == -1 && errno == EISDIR);
	CHECK(open(TMP "-d/x/y", O_CREAT | O_WRONLY, 0644) == -1 && errno == ENOENT);
	CHECK(mkdir(TMP "-d", 0755) == -1 && errno == EEXIST);
	CHECK(rmdir(TMP "-d") == 0);
}

static void stat_and_getdents(void)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;
	int seen = 0;

	CHECK(mkdir(TMP "-s", 0755) == 0);
	CHECK(close(open(TMP "-s/a", O_CREAT | O_WRONLY, 0600)) == 0);
	CHECK(stat(TMP "-s/a", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0);
	CHECK((st.st_mode & 0777) == 0600);
	CHECK(stat(TMP "-s", &st) == 0 && S_ISDIR(st.st_mode));
	CHECK((dir = opendir(TMP "-s")) != NULL);
	while ((d = readdir(dir)))
		seen |= strcmp(d->d_name, "a") == 0 ? 1 : strcmp(d->d_name, ".") == 0 ? 2
										      : 0;
	closedir(dir);
	CHECK(seen == 3);
	CHECK(rmdir(TMP "-s") == -1 && errno == ENOTEMPTY);
	CHECK(unlink(TMP "-s/a") == 0 && rmdir(TMP "-s") == 0);
}

static void rename_symlink_readlink(void)
{
	char buf[64];
	ssize_t n;

	CHECK(close(open(TMP "-r1", O_CREAT | O_WRONLY, 0644)) == 0);
	CHECK(rename(TMP "-r1", TMP "-r2") == 0);
	CHECK(access(TMP "-r1", F_OK) == -1 && errno == ENOENT);
	CHECK(symlink(TMP "-r2", TMP "-l") == 0);
	CHECK((n = readlink(TMP "-l", buf, sizeof(buf))) == (ssize_t)strlen(TMP "-r2"));
	CHECK(memcmp(buf, TMP "-r2", (size_t)n) == 0);
	CHECK(readlink(TMP "-r2", buf, sizeof(buf)) == -1 && errno == EINVAL);
	CHECK(unlink(TMP "-l") == 0 && unlink(TMP "-r2") == 0);
}

static void chdir_getcwd(void)
{
	char buf[256];

	CHECK(chdir("/tmp") == 0);
	CHECK(getcwd(buf, sizeof(buf)) && strcmp(buf, "/tmp") == 0);
	CHECK(chdir("..") == 0 && getcwd(buf, sizeof(buf)) && strcmp(buf, "/") == 0);
	CHECK(chdir("/nonexistent") == -1 && errno == ENOENT);
	CHECK(getcwd(buf, 1) == NULL && errno == ERANGE);
}

static void dup_and_pipe(void)
{
	int p[2], fd;
	char buf[8];

	CHECK(pipe(p) == 0);
	CHECK((fd = dup(p[1])) > p[1]);
	CHECK(write(fd, "ab", 2) == 2 && close(fd) == 0);
	CHECK(write(p[1], "c", 1) == 1 && close(p[1]) == 0);
	CHECK(read(p[0], buf, sizeof(buf)) == 3 && memcmp(buf, "abc", 3) == 0);
	CHECK(read(p[0], buf, sizeof(buf)) == 0); /* every writer closed: end of file */
	CHECK(close(p[0]) == 0);
	CHECK(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0);
	CHECK(read(p[0], buf, 1) == -1 && errno == EAGAIN);
	CHECK((fcntl(p[0], F_GETFD) & FD_CLOEXEC) != 0);
	close(p[0]);
	close(p[1]);
}

/* ---- bad pointers ---- */

static void efault(void)
{
	/* volatile: the compiler must not see through them and warn or fold */
	void *volatile kernel = (void *)0xc0100000; /* the kernel's half on i386 */
	void *volatile page0 = (void *)8;	    /* page 0: never mapped */
	int p[2];

	CHECK(write(1, kernel, 1) == -1 && errno == EFAULT);
	CHECK(write(1, page0, 1) == -1 && errno == EFAULT);
	CHECK(open((char *)kernel, O_RDONLY) == -1 && errno == EFAULT);
	CHECK(pipe((int *)kernel) == -1 && errno == EFAULT);
	CHECK(pipe(p) == 0);
	CHECK(write(p[1], "x", 1) == 1 && read(p[0], kernel, 1) == -1 && errno == EFAULT);
	close(p[0]);
	close(p[1]);
}

static void enosys(void)
{
	CHECK(syscall(1000) == -1 && errno == ENOSYS);
}

/* ---- processes ---- */

static void fork_wait_exit(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(42);
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	CHECK(waitpid(pid, &status, 0) == -1 && errno == ECHILD);
}

static void fork_copies_memory(void)
{
	static volatile int shared = 1;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		shared = 2;
		_exit(shared == 2 ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(shared == 1); /* the child wrote its own copy */
}

static void getpid_family(void)
{
	int fds[2], status;
	pid_t pid, parent = getpid(), seen;

	CHECK(parent > 0 && getppid() > 0 && getpid() == syscall(SYS_getpid));
	CHECK(pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		seen = getppid();
		write(fds[1], &seen, sizeof(seen));
		_exit(0);
	}
	CHECK(read(fds[0], &seen, sizeof(seen)) == sizeof(seen) && seen == parent);
	CHECK(waitpid(pid, &status, 0) == pid);
	close(fds[0]);
	close(fds[1]);
}

static void exec_with_args(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "usertests", "--exec-child", "two words", NULL };
		char *envp[] = { "USERTESTS=env", NULL };

		execve("/proc/self/exe", argv, envp);
		_exit(99);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 7);
	CHECK(execve("/nonexistent", (char *[]){ NULL }, (char *[]){ NULL }) == -1 && errno == ENOENT);
}

/* The exec'd child: its argv, envp and auxv as the kernel built them. */
static int exec_child(int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[2], "two words") != 0)
		return 1;
	if (!getenv("USERTESTS") || strcmp(getenv("USERTESTS"), "env") != 0)
		return 2;
	return 7;
}

static void wait_reaps_orphans_of_children(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (fork() == 0)
			_exit(0); /* the grandchild: its parent is gone, init reaps it */
		_exit(3);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WEXITSTATUS(status) == 3);
	CHECK(wait(&status) == -1 && errno == ECHILD); /* the grandchild is not ours */
}

/* ---- signals ---- */

static volatile sig_atomic_t got;

static void on_signal(int sig) { got = sig; }

static void signal_handler_and_mask(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t set;

	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	got = 0;
	CHECK(kill(getpid(), SIGUSR1) == 0 && got == SIGUSR1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	got = 0;
	CHECK(sigprocmask(SIG_BLOCK, &set, NULL) == 0);
	CHECK(kill(getpid(), SIGUSR1) == 0 && got == 0); /* blocked: pending */
	CHECK(sigprocmask(SIG_UNBLOCK, &set, NULL) == 0 && got == SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	CHECK(kill(-1234567, SIGUSR1) == -1 && errno == ESRCH);
	CHECK(kill(getpid(), 1000) == -1 && errno == EINVAL);
}

static void sigchld_and_kill(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int status;
	pid_t pid;

	CHECK(sigaction(SIGCHLD, &sa, NULL) == 0);
	got = 0;
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	CHECK(kill(pid, SIGKILL) == 0);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK(got == SIGCHLD);
	signal(SIGCHLD, SIG_DFL);
}

/* Until pid's state in /proc/PID/stat is c (S asleep, T stopped), for 5 s at most. */
static void wait_for_state(pid_t pid, char c)
{
	char path[64], stat[256];
	const char *state;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 5000; i++) {
		f = open(path, O_RDONLY);
		n = f < 0 ? -1 : read(f, stat, sizeof(stat) - 1);
		close(f);
		stat[n > 0 ? n : 0] = '\0';
		state = strrchr(stat, ')');
		if (state && state[1] == ' ' && state[2] == c)
			return;
		usleep(1000);
	}
}

/* The child waits until its parent sleeps (state S in /proc/PPID/stat), signals it, then writes text. */
static void signal_a_sleeping_reader(int fd, const char *text)
{
	wait_for_state(getppid(), 'S');
	kill(getppid(), SIGUSR1);
	usleep(20000);
	write(fd, text, strlen(text));
	_exit(0);
}

/* A read that a handled signal interrupts: EINTR, or read again with SA_RESTART (ERESTARTSYS). */
static void sa_restart_read(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int p[2], status;
	char c = 0;
	pid_t pid;

	for (int restart = 0; restart < 2; restart++) {
		sa.sa_flags = restart ? SA_RESTART : 0;
		CHECK(sigaction(SIGUSR1, &sa, NULL) == 0 && pipe(p) == 0);
		got = 0;
		pid = fork();
		if (pid == 0)
			signal_a_sleeping_reader(p[1], "x");
		if (restart)
			CHECK(read(p[0], &c, 1) == 1 && c == 'x' && got == SIGUSR1);
		else
			CHECK(read(p[0], &c, 1) == -1 && errno == EINTR && got == SIGUSR1);
		CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
		close(p[0]);
		close(p[1]);
	}
	signal(SIGUSR1, SIG_DFL);
}

/*
 * The same for a driver's sleep: a uevent socket's recv sleeps in
 * wait_event_interruptible, whose -ERESTARTSYS runs it again after an
 * SA_RESTART handler (2.6's sock_intr_errno); the child's "change" written
 * to /dev/null's uevent file is what it then receives.
 */
static void sa_restart_netlink_recv(void)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	struct sigaction sa = { .sa_handler = on_signal };
	int sock, fd, status;
	char buf[512];
	ssize_t n;
	pid_t pid;

	for (int restart = 0; restart < 2; restart++) {
		sa.sa_flags = restart ? SA_RESTART : 0;
		CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
		sock = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
		CHECK(sock >= 0 && bind(sock, (struct sockaddr *)&nl, sizeof(nl)) == 0);
		CHECK((fd = open("/sys/class/mem/null/uevent", O_WRONLY)) >= 0);
		got = 0;
		pid = fork();
		if (pid == 0)
			signal_a_sleeping_reader(fd, "change");
		n = recv(sock, buf, sizeof(buf) - 1, 0);
		if (restart) {
			CHECK(n > 0 && got == SIGUSR1);
			buf[n] = '\0';
			CHECK(strncmp(buf, "change@", 7) == 0 && strstr(buf, "/mem/null"));
		} else {
			CHECK(n == -1 && errno == EINTR && got == SIGUSR1);
		}
		CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
		close(fd);
		close(sock);
	}
	signal(SIGUSR1, SIG_DFL);
}

/* The child stops its sleeping parent and continues it (no handler runs), then writes text. */
static void stop_and_continue_a_sleeper(int fd, const char *text)
{
	pid_t parent = getppid();

	wait_for_state(parent, 'S');
	kill(parent, SIGSTOP);
	wait_for_state(parent, 'T');
	kill(parent, SIGCONT);
	wait_for_state(parent, 'S'); /* asleep again: the call restarted */
	usleep(20000);
	write(fd, text, strlen(text));
	_exit(0);
}

/* i386's ppoll (309) with its own timespec, which the kernel writes the time left to. */
struct ts32 {
	int sec, nsec;
};

static int ppoll32(struct pollfd *fds, int n, struct ts32 *ts, const unsigned long long *mask)
{
	return (int)syscall(309, fds, n, ts, mask, mask ? 8 : 0);
}

/* i386's select (142, _newselect), 2.6.15's: glibc's select() calls pselect6 (2.6.16). */
static int select32(int n, fd_set *in, struct timeval *tv)
{
	return (int)syscall(142, n, in, NULL, NULL, tv);
}

/*
 * select, ppoll and pselect6 (glibc's select()) that a stop and SIGCONT
 * interrupt (no handler runs) run again, with the time left they wrote back
 * (-ERESTARTNOHAND); after a handler, even an SA_RESTART one, they fail
 * with EINTR.
 */
static void select_ppoll_restart_after_a_stop(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	int p[2], status, r;
	pid_t pid;

	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	for (int i = 0; i < 6; i++) {
		bool stop = i < 3, use_select = i % 3 != 1, glibc = i % 3 == 2;
		struct timeval tv = { 5, 0 };
		struct ts32 ts = { 5, 0 };
		struct pollfd pfd;
		fd_set in;

		CHECK(pipe(p) == 0);
		pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
		FD_ZERO(&in);
		FD_SET(p[0], &in);
		got = 0;
		pid = fork();
		if (pid == 0) {
			if (stop)
				stop_and_continue_a_sleeper(p[1], "x");
			signal_a_sleeping_reader(p[1], "x");
		}
		if (glibc)
			r = select(p[0] + 1, &in, NULL, NULL, &tv);
		else
			r = use_select ? select32(p[0] + 1, &in, &tv) : ppoll32(&pfd, 1, &ts, NULL);
		if (stop) {
			CHECK(r == 1 && got == 0);
			CHECK(use_select ? tv.tv_sec < 5 && FD_ISSET(p[0], &in) : ts.sec < 5 && pfd.revents == POLLIN);
		} else
			CHECK(r == -1 && errno == EINTR && got == SIGUSR1);
		CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
		close(p[0]);
		close(p[1]);
	}
	signal(SIGUSR1, SIG_DFL);
}

/* One call (ppoll, or pselect if use_pselect) under an empty mask, SIGUSR1 blocked outside it. */
static void masked_wait(bool use_pselect)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long long none = 0;
	sigset_t block, now, empty;
	struct pollfd pfd;
	int p[2], status, r, err;
	fd_set in;
	pid_t pid;

	sigemptyset(&block);
	sigemptyset(&empty);
	sigaddset(&block, SIGUSR1);
	CHECK(pipe(p) == 0 && sigaction(SIGUSR1, &sa, NULL) == 0);
	CHECK(sigprocmask(SIG_BLOCK, &block, NULL) == 0);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	got = 0;
	pid = fork();
	if (pid == 0)
		signal_a_sleeping_reader(p[1], "x");
	r = use_pselect ? pselect(p[0] + 1, &in, NULL, NULL, NULL, &empty) : ppoll32(&pfd, 1, NULL, &none);
	err = errno;
	sigprocmask(SIG_SETMASK, NULL, &now);
	sigprocmask(SIG_UNBLOCK, &block, NULL); /* the later tests' signals must come through */
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	errno = err;
	CHECK(r == -1 && errno == EINTR && got == SIGUSR1);
	CHECK(sigismember(&now, SIGUSR1));
}

/*
 * ppoll's and pselect's mask holds for the call only: a signal blocked
 * outside it ends the call, then is blocked again.
 */
static void ppoll_pselect_mask(void)
{
	masked_wait(false);
	if (!why[0])
		masked_wait(true);
}

/*
 * A sleep that a stop interrupts runs on to the same end; a handler that
 * then interrupts it finds the time left at that moment in rmtp (2.6.15's
 * restart_block kept rmtp), not the time left at the stop.
 */
static void nanosleep_rmtp_after_a_restart(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec req = { 5, 0 }, rem = { 0, 0 }, a, b;
	long long elapsed, left;
	int status, r;
	pid_t pid;

	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	got = 0;
	pid = fork();
	if (pid == 0) {
		pid_t parent = getppid();

		wait_for_state(parent, 'S');
		kill(parent, SIGSTOP);
		wait_for_state(parent, 'T');
		kill(parent, SIGCONT);
		wait_for_state(parent, 'S');
		usleep(300000);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = nanosleep(&req, &rem);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK(r == -1 && errno == EINTR && got == SIGUSR1);
	elapsed = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	left = rem.tv_sec * 1000000000LL + rem.tv_nsec;
	CHECK(left <= 4750000000LL && left + elapsed >= 4950000000LL);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	signal(SIGUSR1, SIG_DFL);
}

static void sigpipe(void)
{
	int p[2], status;
	pid_t pid;

	CHECK(pipe(p) == 0);
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		write(p[1], "x", 1); /* no reader: SIGPIPE kills */
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE);
	signal(SIGPIPE, SIG_IGN);
	CHECK(write(p[1], "x", 1) == -1 && errno == EPIPE);
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

static void segv_on_a_bad_address(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int *volatile page0 = (int *)8;

		*page0 = 1;
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
}

/* ---- memory ---- */

static void brk_grows(void)
{
	char *start = sbrk(0), *p;

	CHECK(start != (void *)-1);
	CHECK((p = sbrk(65536)) == start);
	memset(p, 0x5a, 65536);
	CHECK(sbrk(-65536) != (void *)-1 && sbrk(0) == start);
}

static void mmap_munmap_mprotect(void)
{
	int status;
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	CHECK(p != MAP_FAILED && ((unsigned long)p & 4095) == 0);
	CHECK(p[0] == 0 && p[8191] == 0); /* anonymous memory is zeroed */
	p[100] = 'x';
	CHECK(mprotect(p, 4096, PROT_READ) == 0);
	pid = fork();
	if (pid == 0) {
		p[0] = 1; /* read-only now */
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	CHECK(p[100] == 'x');
	CHECK(munmap(p, 8192) == 0);
	CHECK(mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED &&
	      errno == EINVAL);
}

/* ---- time, identity, randomness ---- */

static void clocks_and_sleep(void)
{
	struct timespec a, b, nap = { 0, 20 * 1000 * 1000 };
	long long ns;

	CHECK(clock_gettime(CLOCK_MONOTONIC, &a) == 0);
	CHECK(nanosleep(&nap, NULL) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &b) == 0);
	ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	CHECK(ns >= 20 * 1000 * 1000);
	CHECK(clock_gettime(12345, &a) == -1 && errno == EINVAL);
}

/* A child's state letter and CPU ticks (utime + stime) from /proc/PID/stat; 0 if unreadable. */
static char proc_state(pid_t pid, unsigned long *ticks)
{
	char path[64], buf[512], *p, c = 0;
	unsigned long ut = 0, st = 0;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY)) < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &c, &ut,
			 &st) != 3)
		return 0;
	*ticks = ut + st;
	return c;
}

/* A sleep of 68 years (nanosleep) or of 2^62 s (clock_nanosleep_time64) sleeps, spinning not. */
static void sleeps_of_years(void)
{
	struct timespec years = { 0x7fffffff, 0 };
	long long ages[2] = { 1ll << 62, 0 };

	for (int i = 0; i < 2; i++) {
		unsigned long ticks = ~0ul;
		int status;
		char state;
		pid_t pid = fork();

		if (pid == 0) {
			if (i == 0)
				nanosleep(&years, NULL);
			else
				syscall(407 /* clock_nanosleep_time64 */, CLOCK_MONOTONIC, 0, ages, NULL);
			_exit(1);
		}
		CHECK(pid > 0);
		usleep(300000);
		state = proc_state(pid, &ticks);
		kill(pid, SIGKILL);
		CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status));
		CHECK(state == 'S' && ticks < 10);
	}
}

static void uname_and_random(void)
{
	struct utsname u;
	unsigned char r[32] = { 0 }, zero[32] = { 0 };

	/* i686 from an i386 kernel; an x86_64 kernel says x86_64 to 32-bit programs too */
	CHECK(uname(&u) == 0 && u.sysname[0] &&
	      (strcmp(u.machine, "i686") == 0 || strcmp(u.machine, "x86_64") == 0));
	CHECK(getrandom(r, sizeof(r), 0) == sizeof(r) && memcmp(r, zero, sizeof(r)) != 0);
}

static volatile int clone_ran;

static int clone_child(void *arg)
{
	(void)arg;
	clone_ran = 1; /* the parent's memory: CLONE_VM */
	return 0;
}

/*
 * A child sharing the parent's memory with CLONE_CHILD_CLEARTID: as it exits,
 * the kernel writes 0 to its tid word (what pthread_join waits on).
 */
static void clone_vm_clears_child_tid(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	pid_t tid = -1;
	int status;
	pid_t pid = clone(clone_child, stack + sizeof(stack), CLONE_VM | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD,
			  NULL, NULL, NULL, &tid);

	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(clone_ran == 1);
	CHECK(tid == 0);
}

/* The direction flag a program leaves set (std) must not turn the kernel's copies backwards. */
static void direction_flag_set_at_a_call(void)
{
	unsigned char buf[32], want[32];
	int fd = open("/dev/zero", O_RDONLY);
	long r;

	CHECK(fd >= 0);
	memset(buf, 0xff, sizeof(buf));
	memset(want, 0xff, sizeof(want));
	memset(want + 8, 0, 5);
	__asm__ volatile("std\n\tint $0x80\n\tcld"
			 : "=a"(r)
			 : "0"(SYS_read), "b"(fd), "c"(buf + 8), "d"(5)
			 : "memory", "cc");
	close(fd);
	CHECK(r == 5 && memcmp(buf, want, sizeof(buf)) == 0);
}

/*
 * %fs holding a TLS slot that set_thread_area then empties: the return from the
 * next call cannot load it again, and the program goes on with a null %fs.
 */
static void fs_of_an_emptied_tls_slot(void)
{
	static unsigned int word = 0x5a5a5a5a;
	struct user_desc d = { .entry_number = -1u, .base_addr = (unsigned int)&word, .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	unsigned int got = 0, sel;
	unsigned short fs = 1;
	int status;
	pid_t pid = fork();

	if (pid == 0) { /* fs is the child's to spoil */
		if (syscall(SYS_set_thread_area, &d) != 0)
			_exit(2);
		sel = d.entry_number * 8 + 3;
		__asm__ volatile("movw %w1, %%fs\n\tmovl %%fs:0, %0" : "=r"(got) : "r"(sel));
		d = (struct user_desc){ .entry_number = d.entry_number, .read_exec_only = 1, .seg_not_present = 1 }; /* Linux's empty descriptor */
		if (got != word || syscall(SYS_set_thread_area, &d) != 0)
			_exit(3);
		getppid(); /* a call, and the return to user mode after it */
		__asm__ volatile("movw %%fs, %0" : "=r"(fs));
		_exit(fs == 0 ? 0 : 4);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- owners and modes ---- */

/* The mode (type and permission bits) of name, or 0. */
static unsigned int mode_of(const char *name)
{
	struct stat st;

	return stat(name, &st) == 0 ? st.st_mode : 0;
}

/* "uid:gid" of name (lstat: a link itself), for comparing in one CHECK. */
static const char *ids_of(const char *name, bool link)
{
	static char buf[32];
	struct stat st;

	if ((link ? lstat(name, &st) : stat(name, &st)) != 0)
		return "none";
	snprintf(buf, sizeof(buf), "%u:%u", (unsigned)st.st_uid, (unsigned)st.st_gid);
	return buf;
}

static void chmod_fchmod_fchmodat(void)
{
	struct stat st;
	int fd = open(TMP "-m", O_CREAT | O_TRUNC | O_RDWR, 0600), dir;

	CHECK(fd >= 0);
	CHECK(chmod(TMP "-m", 0751) == 0 && mode_of(TMP "-m") == (S_IFREG | 0751));
	CHECK(chmod(TMP "-m", S_IFDIR | 0640) == 0); /* the type bits are not chmod's */
	CHECK(mode_of(TMP "-m") == (S_IFREG | 0640));
	CHECK(fchmod(fd, 04604) == 0 && fstat(fd, &st) == 0 && st.st_mode == (S_IFREG | 04604));
	/* the system call has no flags (glibc's fchmodat emulates AT_SYMLINK_NOFOLLOW) */
	CHECK(syscall(SYS_fchmodat, AT_FDCWD, TMP "-m", 0600) == 0);
	CHECK(mode_of(TMP "-m") == (S_IFREG | 0600));
	CHECK((dir = open("/tmp", O_RDONLY | O_DIRECTORY)) >= 0);
	CHECK(syscall(SYS_fchmodat, dir, "usertests-m", 0644) == 0);
	CHECK(mode_of(TMP "-m") == (S_IFREG | 0644));
	close(dir);
	CHECK(mkdir(TMP "-md", 0755) == 0 && chmod(TMP "-md", 0700) == 0);
	CHECK(mode_of(TMP "-md") == (S_IFDIR | 0700) && rmdir(TMP "-md") == 0);
	CHECK(chmod("/nonexistent/x", 0644) == -1 && errno == ENOENT);
	CHECK(chmod(TMP "-m/x", 0644) == -1 && errno == ENOTDIR);
	CHECK(syscall(SYS_chmod, (char *)8, 0644) == -1 && errno == EFAULT);
	CHECK(fchmod(-1, 0644) == -1 && errno == EBADF);
	CHECK(syscall(SYS_fchmodat, 1000, "usertests-m", 0644) == -1 && errno == EBADF);
	CHECK(syscall(SYS_fchmodat, fd, "x", 0644) == -1 && errno == ENOTDIR);
	CHECK(close(fd) == 0 && unlink(TMP "-m") == 0);
}

/* Each of i386's nine chown calls: 16-bit ids in the first three, links followed or not. */
static void chown_lchown_fchown_fchownat(void)
{
	int fd = open(TMP "-o", O_CREAT | O_TRUNC | O_RDWR, 0644);
	struct stat st;

	CHECK(fd >= 0 && symlink(TMP "-o", TMP "-ol") == 0);
	CHECK(strcmp(ids_of(TMP "-o", false), "0:0") == 0);
	CHECK(syscall(SYS_chown32, TMP "-o", 1, 2) == 0 && strcmp(ids_of(TMP "-o", false), "1:2") == 0);
	CHECK(syscall(SYS_chown32, TMP "-o", -1, 3) == 0 && strcmp(ids_of(TMP "-o", false), "1:3") == 0);
	CHECK(syscall(SYS_chown32, TMP "-o", 70000, -1) == 0);
	CHECK(strcmp(ids_of(TMP "-o", false), "70000:3") == 0);
	CHECK(syscall(SYS_fchown32, fd, 5, 6) == 0 && fstat(fd, &st) == 0 && st.st_uid == 5 && st.st_gid == 6);
	/* 16-bit: 0xffff is -1, and only the low half of a wider id counts */
	CHECK(syscall(SYS_chown, TMP "-o", 0xffff, 9) == 0 && strcmp(ids_of(TMP "-o", false), "5:9") == 0);
	CHECK(syscall(SYS_fchown, fd, 0x1000a, 0xffff) == 0 && strcmp(ids_of(TMP "-o", false), "10:9") == 0);
	/* lchown: the link itself; chown: what it points to */
	CHECK(syscall(SYS_lchown32, TMP "-ol", 11, 12) == 0 && strcmp(ids_of(TMP "-ol", true), "11:12") == 0);
	CHECK(strcmp(ids_of(TMP "-o", false), "10:9") == 0);
	CHECK(syscall(SYS_lchown, TMP "-ol", 13, 0xffff) == 0 && strcmp(ids_of(TMP "-ol", true), "13:12") == 0);
	CHECK(syscall(SYS_chown32, TMP "-ol", 14, 15) == 0 && strcmp(ids_of(TMP "-o", false), "14:15") == 0);
	CHECK(strcmp(ids_of(TMP "-ol", true), "13:12") == 0);
	CHECK(syscall(SYS_fchownat, AT_FDCWD, TMP "-ol", 16, 17, AT_SYMLINK_NOFOLLOW) == 0);
	CHECK(strcmp(ids_of(TMP "-ol", true), "16:17") == 0 && strcmp(ids_of(TMP "-o", false), "14:15") == 0);
	CHECK(syscall(SYS_fchownat, AT_FDCWD, TMP "-ol", 18, 19, 0) == 0);
	CHECK(strcmp(ids_of(TMP "-o", false), "18:19") == 0 && strcmp(ids_of(TMP "-ol", true), "16:17") == 0);
	CHECK(syscall(SYS_fchownat, fd, "", 20, 21, AT_EMPTY_PATH) == 0); /* the open file */
	CHECK(strcmp(ids_of(TMP "-o", false), "20:21") == 0);
	CHECK(syscall(SYS_fchownat, fd, "", 0, 0, 0) == -1 && errno == ENOENT);
	CHECK(syscall(SYS_fchownat, AT_FDCWD, TMP "-o", 0, 0, 0x4) == -1 && errno == EINVAL);
	CHECK(syscall(SYS_fchownat, 1000, "usertests-o", 0, 0, 0) == -1 && errno == EBADF);
	CHECK(syscall(SYS_fchownat, fd, "x", 0, 0, 0) == -1 && errno == ENOTDIR);
	/* a chown, even to the same ids, takes a program's set-ID bits away */
	CHECK(chmod(TMP "-o", 06755) == 0 && syscall(SYS_chown32, TMP "-o", -1, -1) == 0);
	CHECK(mode_of(TMP "-o") == (S_IFREG | 0755));
	CHECK(syscall(SYS_chown32, "/nonexistent/x", 0, 0) == -1 && errno == ENOENT);
	CHECK(syscall(SYS_lchown32, TMP "-o/x", 0, 0) == -1 && errno == ENOTDIR);
	CHECK(syscall(SYS_chown, (char *)8, 0, 0) == -1 && errno == EFAULT);
	CHECK(syscall(SYS_fchown32, -1, 0, 0) == -1 && errno == EBADF);
	CHECK(syscall(SYS_fchown, 1000, 0, 0) == -1 && errno == EBADF);
	CHECK(close(fd) == 0 && unlink(TMP "-ol") == 0 && unlink(TMP "-o") == 0);
}

/* A check in a child: its number is the exit status if it fails. */
#define CHILD_CHECK(cond)            \
	do {                         \
		step++;              \
		if (!(cond))         \
			return step; \
	} while (0)

/* The child's checks, as uid 1000 and gid 1000: the number of the first that fails, or 0. */
static int as_a_user(void)
{
	int fd, step = 0;

	setgroups(0, NULL); /* no group of root's left over (Kobold keeps none) */
	CHILD_CHECK(setgid(1000) == 0 && setuid(1000) == 0);
	CHILD_CHECK(chmod(TMP "-uroot", 0600) == -1 && errno == EPERM);
	CHILD_CHECK(chown(TMP "-uroot", 1000, -1) == -1 && errno == EPERM);
	CHILD_CHECK((fd = open(TMP "-u/mine", O_CREAT | O_WRONLY, 0644)) >= 0 && close(fd) == 0);
	/* a new file is its creator's */
	CHILD_CHECK(strcmp(ids_of(TMP "-u/mine", false), "1000:1000") == 0);
	CHILD_CHECK(chmod(TMP "-u/mine", 0600) == 0 && chown(TMP "-u/mine", 1000, 1000) == 0);
	CHILD_CHECK(chown(TMP "-u/mine", 0, -1) == -1 && errno == EPERM);
	CHILD_CHECK(chown(TMP "-u/mine", -1, 5) == -1 && errno == EPERM);
	/* set-group-ID only for a group of one's own */
	CHILD_CHECK(chmod(TMP "-u/other-group", 02750) == 0);
	CHILD_CHECK(mode_of(TMP "-u/other-group") == (S_IFREG | 0750));
	return 0;
}

static void owners_for_a_user(void)
{
	int status, fd;
	pid_t pid;

	CHECK(mkdir(TMP "-u", 0755) == 0 && chown(TMP "-u", 1000, 1000) == 0);
	CHECK((fd = open(TMP "-uroot", O_CREAT | O_WRONLY, 0644)) >= 0 && close(fd) == 0);
	CHECK((fd = open(TMP "-u/other-group", O_CREAT | O_WRONLY, 0644)) >= 0 && close(fd) == 0);
	CHECK(chown(TMP "-u/other-group", 1000, 5) == 0);
	pid = fork();
	if (pid == 0)
		_exit(as_a_user());
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	if (WEXITSTATUS(status)) {
		snprintf(why, sizeof(why), "the child's check number %d", WEXITSTATUS(status));
		return;
	}
	CHECK(mode_of(TMP "-uroot") == (S_IFREG | 0644));
	CHECK(unlink(TMP "-u/mine") == 0 && unlink(TMP "-u/other-group") == 0);
	CHECK(rmdir(TMP "-u") == 0 && unlink(TMP "-uroot") == 0);
}

/* A pipe's and a socket's inode keep a chmod and a chown, and fstat shows them. */
static void fchmod_fchown_pipe_and_socket(void)
{
	struct stat st;
	int p[2], sock;

	CHECK(pipe(p) == 0);
	CHECK(fstat(p[0], &st) == 0 && st.st_mode == (S_IFIFO | 0600) && st.st_uid == geteuid() &&
	      st.st_gid == getegid());
	CHECK(fchmod(p[1], 0640) == 0 && fchown(p[1], 5, 6) == 0);
	CHECK(fstat(p[0], &st) == 0 && st.st_mode == (S_IFIFO | 0640) && st.st_uid == 5 && st.st_gid == 6);
	close(p[0]);
	close(p[1]);
	sock = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	CHECK(sock >= 0 && fstat(sock, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == geteuid());
	CHECK(fchmod(sock, 0700) == 0 && fchown(sock, 7, -1) == 0);
	CHECK(fstat(sock, &st) == 0 && st.st_mode == (S_IFSOCK | 0700) && st.st_uid == 7);
	close(sock);
}

/* The child's checks of its supplementary groups: the number of the first that fails, or 0. */
static int with_groups(void)
{
	gid_t set[3] = { 30, 10, 70000 }, got[4] = { 0 };
	unsigned short set16[2] = { 50, 40 }, got16[3] = { 0 }, minus16[3] = { 0xffff, 7, 0x8000 };
	int fd, step = 0, status;
	pid_t pid;

	CHILD_CHECK(setgroups(3, set) == 0 && getgroups(0, NULL) == 3);
	CHILD_CHECK(getgroups(2, got) == -1 && errno == EINVAL);
	CHILD_CHECK(getgroups(4, got) == 3 && got[0] == 10 && got[1] == 30 && got[2] == 70000);
	CHILD_CHECK(syscall(80, 2, got16) == -1 && errno == EINVAL); /* getgroups16 */
	CHILD_CHECK(syscall(80, 3, got16) == 3 && got16[0] == 10 && got16[2] == 65534);
	pid = fork();
	if (pid == 0) /* a child keeps them */
		_exit(getgroups(4, got) == 3 && got[1] == 30 ? 0 : 1);
	CHILD_CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHILD_CHECK(syscall(81, 2, set16) == 0 && getgroups(4, got) == 2); /* setgroups16 */
	CHILD_CHECK(got[0] == 40 && got[1] == 50);
	/*
	 * A 16-bit 0xffff is -1, never 65535 (uid16.c's low2highgid): 2.6 kept it
	 * and getgroups16 reads it as 65534, the overflow gid; later kernels (3.6.5's,
	 * with user namespaces) find -1 no valid gid: EINVAL, the list as it was.
	 */
	if (syscall(81, 3, minus16) == 0) {
		CHILD_CHECK(getgroups(4, got) == 3 && got[0] == 7 && got[1] == 0x8000 && got[2] == (gid_t)-1);
		CHILD_CHECK(syscall(80, 3, got16) == 3 && got16[1] == 0x8000 && got16[2] == 65534);
	} else {
		CHILD_CHECK(errno == EINVAL && getgroups(4, got) == 2 && got[0] == 40 && got[1] == 50);
	}
	CHILD_CHECK(setgroups(1, set) == 0);
	CHILD_CHECK((fd = open(TMP "-g", O_CREAT | O_WRONLY, 0644)) >= 0 && close(fd) == 0);
	CHILD_CHECK(chown(TMP "-g", 1000, 1000) == 0);
	CHILD_CHECK(setgid(1000) == 0 && setuid(1000) == 0);
	CHILD_CHECK(setgroups(0, NULL) == -1 && errno == EPERM);
	/* the owner may give its file to a supplementary group, and set-group-ID stays */
	CHILD_CHECK(chown(TMP "-g", -1, 30) == 0);
	CHILD_CHECK(strcmp(ids_of(TMP "-g", false), "1000:30") == 0);
	CHILD_CHECK(chmod(TMP "-g", 02750) == 0 && mode_of(TMP "-g") == (S_IFREG | 02750));
	CHILD_CHECK(chown(TMP "-g", -1, 10) == -1 && errno == EPERM);
	return 0;
}

/* setgroups and getgroups (32- and 16-bit), and chown's and chmod's rules that use the groups. */
static void supplementary_groups(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(with_groups());
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	unlink(TMP "-g");
	if (WEXITSTATUS(status))
		snprintf(why, sizeof(why), "the child's check number %d", WEXITSTATUS(status));
}

/* ---- sysfs through open/read/write ---- */

static void sysfs_attributes(void)
{
	char buf[64];
	ssize_t n;
	int fd = open("/sys/kernel/uevent_seqnum", O_RDONLY);

	CHECK(fd >= 0);
	CHECK((n = read(fd, buf, sizeof(buf) - 1)) > 1 && buf[n - 1] == '\n');
	close(fd);
	CHECK(open("/sys/kernel/uevent_seqnum", O_WRONLY) == -1 && errno == EACCES);
	CHECK((fd = open("/sys/class/block", O_RDONLY | O_DIRECTORY)) >= 0);
	close(fd);
}

/* sysfs keeps root's chmod and chown of an attribute; put back as it was. */
static void sysfs_chmod_chown(void)
{
	const char *seq = "/sys/kernel/uevent_seqnum";

	CHECK(mode_of(seq) == (S_IFREG | 0444) && strcmp(ids_of(seq, false), "0:0") == 0);
	CHECK(chmod(seq, 0400) == 0 && chown(seq, 3, 4) == 0);
	CHECK(mode_of(seq) == (S_IFREG | 0400) && strcmp(ids_of(seq, false), "3:4") == 0);
	CHECK(chmod(seq, 0444) == 0 && chown(seq, 0, 0) == 0);
	CHECK(mode_of(seq) == (S_IFREG | 0444) && strcmp(ids_of(seq, false), "0:0") == 0);
}

/*
 * sysfs checks at open: writing needs a write bit and its type's store()
 * (2.6.15's check_perm), so root's chmod makes a read-only attribute open
 * for writing, and its own missing store() answers the write with EIO.
 */
static void sysfs_open_checks_the_mode(void)
{
	const char *seq = "/sys/kernel/uevent_seqnum";
	int fd, wr, rdwr, err;
	ssize_t n = 0;

	CHECK(open(seq, O_WRONLY) == -1 && errno == EACCES);
	CHECK(open(seq, O_RDWR) == -1 && errno == EACCES);
	CHECK(chmod(seq, 0644) == 0);
	wr = open(seq, O_WRONLY);
	err = errno;
	if (wr >= 0) {
		n = write(wr, "1", 1);
		err = errno;
		close(wr);
	}
	rdwr = open(seq, O_RDWR);
	if (rdwr >= 0)
		close(rdwr);
	chmod(seq, 0444);
	errno = err;
	CHECK(wr >= 0 && rdwr >= 0);
	CHECK(n == -1 && errno == EIO);
	CHECK((fd = open(seq, O_RDONLY)) >= 0 && close(fd) == 0);
}

/* ---- limits ---- */

static void fork_bomb_ends_in_eagain(void)
{
	struct rlimit lim = { 64, 64 };
	int made = 0, status, failed = 0;
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0); /* a group of its own, killed whole at the end */
		setrlimit(RLIMIT_NPROC, &lim);
		if (getuid() == 0 && setuid(65534) != 0) /* root is exempt from RLIMIT_NPROC */
			_exit(2);
		for (int i = 0; i < 10000; i++) {
			pid_t c = fork();

			if (c == 0) {
				pause();
				_exit(0);
			}
			if (c < 0) {
				failed = errno == EAGAIN || errno == ENOMEM;
				break;
			}
			made++;
		}
		kill(0, SIGKILL); /* the whole group, this one too */
		_exit(failed && made > 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	while (wait(NULL) > 0)
		;
}

static const struct test tests[] = {
	{ "write_read_lseek", write_read_lseek },
	{ "truncate_errors", truncate_errors },
	{ "efbig_far_past_the_end", efbig_far_past_the_end },
	{ "bad_fd", bad_fd },
	{ "open_errors", open_errors },
	{ "stat_and_getdents", stat_and_getdents },
	{ "rename_symlink_readlink", rename_symlink_readlink },
	{ "chdir_getcwd", chdir_getcwd },
	{ "dup_and_pipe", dup_and_pipe },
	{ "efault", efault },
	{ "enosys", enosys },
	{ "fork_wait_exit", fork_wait_exit },
	{ "fork_copies_memory", fork_copies_memory },
	{ "getpid_family", getpid_family },
	{ "exec_with_args", exec_with_args },
	{ "wait_reaps_orphans_of_children", wait_reaps_orphans_of_children },
	{ "signal_handler_and_mask", signal_handler_and_mask },
	{ "sigchld_and_kill", sigchld_and_kill },
	{ "sa_restart_read", sa_restart_read },
	{ "sa_restart_netlink_recv", sa_restart_netlink_recv },
	{ "select_ppoll_restart_after_a_stop", select_ppoll_restart_after_a_stop },
	{ "ppoll_pselect_mask", ppoll_pselect_mask },
	{ "nanosleep_rmtp_after_a_restart", nanosleep_rmtp_after_a_restart },
	{ "sigpipe", sigpipe },
	{ "segv_on_a_bad_address", segv_on_a_bad_address },
	{ "brk_grows", brk_grows },
	{ "mmap_munmap_mprotect", mmap_munmap_mprotect },
	{ "clocks_and_sleep", clocks_and_sleep },
	{ "sleeps_of_years", sleeps_of_years },
	{ "uname_and_random", uname_and_random },
	{ "direction_flag_set_at_a_call", direction_flag_set_at_a_call },
	{ "clone_vm_clears_child_tid", clone_vm_clears_child_tid },
	{ "fs_of_an_emptied_tls_slot", fs_of_an_emptied_tls_slot },
	{ "chmod_fchmod_fchmodat", chmod_fchmod_fchmodat },
	{ "chown_lchown_fchown_fchownat", chown_lchown_fchown_fchownat },
	{ "owners_for_a_user", owners_for_a_user },
	{ "supplementary_groups", supplementary_groups },
	{ "fchmod_fchown_pipe_and_socket", fchmod_fchown_pipe_and_socket },
	{ "sysfs_attributes", sysfs_attributes },
	{ "sysfs_chmod_chown", sysfs_chmod_chown },
	{ "sysfs_open_checks_the_mode", sysfs_open_checks_the_mode },
	{ "fork_bomb_ends_in_eagain", fork_bomb_ends_in_eagain },
};

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child(argc, argv);
	return RUN_TESTS("usertests", tests, 1, argc, argv);
}
