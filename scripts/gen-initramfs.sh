#!/bin/sh
# gen-initramfs.sh: the files of the tree's etc/ as a table the kernel copies
# into /etc at boot (kernel/initramfs.c), as Linux's usr/gen_init_cpio packs
# CONFIG_INITRAMFS_SOURCE into the image. Each entry: path, data, size; a zero ends it.
# usage: gen-initramfs.sh FILE...   (paths relative to the tree, under etc/)
set -e
printf '\t.section .rodata\n\t.align 4\n\t.globl initramfs_files\ninitramfs_files:\n'
i=0
for f in "$@"; do
	case "$f" in
	etc/*) ;;
	*) echo "gen-initramfs.sh: $f is not under etc/" >&2; exit 1 ;;
	esac
	if printf '%s' "$f" | grep -q '[^A-Za-z0-9._/@+-]'; then
		echo "gen-initramfs.sh: $f: use letters, digits and . _ - + @ in names" >&2
		exit 1
	fi
	printf '\t.long .Lname%d, .Ldata%d, .Lend%d - .Ldata%d\n' $i $i $i $i
	i=$((i + 1))
done
printf '\t.long 0, 0, 0\n'
i=0
for f in "$@"; do
	printf '.Lname%d:\n\t.asciz "/%s"\n.Ldata%d:\n\t.incbin "%s"\n.Lend%d:\n' $i "$f" $i "$f" $i
	i=$((i + 1))
done
