#!/bin/sh
# gen-ksyms.sh: turn `nm -n` output of the first link into the .ksyms section
# (sorted addresses and names of every function) for backtraces.
# usage: gen-ksyms.sh NM ELF > ksyms.S
set -e
"$1" -n --defined-only "$2" | awk '
BEGIN { n = 0 }
NF == 3 && $2 ~ /^[tTwW]$/ && $3 !~ /^\./ && $3 !~ /^kernel_/ {
	addr[n] = $1; name[n] = $3; n++
}
END {
	print "\t.section .ksyms, \"a\""
	print "\t.align 4"
	print "\t.globl ksym_count, ksym_addrs, ksym_names"
	print "ksym_count:\n\t.long " n
	print "ksym_addrs:"
	for (i = 0; i < n; i++) print "\t.long 0x" addr[i]
	print "ksym_names:"
	for (i = 0; i < n; i++) print "\t.long .Lname" i
	for (i = 0; i < n; i++) print ".Lname" i ":\n\t.asciz \"" name[i] "\""
}'
