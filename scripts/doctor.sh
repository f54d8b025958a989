#!/bin/sh
# doctor.sh: checks every tool the build, `make run` and `make test` use,
# and prints the exact command that installs what is missing.
# usage: doctor.sh CC QEMU
cc=$1
qemu=$2
missing=""
ok() { printf '  ok       %s\n' "$1"; }
bad() { printf '  MISSING  %s (Debian package %s)\n' "$1" "$2"; missing="$missing $2"; }

echo "Kobold doctor:"
if command -v "${cc%% *}" >/dev/null 2>&1; then ok "C compiler: $cc"; else bad "$cc" gcc; fi
if echo 'int main(void){return 0;}' | $cc -m32 -x c - -nostdlib -static -lgcc -o /tmp/kobold-doctor.$$ -Wl,-e,main 2>/dev/null; then
	ok "32-bit code and libgcc ($cc -m32)"
else
	bad "32-bit libgcc for $cc -m32" gcc-multilib
fi
rm -f /tmp/kobold-doctor.$$
for t in make:make nm:binutils "$qemu":qemu-system-x86 grub-mkrescue:grub-common \
	grub-file:grub-common xorriso:xorriso mformat:mtools gdb:gdb; do
	cmd=${t%%:*}; pkg=${t#*:}
	if command -v "$cmd" >/dev/null 2>&1; then ok "$cmd"; else bad "$cmd" "$pkg"; fi
done
if [ -d /usr/lib/grub/i386-pc ]; then ok "GRUB for BIOS PCs (/usr/lib/grub/i386-pc)"; else bad "GRUB i386-pc modules" grub-pc-bin; fi
if /usr/bin/python3 -c 'import pytest' 2>/dev/null; then ok "pytest (/usr/bin/python3)"; else bad "pytest for /usr/bin/python3" python3-pytest; fi
if /usr/bin/python3 -c 'import pexpect' 2>/dev/null; then ok "pexpect (/usr/bin/python3)"; else bad "pexpect for /usr/bin/python3" python3-pexpect; fi
if [ -n "$missing" ]; then
	pkgs=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
	echo "Install what is missing with: sudo apt-get install $pkgs"
	exit 1
fi
echo "Everything is here: make run, make test."
