/* gdt.c: a flat Global Descriptor Table: one code and one data segment, 0-4 GiB. */
#include <asm/desc.h>
#include <kobold/types.h>

struct gdt_ptr {
	u16 limit;
	u32 base;
} __packed;

/* Intel SDM vol. 3, §3.4.5: base 0, limit 0xfffff in 4 KiB units, 32-bit. */
static const u64 gdt[] = {
	0,		       /* the null descriptor */
	0x00cf9a000000ffffULL, /* 0x08: ring 0 code, execute/read */
	0x00cf92000000ffffULL, /* 0x10: ring 0 data, read/write */
};

void gdt_init(void)
{
	struct gdt_ptr p = { sizeof(gdt) - 1, (u32)gdt };

	__asm__ volatile("lgdt %0\n\t"
			 "ljmp %1, $1f\n"
			 "1:\n\t"
			 "mov %2, %%ax\n\t"
			 "mov %%ax, %%ds\n\t"
			 "mov %%ax, %%es\n\t"
			 "mov %%ax, %%ss\n\t"
			 "mov %%ax, %%fs\n\t"
			 "mov %%ax, %%gs"
			 : : "m"(p), "i"(KERNEL_CS), "i"(KERNEL_DS) : "eax", "memory");
}
