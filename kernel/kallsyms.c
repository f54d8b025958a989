/*
 * kallsyms.c: looks up function names in the table that scripts/gen-ksyms.sh
 * writes after the first link (the .ksyms section), sorted by address.
 */
#include <kobold/kallsyms.h>
#include <kobold/printk.h>
#include <kobold/string.h>

/* Weak: the first link has no table yet, and then these are all zero. */
extern const u32 ksym_count __attribute__((weak));
extern const u32 ksym_addrs[] __attribute__((weak));
extern const char *const ksym_names[] __attribute__((weak));
extern char kernel_text_end[];

bool ksym_lookup(u32 addr, const char **name, u32 *offset, u32 *size)
{
	u32 lo = 0, hi, mid;

	if (!&ksym_count || ksym_count == 0 || addr < ksym_addrs[0] ||
	    addr >= (u32)kernel_text_end)
		return false;
	hi = ksym_count;
	while (hi - lo > 1) { /* the last symbol at or below addr */
		mid = lo + (hi - lo) / 2;
		if (ksym_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*name = ksym_names[lo];
	*offset = addr - ksym_addrs[lo];
	*size = (lo + 1 < ksym_count ? ksym_addrs[lo + 1] : (u32)kernel_text_end) - ksym_addrs[lo];
	return addr < ksym_addrs[lo] + *size;
}

u32 ksym_address(const char *name)
{
	if (!&ksym_count)
		return 0;
	for (u32 i = 0; i < ksym_count; i++)
		if (strcmp(ksym_names[i], name) == 0)
			return ksym_addrs[i];
	return 0;
}

void print_ip_sym(const char *level, u32 addr)
{
	const char *name;
	u32 off, size;

	if (ksym_lookup(addr, &name, &off, &size))
		printk("%s [<%08x>] %s+0x%x/0x%x\n", level, addr, name, off, size);
	else
		printk("%s [<%08x>] ?\n", level, addr);
}
