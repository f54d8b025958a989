# Kobold: a 32-bit x86 teaching kernel for the Linux device model.
# `make help` lists the targets; `make doctor` checks the tools.

Q ?= @
# Every rule is written out here: make's built-in ones only cost it the search
# through them for each of the tree's files (most of a one-file rebuild's make).
MAKEFLAGS += --no-builtin-rules
# DEBUG=1 builds in build/debug, so its objects never mix with the -O2 ones.
BUILD := build$(if $(filter 1,$(DEBUG)),/debug)
KERNEL := $(BUILD)/kobold.elf
ISO := $(BUILD)/kobold.iso
DISK := $(BUILD)/disk.img
PYTHON := /usr/bin/python3
NEED := scripts/need.sh

# The cross compiler: i686-elf-, then i686-linux-gnu-, then the host gcc
# with -m32. Override with `make CROSS_COMPILE=prefix-` (or CC=...).
ifeq ($(origin CROSS_COMPILE),undefined)
CROSS_COMPILE := $(shell if command -v i686-elf-gcc >/dev/null 2>&1; then echo i686-elf-; \
	elif command -v i686-linux-gnu-gcc >/dev/null 2>&1; then echo i686-linux-gnu-; fi)
endif
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
NM := $(CROSS_COMPILE)nm
SIZE := $(CROSS_COMPILE)size

# DEBUG=1: a kernel for stepping in gdb, built in build/debug: -O0 (at -Og gdb
# shows callers' arguments whose registers were reused), no inlining, all debug
# info with macros. WERROR=1 (CI): warnings are errors; a student's newer
# compiler will not break the build.
DEBUG ?= 0
WERROR ?= 0
WERROR_FLAG := $(if $(filter 1,$(WERROR)),-Werror)
OPT := $(if $(filter 1,$(DEBUG)),-O0 -g3 -fno-inline,-O2 -g)

CFLAGS := -m32 -march=i686 -std=gnu11 $(OPT) -ffreestanding -fno-pic -fno-pie \
	-fno-stack-protector -fno-omit-frame-pointer -fno-strict-aliasing \
	-mno-mmx -mno-sse -mno-sse2 -mno-red-zone \
	-Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-Iinclude $(WERROR_FLAG)
ASFLAGS := -m32 -g -Iinclude
LDFLAGS := -m32 -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-z,noexecstack \
	-Wl,-T,linker.ld

.DEFAULT_GOAL := all
include mk/portable.mk
include mk/host.mk

