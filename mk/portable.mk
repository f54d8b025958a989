# portable.mk: the portable C that builds both into the kernel and into the
# host test binary (no x86 code, no inline assembly).
# fs/ files that need processes (system calls, exec, pipes): kernel only.
FS_KERNEL_ONLY := fs/exec.c fs/pipe.c fs/select.c fs/syscalls.c fs/direct-io.c fs/aio.c
PORTABLE_SRCS := lib/kstrtox.c lib/cpio.c lib/strutil.c lib/errname.c lib/ktest.c \
	lib/rbtree.c lib/rtc.c lib/glob.c lib/klist.c kernel/workqueue.c kernel/sysctl.c kernel/lockdep.c kernel/resource.c \
	lib/spinlock_debug.c kernel/preempt.c kernel/kernel_lock.c kernel/runqueue.c kernel/timer.c \
	kernel/semaphore.c kernel/mutex.c kernel/rwsem.c kernel/completion.c kernel/waitqueue.c \
	udev/rules.c udev/event.c lib/kobject.c lib/kobject_uevent.c lib/devmodel_trace.c \
	shell/parse.c shell/readline.c shell/full_write.c drivers/tty/n_tty.c \
	$(sort $(wildcard drivers/base/*.c drivers/base/power/*.c)) $(sort $(wildcard fs/sysfs/*.c)) \
	$(filter-out $(FS_KERNEL_ONLY),$(sort $(wildcard fs/*.c fs/ramfs/*.c))) lib/user_stack.c mm/vma.c \
	block/genhd.c block/blk-core.c block/partition.c lib/crc32.c net/netlink/queue.c net/netlink/uevent.c \
	$(sort $(wildcard block/partitions/*.c))

# Unit tests: the same files run on the host and in the kernel (test=all).
UNIT_TEST_SRCS := $(sort $(wildcard tests/unit/*_test.c))
