/* helptext.c: the few lines that `help CMD` prints below a command's usage. */
#include <kobold/shell.h>
#include <kobold/string.h>

static const struct {
	const char *name;
	const char *text;
} help_texts[] = {
	{ "bench", "devmodel N: registers N class devices in a class of their own,\n"
		   "looks each up by path and unregisters them, timing each phase (ns\n"
		   "per operation). Ctrl-C stops it at once; what was registered is\n"
		   "unregistered as deferred work, in [events/0]; dmesg says when.\n"
		   "ipi N: N call-function interrupts to CPU 1 and back (-smp 2 or more).\n"
		   "switch N: the shell and a kernel thread pass a completion back and\n"
		   "forth N times: the time of one context switch.\n"
		   "fence N: N of each fence the virtio event index can use (mfence,\n"
		   "a locked add, a port read, a virtio status read): ns per fence." },
	{ "blk", "read DEV SECTOR [COUNT]: hexdump of 512-byte sectors.\n"
		 "write DEV SECTOR TEXT: TEXT, zero-padded to a sector. DEV may be a\n"
		 "partition (vda1): its sectors are counted from its start.\n"
		 "flush DEV: flush the write cache. bench DEV [read|write] [seq|rand]\n"
		 "[BS_KiB] [TOTAL_MiB] [--depth N] [--verify] [--refill]: bytes, ms,\n"
		 "MiB/s and IOPS, N blocks in flight; --verify writes or checks a\n"
		 "pattern, --refill zeros each block before writing it. Ctrl-C stops it." },
	{ "blockdev", "--rereadpt DISK: drops the disk's partitions and reads its table\n"
		      "again (refused, Device or resource busy, while a partition is\n"
		      "held, e.g. by an open attribute). --getsz: size in sectors;\n"
		      "--getsize64: in bytes; --getro: 1 if read-only." },
	{ "cat", "Prints each FILE: for an attribute, what its show() returns now;\n"
		 "for a device, what its driver's read gives (Ctrl-C stops it)." },
	{ "cd", "Relative paths, . and .. work; nothing goes above /. The prompt shows\n"
		"the working directory." },
	{ "clear", "Clears the screen (the serial terminal and the VGA screen)." },
	{ "close", "Closes a descriptor from open; if the object was unregistered\n"
		   "meanwhile, its release runs now." },
	{ "dd", "Copies COUNT blocks of BS bytes (512 unless bs=) from if= to of= (the\n"
		"console without of=), after skip= input and seek= output blocks; sizes\n"
		"take k, M, G. Ends with dd's summary; Ctrl-C stops it there. depth=N\n"
		"(or --depth N; not in coreutils): N blocks in flight at once through a\n"
		"block device's asynchronous reads (if=) or writes (of=); bs= whole sectors." },
	{ "df", "Each mounted filesystem: size, used and available 1K-blocks, use, where." },
	{ "dmesg", "The kernel log since boot, each line [seconds.micros] text." },
	{ "echo", "Prints its words joined by one space. With > FILE the line goes to\n"
		  "FILE instead (>> FILE appends): for an attribute that is its store()." },
	{ "exit", "There is no shell to go back to: poweroff switches the machine off;\n"
		  "in QEMU, Ctrl-A X quits." },
	{ "failslab", "failslab N CMD... runs CMD with its Nth allocation failing, to\n"
		      "walk error paths; failslab N arms it for whatever runs next;\n"
		      "failslab off disarms it; failslab alone shows the state." },
	{ "fds", "The descriptors that open holds." },
	{ "help", "With no CMD, every command and what it does, one a line, sorted.\n"
		  "With CMD, its usage and these lines." },
	{ "hexdump", "-C: offset, sixteen bytes in hex and as text; a run of identical lines\n"
		     "is one *. -n LEN reads LEN bytes, -s OFFSET starts there. Ctrl-C stops it." },
	{ "history", "The lines typed, oldest first, numbered (the last 32 are kept).\n"
		     "Up and Down bring them back to the line being edited." },
	{ "kobjects", "Every kobject whose release has not run: path, refcount, state.\n"
		      "One unregistered but still referenced shows as deleted." },
	{ "logout", "As exit: poweroff switches the machine off; in QEMU, Ctrl-A X quits." },
	{ "ls", "One name a line, sorted. -l adds the type, the mode and, for a link,\n"
		"name -> target; -a shows names that start with '.', and . and ..\n"
		"Several PATHs: the files first, then each directory under a header." },
	{ "lsblk", "NAME MAJ:MIN RM SIZE RO TYPE for every disk and partition, as\n"
		   "util-linux prints them." },
	{ "lsmod", "The built-in modules that are loaded, as lsmod prints them." },
	{ "lspci", "One line per PCI function: BB:DD.F CLASS: VENDOR:DEVICE." },
	{ "meminfo", "Bytes and objects in use, peak, failures, free pages. -v groups\n"
		     "the live objects by the code that allocated them; -c checks\n"
		     "every object's red zones and poison now." },
	{ "mknod", "Makes a device node by hand: b (block) or c (char) and its numbers.\n"
		   "The kernel makes /dev's nodes itself (devtmpfs)." },
	{ "modprobe", "Loads a built-in module (its init runs), with PARAM=VAL settings;\n"
		      "errors as kmod prints them." },
	{ "mount", "With no arguments, the mounts as util-linux lists them. -t tmpfs none\n"
		   "DIR mounts a new RAM filesystem on DIR." },
	{ "mv", "Renames within one filesystem; into DEST when DEST is a directory." },
	{ "open", "Opens FILE and prints fd N. The open file keeps its object alive\n"
		  "after it is unregistered; reading it then fails (No such device)." },
	{ "poweroff", "Runs every driver's shutdown, children before parents (trace on\n"
		      "shows them), then switches the machine off through ACPI (sleep\n"
		      "state S5); QEMU exits with status 0." },
	{ "pwd", "The working directory, as the prompt shows it." },
	{ "quit", "As exit: poweroff switches the machine off; in QEMU, Ctrl-A X quits." },
	{ "read", "Prints what the open attribute's show() returns now." },
	{ "readlink", "A link's target as stored (relative, as in sysfs); with -f, the\n"
		      "absolute path it resolves to." },
	{ "reboot", "Runs every driver's shutdown, children first, then resets the\n"
		    "machine (the keyboard controller's reset line): the firmware and\n"
		    "the kernel start again, up to a fresh prompt." },
	{ "rm", "-r removes directories and what they hold, -f ignores missing files." },
	{ "rmmod", "Unloads a module: its exit runs and its devices go; errors as kmod's." },
	{ "stat", "Size, blocks, inode, links, and the mode, as coreutils prints them\n"
		  "(Kobold keeps no times)." },
	{ "trace", "While on, every device-model call (register, add, interface add and\n"
		   "remove, hotplug, release) is logged as it happens." },
	{ "tree", "PATH defaults to the working directory; the last line counts the\n"
		  "directories and files. Names that start with '.' only with -a.\n"
		  "Ctrl-C stops it." },
	{ "udevadm", "info PATH: the device's keys; info -a: its attributes and its parents'.\n"
		     "monitor [-k] [-u] [-p] [-s SUBSYSTEM]: KERNEL and UDEV events, live, until\n"
		     "Ctrl-C; monitor --journal: the kernel's events since boot.\n"
		     "test [--action=A] DEVPATH: what the rules would do. trigger [--action=A]\n"
		     "[--subsystem-match=S]: the events again for existing devices. settle\n"
		     "[-t SECONDS]: wait for udevd's queue (120 s at most unless told; then it\n"
		     "lists what is queued). control --reload: read /etc/udev/rules.d again." },
	{ "umount", "Refused while a working directory, an open file or a mount is inside." },
	{ "write", "Writes TEXT and a newline to an open descriptor (a store())." },
};

const char *shell_help_text(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(help_texts); i++)
		if (strcmp(help_texts[i].name, name) == 0)
			return help_texts[i].text;
	return NULL;
}
