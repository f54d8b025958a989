#!/bin/sh
# gen-modsizes.sh: the code and data size of each module's object file, for
# lsmod's Size column, as a table of (name, bytes) pairs ending with a zero.
# usage: gen-modsizes.sh SIZE OBJ...
set -e
size=$1; shift
printf '\t.section .ksyms, "a"\n\t.align 4\n\t.globl module_sizes\nmodule_sizes:\n'
i=0
for obj in "$@"; do
	bytes=$("$size" "$obj" | awk 'NR == 2 { print $4 }')
	printf '\t.long .Lmod%d, %d\n' "$i" "$bytes"
	i=$((i + 1))
done
printf '\t.long 0, 0\n'
i=0
for obj in "$@"; do
	printf '.Lmod%d:\n\t.asciz "%s"\n' "$i" "$(basename "$obj" .o)"
	i=$((i + 1))
done
