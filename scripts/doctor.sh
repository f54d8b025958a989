#!/bin/sh
# doctor.sh: checks every tool that any make target uses (the build, run,
# test, debug, graph, fuzz, bench, ...) and prints the exact command that
# installs what is missing. Each check names the Debian package and who needs it.
# usage: doctor.sh CC QEMU
cc=$1
qemu=$2
missing=""
ok() { printf '  ok       %-26s %-19s %s\n' "$1" "$2" "$3"; }
bad() { printf '  MISSING  %-26s %-19s %s\n' "$1" "$2" "$3"; missing="$missing $2"; }
# check WHAT PACKAGE WHO [NAME]: WHAT is a command, an absolute path or
# py:MODULE (scripts/need.sh's forms); NAME is what the line shows.
check() {
	if KOBOLD_NO_INSTALL=1 scripts/need.sh "$1" "$2" 2>/dev/null; then
		ok "${4:-$1}" "$2" "$3"
	else
		bad "${4:-$1}" "$2" "$3"
	fi
}

echo "Kobold doctor: every tool a make target uses (tool, Debian package, targets)"
check "${cc%% *}" gcc "make"
if echo 'int main(void){return 0;}' | $cc -m32 -x c - -nostdlib -static -lgcc -o /tmp/kobold-doctor.$$ -Wl,-e,main 2>/dev/null; then
	ok "32-bit libgcc" gcc-multilib "make"
else
	bad "32-bit libgcc" gcc-multilib "make"
fi
rm -f /tmp/kobold-doctor.$$
check make make "everything"
check nm binutils "make"
check "$qemu" qemu-system-x86 "make run, debug, test"
check /usr/lib/$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)/qemu/ui-gtk.so qemu-system-gui "make run-gui" "QEMU's GTK window"
check grub-file grub-common "make, iso, test"
check grub-mkrescue grub-common "make iso, run-grub, test"
check /usr/lib/grub/i386-pc grub-pc-bin "make iso, run-grub, test" "GRUB for BIOS PCs"
check xorriso xorriso "make iso, run-grub, test"
check mformat mtools "make iso, run-grub, test"
check /usr/bin/python3 python3 "make test" python3
check py:pytest python3-pytest "make test" "pytest (python3)"
check py:pexpect python3-pexpect "make test" "pexpect (python3)"
check py:xdist python3-pytest-xdist "make test" "pytest-xdist (python3)"
check py:yaml python3-yaml "make test" "PyYAML (python3)"
check git git "make test (labs)"
check bwrap bubblewrap "make grade-class, grade-bench, gradescope, test"
check gdb gdb "make gdb, test"
check dot graphviz "make graph, test"
check clang-format-19 clang-format-19 "make format, test"
check clang clang "make fuzz, test"
rt=$(clang -print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-x86_64.a
check "$rt" libclang-rt-dev "make fuzz, test" "libFuzzer runtime"
check qemu-system-x86_64 qemu-system-x86 "make bench, udev-compare"
check dpkg-deb dpkg "make bench, udev-compare, rootfs, grade-class, grade-bench, test"
check apt-get apt "make rootfs, test"
if dpkg --print-foreign-architectures 2>/dev/null | grep -qx i386; then
	ok "i386 architecture (dpkg)" dpkg "make rootfs, test"
else
	printf '  MISSING  %-26s %-19s %s\n' "i386 architecture (dpkg)" dpkg "make rootfs, test (busybox-static:i386)"
	arch_missing=1
fi
check py:matplotlib python3-matplotlib "make bench" "matplotlib (python3)"
if [ -n "${arch_missing:-}" ]; then
	sudo=sudo
	[ "$(id -u)" = 0 ] && sudo=
	echo "Add the i386 architecture with: ${sudo:+$sudo }dpkg --add-architecture i386 && ${sudo:+$sudo }apt-get update"
	[ -n "$missing" ] || exit 1
fi
if [ -n "$missing" ]; then
	pkgs=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
	sudo=sudo
	[ "$(id -u)" = 0 ] && sudo=
	echo "Install what is missing with: ${sudo:+$sudo }apt-get install ${pkgs% }"
	echo "(as root, each make target installs what it needs itself)"
	exit 1
fi
echo "Everything is here: make run, make test."
