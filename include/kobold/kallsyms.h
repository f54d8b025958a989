/* kallsyms.h: the kernel's own symbol table, for backtraces and gdb-free debugging. */
#ifndef KOBOLD_KALLSYMS_H
#define KOBOLD_KALLSYMS_H

#include <kobold/types.h>

/* The function containing addr: name, offset into it and its size. */
bool ksym_lookup(u32 addr, const char **name, u32 *offset, u32 *size);
/* The address of a function by name, 0 if none. */
u32 ksym_address(const char *name);
/* Print " [<addr>] name+0x12/0x40" for one code address. */
void print_ip_sym(const char *level, u32 addr);

#endif