# Files that are modules: those that say module_init (loaded at boot, unloadable),
# compiled with -DMODULE as kbuild does, so THIS_MODULE is theirs.
MODULE_SRCS := $(shell grep -l '^module_init' $(sort $(wildcard drivers/*/*.c)) 2>/dev/null)
# The per-file flags: the module's name, and -DMODULE for modules.
modflags = -DKBUILD_MODNAME='"$(basename $(notdir $1))"'$(if $(filter $1,$(MODULE_SRCS)), -DMODULE)

KERNEL_SRCS := $(sort $(wildcard kernel/*.c mm/*.c kernel/power/*.c shell/*.c udev/*.c)) \
	lib/string.c lib/vsprintf.c \
	$(sort $(wildcard drivers/tty/*.c drivers/video/*.c drivers/input/*.c drivers/input/serio/*.c drivers/rtc/*.c drivers/char/*.c drivers/char/hw_random/*.c \
		drivers/acpi/*.c drivers/misc/*.c drivers/pci/*.c drivers/virtio/*.c \
		drivers/block/*.c block/*.c fs/proc/*.c net/*.c net/netlink/*.c)) $(FS_KERNEL_ONLY) \
	$(UNIT_TEST_SRCS)
KERNEL_SRCS := $(filter-out $(PORTABLE_SRCS),$(KERNEL_SRCS)) $(PORTABLE_SRCS)
ASM_SRCS := boot/boot.S kernel/entry.S kernel/switch_to.S kernel/trampoline.S kernel/uaccess.S
OBJS := $(ASM_SRCS:%.S=$(BUILD)/%.o) $(KERNEL_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/initramfs.o
SOURCES := $(BUILD)/sources

.PHONY: all
all: $(KERNEL)

# The compiler and a 32-bit libgcc, checked once (installed as root).
$(BUILD)/.toolchain:
	@mkdir -p $(BUILD)
	$(Q)$(NEED) $(firstword $(CC)) gcc
	$(Q)$(NEED) make make
	$(Q)echo 'int main(void){return 0;}' | $(CC) -m32 -x c - -nostdlib -static -lgcc \
		-Wl,-e,main -o $(BUILD)/.toolchain-probe 2>/dev/null || \
		$(NEED) /usr/lib/gcc/x86_64-linux-gnu/$$($(CC) -dumpversion)/32/libgcc.a gcc-multilib
	$(Q)rm -f $(BUILD)/.toolchain-probe
	$(Q)touch $@

$(BUILD)/%.o: %.c | $(BUILD)/.toolchain
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) $(call modflags,$<) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.S | $(BUILD)/.toolchain
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(ASFLAGS) -MMD -MP -c $< -o $@

# The list of sources, rewritten only when it changes: a .c file added or
# removed (rm drivers/block/foo.c) relinks the kernel, which make alone would
# not notice, as no object is newer than the kernel.
$(SOURCES): FORCE
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(ASM_SRCS) $(KERNEL_SRCS) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

.PHONY: FORCE
FORCE:

# The files of the tree's etc/ (udev rules, say), built into the kernel and
# written to /etc at boot (kernel/initramfs.c); the list is kept as the sources' is.
ETC_FILES := $(shell find etc -type f 2>/dev/null | LC_ALL=C sort)
$(BUILD)/etc-files: FORCE
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(ETC_FILES) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/initramfs.S: $(BUILD)/etc-files $(ETC_FILES) scripts/gen-initramfs.sh
	$(Q)scripts/gen-initramfs.sh $(ETC_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/initramfs.o: $(BUILD)/initramfs.S
	@echo "  AS      $< (etc/: $(words $(ETC_FILES)) file(s))"
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

# Two links: the first gives the addresses for the symbol table, which
# goes into a section after the code, so the second link moves no function.
# The first link is read only for its symbols: no debug sections (half its time).
$(BUILD)/kobold.pass1.elf: $(OBJS) linker.ld $(SOURCES)
	$(Q)$(CC) $(LDFLAGS) -Wl,--strip-debug -o $@ $(OBJS) -lgcc

$(BUILD)/ksyms.S: $(BUILD)/kobold.pass1.elf scripts/gen-ksyms.sh scripts/gen-modsizes.sh
	$(Q)scripts/gen-ksyms.sh $(NM) $< > $@
	$(Q)scripts/gen-modsizes.sh $(SIZE) $(MODULE_SRCS:%.c=$(BUILD)/%.o) >> $@

$(BUILD)/ksyms.o: $(BUILD)/ksyms.S
	@echo "  AS      $<"
	$(Q)$(CC) $(ASFLAGS) -c $< -o $@

$(KERNEL): $(BUILD)/kobold.pass1.elf $(BUILD)/ksyms.o
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms.o -lgcc
	$(Q)$(NM) -n $< | grep -i ' t ' > $(BUILD)/pass1.syms
	$(Q)$(NM) -n $@ | grep -i ' t ' > $(BUILD)/pass2.syms
	$(Q)cmp -s $(BUILD)/pass1.syms $(BUILD)/pass2.syms || \
		{ echo "kobold: the symbol table moved code between links" >&2; exit 1; }
	$(Q)if command -v grub-file >/dev/null 2>&1; then \
		grub-file --is-x86-multiboot $@ || { echo "kobold: $@ is not multiboot" >&2; exit 1; }; fi

# The GRUB 2 ISO: the kernel and a grub.cfg, made bootable by grub-mkrescue.
$(ISO): $(KERNEL) scripts/grub.cfg $(wildcard build/rootfs.cpio)
	$(Q)$(NEED) grub-mkrescue grub-common
	$(Q)$(NEED) /usr/lib/grub/i386-pc grub-pc-bin
	$(Q)$(NEED) xorriso xorriso
	$(Q)$(NEED) mformat mtools
	$(Q)grub-file --is-x86-multiboot $(KERNEL)
	$(Q)rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)cp $(KERNEL) $(BUILD)/iso/boot/kobold.elf
	$(Q)cp scripts/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	$(Q)if [ -f build/rootfs.cpio ]; then cp build/rootfs.cpio $(BUILD)/iso/boot/; fi
	@echo "  ISO     $@"
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/grub-mkrescue.log 2>&1 || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

.PHONY: iso
iso: $(ISO)

$(DISK):
	@mkdir -p $(BUILD)
	$(Q)dd if=/dev/zero of=$@ bs=1M count=16 status=none
	$(Q)printf 'Kobold virtio disk: sector 0\n' | dd of=$@ conv=notrunc status=none

QEMU := qemu-system-i386
# No -no-reboot: the shell's reboot restarts the machine, as on a PC (the
# tests add -no-reboot where they want QEMU to exit instead).
QEMU_BASE := -M pc -m 256M \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-drive file=$(DISK),if=none,id=vd0,format=raw,cache=writeback \
	-device virtio-blk-pci,drive=vd0,serial=kobold-disk
QEMU_ARGS ?=
GDB_PORT := $(shell expr 20000 + $$(id -u) % 20000)
# QEMU's window (make run-gui) needs its GTK display module.
QEMU_GUI := /usr/lib/$(shell gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)/qemu/ui-gtk.so

.PHONY: run run-grub run-gui debug gdb debug-kernel gdb-soak
run: $(KERNEL) $(DISK)
	$(Q)$(NEED) $(QEMU) qemu-system-x86
	@echo "Kobold: Ctrl-A X leaves QEMU; 'help' lists the commands."
	$(Q)$(QEMU) $(QEMU_BASE) -nographic -kernel $(KERNEL) $(QEMU_INITRD) $(QEMU_ARGS) || [ $$? -eq 33 ]

run-grub: $(ISO) $(DISK)
	$(Q)$(NEED) $(QEMU) qemu-system-x86
	@echo "Kobold through GRUB: Ctrl-A X leaves QEMU; 'help' lists the commands."
	$(Q)$(QEMU) $(QEMU_BASE) -nographic -cdrom $(ISO) -boot d $(QEMU_ARGS) || [ $$? -eq 33 ]

# QEMU's window: the VGA console and the PS/2 keyboard; the serial console
# stays in this terminal too (Ctrl-A X quits from here, or close the window).
run-gui: $(KERNEL) $(DISK)
	$(Q)$(NEED) $(QEMU) qemu-system-x86
	$(Q)$(NEED) $(QEMU_GUI) qemu-system-gui
	@echo "Kobold in QEMU's window (VGA and keyboard); the serial console is here, Ctrl-A X quits."
	$(Q)$(QEMU) $(QEMU_BASE) -serial mon:stdio -kernel $(KERNEL) $(QEMU_INITRD) $(QEMU_ARGS) || [ $$? -eq 33 ]

# make debug and make gdb always use the DEBUG=1 kernel (build/debug, -O0):
# at -O2 gdb shows arguments from reused registers as if they were true.
# make debug copies the kernel it boots to DEBUG_RUNNING and make gdb loads
# that copy, so the two never disagree, even after a rebuild in between.
# QEMU runs one TCG thread: with the default multi-threaded TCG, QEMU 7's
# gdb stub now and then ends a single step before the instruction runs, and
# gdb takes it for a second hit of the breakpoint it was stepping over.
DEBUG_KERNEL := build/debug/kobold.elf
DEBUG_RUNNING := build/debug/running-$(GDB_PORT).elf
QEMU_DEBUG := -accel tcg,thread=single -S -gdb tcp:localhost:$(GDB_PORT)

debug-kernel:
	$(Q)$(MAKE) --no-print-directory DEBUG=1 $(DEBUG_KERNEL)

# QEMU halted before the first instruction, its gdb stub on a per-user port
# (never KVM: gdb's breakpoints and watchpoints need TCG). docs/gdb.md.
debug: debug-kernel $(DISK)
	$(Q)$(NEED) $(QEMU) qemu-system-x86
	$(Q)cp $(DEBUG_KERNEL) $(DEBUG_RUNNING)
	@echo "QEMU is halted: its gdb stub waits on localhost:$(GDB_PORT) ($(DEBUG_KERNEL), -O0)."
	@echo "Next, in a second terminal, in this directory:"
	@echo "    make gdb"
	@echo "then in gdb:  break class_device_register  and  continue  (docs/gdb.md)."
	@echo "The console is here once it runs; Ctrl-A X quits QEMU."
	$(Q)$(QEMU) $(QEMU_BASE) -nographic -kernel $(DEBUG_RUNNING) $(QEMU_INITRD) $(QEMU_DEBUG) $(QEMU_ARGS); \
		status=$$?; rm -f $(DEBUG_RUNNING); [ $$status -eq 0 ] || [ $$status -eq 33 ]

# gdb with the symbols of the kernel QEMU runs and the kobold-... helpers
# (scripts/gdb), attached.
gdb:
	$(Q)$(NEED) gdb gdb
	$(Q)[ -f $(DEBUG_RUNNING) ] || { echo "kobold: no 'make debug' runs on port $(GDB_PORT): start it in another terminal first" >&2; exit 1; }
	$(Q)cmp -s $(DEBUG_RUNNING) $(DEBUG_KERNEL) || echo "kobold: $(DEBUG_KERNEL) was rebuilt after 'make debug' started; gdb loads the kernel QEMU runs. To debug the new one, quit QEMU (Ctrl-A X) and run 'make debug' again." >&2
	$(Q)gdb -q -ex 'source scripts/gdb/kobold.py' -ex 'target remote localhost:$(GDB_PORT)' \
		$(GDB_ARGS) $(DEBUG_RUNNING)

# docs/gdb.md's walkthrough, N times in a row (each in a new QEMU), no retry.
gdb-soak: N ?= 50
gdb-soak: deps debug-kernel
	$(Q)$(NEED) gdb gdb
	$(Q)KOBOLD_DEBUG_KERNEL=$(DEBUG_KERNEL) KOBOLD_GDB_RUNS=$(N) $(PYTHON) -m pytest -q \
		tests/test_gdb.py -k stepping

# Tests: one pytest session whose last line is "N passed, N failed". Its test files
# run TEST_JOBS at a time (pytest-xdist; a file's tests stay together, in order).
TEST_ARGS ?=
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
.PHONY: test host-tests-bin deps
# Every tool a test uses, so that no test skips or fails for a missing tool:
# installed as root, or named with the apt-get command (scripts/need.sh).
deps:
	$(Q)status=0; \
	$(NEED) $(QEMU) qemu-system-x86 || status=1; \
	$(NEED) $(PYTHON) python3 || status=1; \
	$(NEED) py:pytest python3-pytest || status=1; \
	$(NEED) py:pexpect python3-pexpect || status=1; \
	$(NEED) py:xdist python3-pytest-xdist || status=1; \
	$(NEED) py:yaml python3-yaml || status=1; \
	$(NEED) git git || status=1; \
	$(NEED) bwrap bubblewrap || status=1; \
	$(NEED) dpkg-deb dpkg || status=1; \
	$(NEED) gdb gdb || status=1; \
	$(NEED) dot graphviz || status=1; \
	$(NEED) $(CLANG_FORMAT) $(CLANG_FORMAT) || status=1; \
	$(NEED) $(FUZZ_CC) clang || status=1; \
	$(NEED) "$$($(FUZZ_CC) -print-runtime-dir)/libclang_rt.fuzzer-x86_64.a" libclang-rt-dev || status=1; \
	exit $$status

# The gdb tests step through the DEBUG=1 kernel (build/debug) as make debug does.
TEST_DEBUG_KERNEL := $(if $(filter 1,$(DEBUG)),$(KERNEL),debug-kernel)

# The device-model, hotplug and block scenarios run a second time on two CPUs
# (tests/smp2.py: every boot gets -smp 2, as with KOBOLD_SMP=2), unless TEST_ARGS
# chooses tests; KOBOLD_SMP2=1 has the session collect those second runs beside the
# first, so that both share the workers. test_hotplug's two failslab walks choose
# -smp 1 themselves: the first run has them.
TEST_SMP2 = $(if $(TEST_ARGS),,KOBOLD_SMP2=1)
# The user programs and the root file system are built before the tests, which
# then find them up to date (two test files running make at once could race).
# The build runs TEST_JOBS jobs at a time even when make test is typed without -j:
# the kernels, the disk and the host tests; then the ISO alone (after the kernel and
# before the root file system, as a one-job build orders them: the ISO holds
# build/rootfs.cpio only when an earlier make built it); then rootfs and user.
TEST_BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
test: deps
	$(Q)$(MAKE) --no-print-directory $(TEST_BUILD_JOBS) $(KERNEL) $(DISK) $(HOST_OBJDIR)/ktest-host $(TEST_DEBUG_KERNEL)
	$(Q)$(MAKE) --no-print-directory $(ISO)
	$(Q)$(MAKE) --no-print-directory $(TEST_BUILD_JOBS) rootfs user
	$(Q)rm -f $(BUILD)/test-report.xml $(BUILD)/test-report-smp2.xml
	$(Q)status=0; export KOBOLD_KERNEL=$(KERNEL) KOBOLD_ISO=$(ISO) KOBOLD_DEBUG_KERNEL=$(DEBUG_KERNEL); \
	$(TEST_SMP2) $(PYTHON) -m pytest -q -n $(TEST_JOBS) --dist loadfile --junitxml=$(BUILD)/test-report.xml \
		tests $(TEST_ARGS) || status=$$?; \
	$(PYTHON) scripts/test-summary.py $(BUILD)/test-report.xml; exit $$status

# Further targets (bench, fuzz, labs, graph, ...) each live in their own mk/*.mk.
include $(filter-out mk/portable.mk mk/host.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: doctor clean help compile_commands.json
doctor:
	$(Q)scripts/doctor.sh "$(CC)" $(QEMU)

# The compilation database for clangd and editors: every kernel source with
# the flags the build gives it (rewritten only when it changes).
compile_commands.json:
	$(Q)$(NEED) $(PYTHON) python3
	$(Q)$(PYTHON) scripts/compile-commands.py $@ $(BUILD) "$(CC)" "$(CFLAGS)" "$(MODULE_SRCS)" $(KERNEL_SRCS)
	@echo "  GEN     $@ ($(words $(KERNEL_SRCS)) files)"

# .clang-format, read by clang-format 19 (Debian 12's clang-format-19; version 14, Debian's
# default, cannot keep the asm one-liners). FILES= chooses the files (git's C files by default).
CLANG_FORMAT := clang-format-19
FORMAT_FILES = $(or $(FILES),$(shell git ls-files '*.c' '*.h' 2>/dev/null))
.PHONY: format format-check
format-check:
	$(Q)$(NEED) $(CLANG_FORMAT) $(CLANG_FORMAT)
	$(Q){ $(CLANG_FORMAT) --dry-run --style=file:$(CURDIR)/.clang-format $(FORMAT_FILES) 2>&1; \
	      echo "clang-format exit $$?"; } | awk -F: ' \
		/: warning: code should be clang-formatted/ { if (!seen[$$1 ":" $$2]++ && !n[$$1]++) order[++k] = $$1; next } \
		/^clang-format exit [1-9]/ { print "  FORMAT  " $$0; bad = 1 } \
		/: error: / || /No such file/ { print } \
		END { for (i = 1; i <= k; i++) printf "  FORMAT  %s: %d lines differ from .clang-format\n", order[i], n[order[i]]; \
		      exit bad || k > 0 }'

format:
	$(Q)$(NEED) $(CLANG_FORMAT) $(CLANG_FORMAT)
	$(Q)$(CLANG_FORMAT) --style=file:$(CURDIR)/.clang-format -i $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)

help:
	@echo "make            build $(KERNEL)"
	@echo "make run        boot it in QEMU (serial console here; Ctrl-A X quits; reboot restarts)"
	@echo "make run-grub   the same through GRUB 2 from $(ISO)"
	@echo "make run-gui    the same in QEMU's window: VGA console and PS/2 keyboard"
	@echo "make iso        build the GRUB ISO"
	@echo "make rootfs     build/rootfs.cpio: Debian's busybox-static (i386); make run boots with it"
	@echo "make debug      QEMU halted with a gdb stub, on the -O0 kernel $(DEBUG_KERNEL)"
	@echo "make gdb        gdb attached to 'make debug' (another terminal) with Kobold's helpers (docs/gdb.md)"
	@echo "make gdb-soak   docs/gdb.md's stepping walkthrough N times in a row (N=50)"
	@echo "make test       every test; the last line reads 'N passed, N failed'"
	@echo "make doctor     check every tool the targets use, and say how to install what is missing"
	@echo "make compile_commands.json   the compilation database for clangd and editors"
	@echo "make format-check            the C files against .clang-format (make format FILES=... fixes)"
	@echo "make bench, grade-bench, fuzz, soak, sysfuzz, stress-smp, netlink-storm, umh-soak, graph, user, usertests-linux, gradescope, check-lab LAB=N, check-docs: see README.md"
	@echo "make clean      remove $(BUILD)"
	@echo "Options: QEMU_ARGS=... DEBUG=1 WERROR=1 CROSS_COMPILE=prefix- GDB_PORT=N"

-include $(OBJS:.o=.d)
