/*
 * syscall_table.c: the system calls by Linux i386's numbers
 * (arch/x86/entry/syscalls/syscall_32.tbl), each with its name for the
 * log line of a call that does not exist (ENOSYS); an entry without a
 * function is one Kobold does not implement.
 */
#include <kobold/syscalls.h>

/* Each takes its own arguments; the dispatcher passes six words. */
long sys_accept4();
long sys_access();
long sys_bind();
long sys_brk();
long sys_chdir();
long sys_chmod();
long sys_chown();
long sys_chown16();
long sys_clock_getres();
long sys_clock_getres32();
long sys_clock_gettime();
long sys_clock_gettime32();
long sys_clock_nanosleep();
long sys_clock_nanosleep32();
long sys_clone();
long sys_close();
long sys_connect();
long sys_creat();
long sys_dup();
long sys_dup2();
long sys_dup3();
long sys_execve();
long sys_exit();
long sys_exit_group();
long sys_faccessat();
long sys_faccessat2();
long sys_fchdir();
long sys_fchmod();
long sys_fchmodat();
long sys_fchown();
long sys_fchown16();
long sys_fchownat();
long sys_fcntl64();
long sys_fork();
long sys_fstat64();
long sys_fstatat64();
long sys_fsync();
long sys_ftruncate();
long sys_ftruncate64();
long sys_futex();
long sys_get_thread_area();
long sys_getcwd();
long sys_getdents64();
long sys_getegid();
long sys_geteuid();
long sys_getgid();
long sys_getgroups();
long sys_getgroups16();
long sys_getpeername();
long sys_getpgid();
long sys_getpgrp();
long sys_getpid();
long sys_getppid();
long sys_getpriority();
long sys_getrandom();
long sys_getresgid();
long sys_getresuid();
long sys_getrlimit();
long sys_io_cancel();
long sys_io_destroy();
long sys_io_getevents();
long sys_io_setup();
long sys_io_submit();
long sys_getrusage();
long sys_getsid();
long sys_getsockname();
long sys_getsockopt();
long sys_gettid();
long sys_gettimeofday();
long sys_getuid();
long sys_ioctl();
long sys_kill();
long sys_listen();
long sys_lchown();
long sys_lchown16();
long sys_llseek();
long sys_lseek();
long sys_lstat64();
long sys_madvise();
long sys_mkdir();
long sys_mkdirat();
long sys_mknod();
long sys_mknodat();
long sys_mmap2();
long sys_mount();
long sys_mprotect();
long sys_munmap();
long sys_nanosleep();
long sys_newuname();
long sys_oldumount();
long sys_open();
long sys_openat();
long sys_pause();
long sys_pipe();
long sys_pipe2();
long sys_poll();
long sys_ppoll();
long sys_pselect6();
long sys_pselect6_time64();
long sys_ppoll32();
long sys_prctl();
long sys_pread64();
long sys_prlimit64();
long sys_pwrite64();
long sys_read();
long sys_readlink();
long sys_readlinkat();
long sys_readv();
long sys_reboot();
long sys_recvfrom();
long sys_recvmsg();
long sys_rename();
long sys_renameat();
long sys_restart_syscall();
long sys_rmdir();
long sys_rt_sigaction();
long sys_rt_sigpending();
long sys_rt_sigprocmask();
long sys_rt_sigreturn();
long sys_rt_sigsuspend();
long sys_sched_yield();
long sys_select();
long sys_sendfile64();
long sys_sendmsg();
long sys_sendto();
long sys_set_thread_area();
long sys_set_tid_address();
long sys_setgid();
long sys_setgroups();
long sys_setgroups16();
long sys_setpgid();
long sys_setpriority();
long sys_setrlimit();
long sys_setsid();
long sys_setsockopt();
long sys_setuid();
long sys_shutdown();
long sys_sigreturn();
long sys_socket();
long sys_socketcall();
long sys_socketpair();
long sys_stat64();
long sys_statfs64();
long sys_statx();
long sys_symlink();
long sys_symlinkat();
long sys_sync();
long sys_sysinfo();
long sys_tgkill();
long sys_time();
long sys_times();
long sys_tkill();
long sys_truncate();
long sys_truncate64();
long sys_umask();
long sys_umount();
long sys_unlink();
long sys_unlinkat();
long sys_utimensat();
long sys_vfork();
long sys_wait4();
long sys_waitpid();
long sys_write();
long sys_writev();

