#!/bin/sh
# gen-ksyms.sh: turn `nm -n` output of the first link into the .ksyms section
# (sorted addresses and names of every function) for backtraces; boot.S's
# first code, below PAGE_OFFSET (0xc0000000), runs before paging and is left out.
# usage: gen-ksyms.sh NM ELF > ksyms.S
set -e
"$1" -n --defined-only "$2" | awk '
BEGIN { n = 0 }
NF == 3 && $2 ~ /^[tTwW]$/ && $3 !~ /^\./ && $3 !~ /^kernel_/ && $1 >= "c0000000" {
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