#define SYSCALL(nr, name, fn) [nr] = { (syscall_fn_t)(void (*)(void))fn, name }
#define NI(nr, name) [nr] = { NULL, name }

/* clang-format off */
const struct syscall_entry sys_call_table[NR_syscalls] = {
	SYSCALL(0, "restart_syscall", sys_restart_syscall),
	SYSCALL(1, "exit", sys_exit),
	SYSCALL(2, "fork", sys_fork),
	SYSCALL(3, "read", sys_read),
	SYSCALL(4, "write", sys_write),
	SYSCALL(5, "open", sys_open),
	SYSCALL(6, "close", sys_close),
	SYSCALL(7, "waitpid", sys_waitpid),
	SYSCALL(8, "creat", sys_creat),
	NI(9, "link"),
	SYSCALL(10, "unlink", sys_unlink),
	SYSCALL(11, "execve", sys_execve),
	SYSCALL(12, "chdir", sys_chdir),
	SYSCALL(13, "time", sys_time),
	SYSCALL(14, "mknod", sys_mknod),
	SYSCALL(15, "chmod", sys_chmod),
	SYSCALL(16, "lchown", sys_lchown16),
	NI(17, "break"),
	NI(18, "oldstat"),
	SYSCALL(19, "lseek", sys_lseek),
	SYSCALL(20, "getpid", sys_getpid),
	SYSCALL(21, "mount", sys_mount),
	SYSCALL(22, "umount", sys_oldumount),
	SYSCALL(23, "setuid", sys_setuid),
	SYSCALL(24, "getuid", sys_getuid),
	NI(25, "stime"),
	NI(26, "ptrace"),
	NI(27, "alarm"),
	NI(28, "oldfstat"),
	SYSCALL(29, "pause", sys_pause),
	SYSCALL(30, "utime", sys_utimensat),
	NI(31, "stty"),
	NI(32, "gtty"),
	SYSCALL(33, "access", sys_access),
	NI(34, "nice"),
	NI(35, "ftime"),
	SYSCALL(36, "sync", sys_sync),
	SYSCALL(37, "kill", sys_kill),
	SYSCALL(38, "rename", sys_rename),
	SYSCALL(39, "mkdir", sys_mkdir),
	SYSCALL(40, "rmdir", sys_rmdir),
	SYSCALL(41, "dup", sys_dup),
	SYSCALL(42, "pipe", sys_pipe),
	SYSCALL(43, "times", sys_times),
	NI(44, "prof"),
	SYSCALL(45, "brk", sys_brk),
	SYSCALL(46, "setgid", sys_setgid),
	SYSCALL(47, "getgid", sys_getgid),
	NI(48, "signal"),
	SYSCALL(49, "geteuid", sys_geteuid),
	SYSCALL(50, "getegid", sys_getegid),
	NI(51, "acct"),
	SYSCALL(52, "umount2", sys_umount),
	NI(53, "lock"),
	SYSCALL(54, "ioctl", sys_ioctl),
	SYSCALL(55, "fcntl", sys_fcntl64),
	NI(56, "mpx"),
	SYSCALL(57, "setpgid", sys_setpgid),
	NI(58, "ulimit"),
	NI(59, "oldolduname"),
	SYSCALL(60, "umask", sys_umask),
	NI(61, "chroot"),
	NI(62, "ustat"),
	SYSCALL(63, "dup2", sys_dup2),
	SYSCALL(64, "getppid", sys_getppid),
	SYSCALL(65, "getpgrp", sys_getpgrp),
	SYSCALL(66, "setsid", sys_setsid),
	NI(67, "sigaction"),
	NI(68, "sgetmask"),
	NI(69, "ssetmask"),
	NI(70, "setreuid"),
	NI(71, "setregid"),
	NI(72, "sigsuspend"),
	NI(73, "sigpending"),
	NI(74, "sethostname"),
	SYSCALL(75, "setrlimit", sys_setrlimit),
	NI(76, "getrlimit"),
	SYSCALL(77, "getrusage", sys_getrusage),
	SYSCALL(78, "gettimeofday", sys_gettimeofday),
	NI(79, "settimeofday"),
	SYSCALL(80, "getgroups", sys_getgroups16),
	SYSCALL(81, "setgroups", sys_setgroups16),
	NI(82, "select"),
	SYSCALL(83, "symlink", sys_symlink),
	NI(84, "oldlstat"),
	SYSCALL(85, "readlink", sys_readlink),
	NI(86, "uselib"),
	NI(87, "swapon"),
	SYSCALL(88, "reboot", sys_reboot),
	NI(89, "readdir"),
	NI(90, "mmap"),
	SYSCALL(91, "munmap", sys_munmap),
	SYSCALL(92, "truncate", sys_truncate),
	SYSCALL(93, "ftruncate", sys_ftruncate),
	SYSCALL(94, "fchmod", sys_fchmod),
	SYSCALL(95, "fchown", sys_fchown16),
	SYSCALL(96, "getpriority", sys_getpriority),
	SYSCALL(97, "setpriority", sys_setpriority),
	NI(98, "profil"),
	NI(99, "statfs"),
	NI(100, "fstatfs"),
	NI(101, "ioperm"),
	SYSCALL(102, "socketcall", sys_socketcall),
	NI(103, "syslog"),
	NI(104, "setitimer"),
	NI(105, "getitimer"),
	NI(106, "stat"),
	NI(107, "lstat"),
	NI(108, "fstat"),
	NI(109, "olduname"),
	NI(110, "iopl"),
	NI(111, "vhangup"),
	NI(112, "idle"),
	NI(113, "vm86old"),
	SYSCALL(114, "wait4", sys_wait4),
	NI(115, "swapoff"),
	SYSCALL(116, "sysinfo", sys_sysinfo),
	NI(117, "ipc"),
	SYSCALL(118, "fsync", sys_fsync),
	SYSCALL(119, "sigreturn", sys_sigreturn),
	SYSCALL(120, "clone", sys_clone),
	NI(121, "setdomainname"),
	SYSCALL(122, "uname", sys_newuname),
	NI(123, "modify_ldt"),
	NI(124, "adjtimex"),
	SYSCALL(125, "mprotect", sys_mprotect),
	NI(126, "sigprocmask"),
	NI(127, "create_module"),
	NI(128, "init_module"),
	NI(129, "delete_module"),
	NI(130, "get_kernel_syms"),
	NI(131, "quotactl"),
	SYSCALL(132, "getpgid", sys_getpgid),
	SYSCALL(133, "fchdir", sys_fchdir),
	NI(134, "bdflush"),
	NI(135, "sysfs"),
	NI(136, "personality"),
	NI(137, "afs_syscall"),
	NI(138, "setfsuid"),
	NI(139, "setfsgid"),
	SYSCALL(140, "_llseek", sys_llseek),
	NI(141, "getdents"),
	SYSCALL(142, "_newselect", sys_select),
	NI(143, "flock"),
	NI(144, "msync"),
	SYSCALL(145, "readv", sys_readv),
	SYSCALL(146, "writev", sys_writev),
	SYSCALL(147, "getsid", sys_getsid),
	SYSCALL(148, "fdatasync", sys_fsync),
	NI(149, "_sysctl"),
	NI(150, "mlock"),
	NI(151, "munlock"),
	NI(152, "mlockall"),
	NI(153, "munlockall"),
	NI(154, "sched_setparam"),
	NI(155, "sched_getparam"),
	NI(156, "sched_setscheduler"),
	NI(157, "sched_getscheduler"),
	SYSCALL(158, "sched_yield", sys_sched_yield),
	NI(159, "sched_get_priority_max"),
	NI(160, "sched_get_priority_min"),
	NI(161, "sched_rr_get_interval"),
	SYSCALL(162, "nanosleep", sys_nanosleep),
	NI(163, "mremap"),
	NI(164, "setresuid"),
	NI(165, "getresuid"),
	NI(166, "vm86"),
	NI(167, "query_module"),
	SYSCALL(168, "poll", sys_poll),
	NI(169, "nfsservctl"),
	NI(170, "setresgid"),
	NI(171, "getresgid"),
	SYSCALL(172, "prctl", sys_prctl),
	SYSCALL(173, "rt_sigreturn", sys_rt_sigreturn),
	SYSCALL(174, "rt_sigaction", sys_rt_sigaction),
	SYSCALL(175, "rt_sigprocmask", sys_rt_sigprocmask),
	SYSCALL(176, "rt_sigpending", sys_rt_sigpending),
	NI(177, "rt_sigtimedwait"),
	NI(178, "rt_sigqueueinfo"),
	SYSCALL(179, "rt_sigsuspend", sys_rt_sigsuspend),
	SYSCALL(180, "pread64", sys_pread64),
	SYSCALL(181, "pwrite64", sys_pwrite64),
	SYSCALL(182, "chown", sys_chown16),
	SYSCALL(183, "getcwd", sys_getcwd),
	NI(184, "capget"),
	NI(185, "capset"),
	NI(186, "sigaltstack"),
	NI(187, "sendfile"),
	NI(188, "getpmsg"),
	NI(189, "putpmsg"),
	SYSCALL(190, "vfork", sys_vfork),
	SYSCALL(191, "ugetrlimit", sys_getrlimit),
	SYSCALL(192, "mmap2", sys_mmap2),
	SYSCALL(193, "truncate64", sys_truncate64),
	SYSCALL(194, "ftruncate64", sys_ftruncate64),
	SYSCALL(195, "stat64", sys_stat64),
	SYSCALL(196, "lstat64", sys_lstat64),
	SYSCALL(197, "fstat64", sys_fstat64),
	SYSCALL(198, "lchown32", sys_lchown),
	SYSCALL(199, "getuid32", sys_getuid),
	SYSCALL(200, "getgid32", sys_getgid),
	SYSCALL(201, "geteuid32", sys_geteuid),
	SYSCALL(202, "getegid32", sys_getegid),
	NI(203, "setreuid32"),
	NI(204, "setregid32"),
	SYSCALL(205, "getgroups32", sys_getgroups),
	SYSCALL(206, "setgroups32", sys_setgroups),
	SYSCALL(207, "fchown32", sys_fchown),
	NI(208, "setresuid32"),
	SYSCALL(209, "getresuid32", sys_getresuid),
	NI(210, "setresgid32"),
	SYSCALL(211, "getresgid32", sys_getresgid),
	SYSCALL(212, "chown32", sys_chown),
	SYSCALL(213, "setuid32", sys_setuid),
	SYSCALL(214, "setgid32", sys_setgid),
	NI(215, "setfsuid32"),
	NI(216, "setfsgid32"),
	NI(217, "pivot_root"),
	NI(218, "mincore"),
	SYSCALL(219, "madvise", sys_madvise),
	SYSCALL(220, "getdents64", sys_getdents64),
	SYSCALL(221, "fcntl64", sys_fcntl64),
	SYSCALL(224, "gettid", sys_gettid),
	NI(225, "readahead"),
	NI(226, "setxattr"),
	NI(227, "lsetxattr"),
	NI(228, "fsetxattr"),
	NI(229, "getxattr"),
	NI(230, "lgetxattr"),
	NI(231, "fgetxattr"),
	NI(232, "listxattr"),
	NI(233, "llistxattr"),
	NI(234, "flistxattr"),
	NI(235, "removexattr"),
	NI(236, "lremovexattr"),
	NI(237, "fremovexattr"),
	SYSCALL(238, "tkill", sys_tkill),
	SYSCALL(239, "sendfile64", sys_sendfile64),
	SYSCALL(240, "futex", sys_futex),
	NI(241, "sched_setaffinity"),
	NI(242, "sched_getaffinity"),
	SYSCALL(243, "set_thread_area", sys_set_thread_area),
	SYSCALL(244, "get_thread_area", sys_get_thread_area),
	SYSCALL(245, "io_setup", sys_io_setup),
	SYSCALL(246, "io_destroy", sys_io_destroy),
	SYSCALL(247, "io_getevents", sys_io_getevents),
	SYSCALL(248, "io_submit", sys_io_submit),
	SYSCALL(249, "io_cancel", sys_io_cancel),
	NI(250, "fadvise64"),
	SYSCALL(252, "exit_group", sys_exit_group),
	NI(253, "lookup_dcookie"),
	NI(254, "epoll_create"),
	NI(255, "epoll_ctl"),
	NI(256, "epoll_wait"),
	NI(257, "remap_file_pages"),
	SYSCALL(258, "set_tid_address", sys_set_tid_address),
	NI(259, "timer_create"),
	NI(260, "timer_settime"),
	NI(261, "timer_gettime"),
	NI(262, "timer_getoverrun"),
	NI(263, "timer_delete"),
	NI(264, "clock_settime"),
	SYSCALL(265, "clock_gettime", sys_clock_gettime32),
	SYSCALL(266, "clock_getres", sys_clock_getres32),
	SYSCALL(267, "clock_nanosleep", sys_clock_nanosleep32),
	SYSCALL(268, "statfs64", sys_statfs64),
	NI(269, "fstatfs64"),
	SYSCALL(270, "tgkill", sys_tgkill),
	SYSCALL(271, "utimes", sys_utimensat),
	NI(272, "fadvise64_64"),
	NI(273, "vserver"),
	NI(274, "mbind"),
	NI(275, "get_mempolicy"),
	NI(276, "set_mempolicy"),
	NI(277, "mq_open"),
	NI(278, "mq_unlink"),
	NI(279, "mq_timedsend"),
	NI(280, "mq_timedreceive"),
	NI(281, "mq_notify"),
	NI(282, "mq_getsetattr"),
	NI(283, "kexec_load"),
	NI(284, "waitid"),
	NI(286, "add_key"),
	NI(287, "request_key"),
	NI(288, "keyctl"),
	NI(289, "ioprio_set"),
	NI(290, "ioprio_get"),
	NI(291, "inotify_init"),
	NI(292, "inotify_add_watch"),
	NI(293, "inotify_rm_watch"),
	NI(294, "migrate_pages"),
	SYSCALL(295, "openat", sys_openat),
	SYSCALL(296, "mkdirat", sys_mkdirat),
	SYSCALL(297, "mknodat", sys_mknodat),
	SYSCALL(298, "fchownat", sys_fchownat),
	SYSCALL(299, "futimesat", sys_utimensat),
	SYSCALL(300, "fstatat64", sys_fstatat64),
	SYSCALL(301, "unlinkat", sys_unlinkat),
	SYSCALL(302, "renameat", sys_renameat),
	NI(303, "linkat"),
	SYSCALL(304, "symlinkat", sys_symlinkat),
	SYSCALL(305, "readlinkat", sys_readlinkat),
	SYSCALL(306, "fchmodat", sys_fchmodat),
	SYSCALL(307, "faccessat", sys_faccessat),
	SYSCALL(308, "pselect6", sys_pselect6),
	SYSCALL(309, "ppoll", sys_ppoll32),
	NI(310, "unshare"),
	NI(311, "set_robust_list"),
	NI(312, "get_robust_list"),
	NI(313, "splice"),
	NI(314, "sync_file_range"),
	NI(315, "tee"),
	NI(316, "vmsplice"),
	NI(317, "move_pages"),
	NI(318, "getcpu"),
	NI(319, "epoll_pwait"),
	SYSCALL(320, "utimensat", sys_utimensat),
	NI(321, "signalfd"),
	NI(322, "timerfd_create"),
	NI(323, "eventfd"),
	NI(324, "fallocate"),
	NI(325, "timerfd_settime"),
	NI(326, "timerfd_gettime"),
	NI(327, "signalfd4"),
	NI(328, "eventfd2"),
	NI(329, "epoll_create1"),
	SYSCALL(330, "dup3", sys_dup3),
	SYSCALL(331, "pipe2", sys_pipe2),
	NI(332, "inotify_init1"),
	NI(333, "preadv"),
	NI(334, "pwritev"),
	NI(335, "rt_tgsigqueueinfo"),
	NI(336, "perf_event_open"),
	NI(337, "recvmmsg"),
	NI(338, "fanotify_init"),
	NI(339, "fanotify_mark"),
	SYSCALL(340, "prlimit64", sys_prlimit64),
	NI(341, "name_to_handle_at"),
	NI(342, "open_by_handle_at"),
	NI(343, "clock_adjtime"),
	NI(344, "syncfs"),
	NI(345, "sendmmsg"),
	NI(346, "setns"),
	NI(347, "process_vm_readv"),
	NI(348, "process_vm_writev"),
	NI(349, "kcmp"),
	NI(350, "finit_module"),
	NI(351, "sched_setattr"),
	NI(352, "sched_getattr"),
	NI(353, "renameat2"),
	NI(354, "seccomp"),
	SYSCALL(355, "getrandom", sys_getrandom),
	NI(356, "memfd_create"),
	NI(357, "bpf"),
	NI(358, "execveat"),
	SYSCALL(359, "socket", sys_socket),
	SYSCALL(360, "socketpair", sys_socketpair),
	SYSCALL(361, "bind", sys_bind),
	SYSCALL(362, "connect", sys_connect),
	SYSCALL(363, "listen", sys_listen),
	SYSCALL(364, "accept4", sys_accept4),
	SYSCALL(365, "getsockopt", sys_getsockopt),
	SYSCALL(366, "setsockopt", sys_setsockopt),
	SYSCALL(367, "getsockname", sys_getsockname),
	SYSCALL(368, "getpeername", sys_getpeername),
	SYSCALL(369, "sendto", sys_sendto),
	SYSCALL(370, "sendmsg", sys_sendmsg),
	SYSCALL(371, "recvfrom", sys_recvfrom),
	SYSCALL(372, "recvmsg", sys_recvmsg),
	SYSCALL(373, "shutdown", sys_shutdown),
	NI(374, "userfaultfd"),
	NI(375, "membarrier"),
	NI(376, "mlock2"),
	NI(377, "copy_file_range"),
	NI(378, "preadv2"),
	NI(379, "pwritev2"),
	NI(380, "pkey_mprotect"),
	NI(381, "pkey_alloc"),
	NI(382, "pkey_free"),
	SYSCALL(383, "statx", sys_statx),
	NI(384, "arch_prctl"),
	NI(385, "io_pgetevents"),
	NI(386, "rseq"),
	NI(393, "semget"),
	NI(394, "semctl"),
	NI(395, "shmget"),
	NI(396, "shmctl"),
	NI(397, "shmat"),
	NI(398, "shmdt"),
	NI(399, "msgget"),
	NI(400, "msgsnd"),
	NI(401, "msgrcv"),
	NI(402, "msgctl"),
	SYSCALL(403, "clock_gettime64", sys_clock_gettime),
	NI(404, "clock_settime64"),
	NI(405, "clock_adjtime64"),
	SYSCALL(406, "clock_getres_time64", sys_clock_getres),
	SYSCALL(407, "clock_nanosleep_time64", sys_clock_nanosleep),
	NI(408, "timer_gettime64"),
	NI(409, "timer_settime64"),
	NI(410, "timerfd_gettime64"),
	NI(411, "timerfd_settime64"),
	SYSCALL(412, "utimensat_time64", sys_utimensat),
	SYSCALL(413, "pselect6_time64", sys_pselect6_time64),
	SYSCALL(414, "ppoll_time64", sys_ppoll),
	NI(416, "io_pgetevents_time64"),
	NI(417, "recvmmsg_time64"),
	NI(418, "mq_timedsend_time64"),
	NI(419, "mq_timedreceive_time64"),
	NI(420, "semtimedop_time64"),
	NI(421, "rt_sigtimedwait_time64"),
	SYSCALL(422, "futex_time64", sys_futex),
	NI(423, "sched_rr_get_interval_time64"),
	NI(424, "pidfd_send_signal"),
	NI(425, "io_uring_setup"),
	NI(426, "io_uring_enter"),
	NI(427, "io_uring_register"),
	NI(428, "open_tree"),
	NI(429, "move_mount"),
	NI(430, "fsopen"),
	NI(431, "fsconfig"),
	NI(432, "fsmount"),
	NI(433, "fspick"),
	NI(434, "pidfd_open"),
	NI(435, "clone3"),
	NI(436, "close_range"),
	NI(437, "openat2"),
	NI(438, "pidfd_getfd"),
	SYSCALL(439, "faccessat2", sys_faccessat2),
};
/* clang-format on */
