/* idt.c: the Interrupt Descriptor Table: 32 exceptions and 16 PIC interrupts. */
#include <asm/desc.h>
#include <kobold/types.h>

#define NR_VECTORS 48

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 zero;
	u8 type_attr;	/* present, ring 0, 32-bit interrupt gate: 0x8e */
	u16 offset_high;
} __packed;

struct idt_ptr {
	u16 limit;
	u32 base;
} __packed;

extern const u32 vector_table[NR_VECTORS];
static struct idt_gate idt[256];

void idt_init(void)
{
	struct idt_ptr p = { sizeof(idt) - 1, (u32)idt };

	for (int i = 0; i < NR_VECTORS; i++) {
		idt[i].offset_low = vector_table[i] & 0xffff;
		idt[i].offset_high = vector_table[i] >> 16;
		idt[i].selector = KERNEL_CS;
		idt[i].type_attr = 0x8e;
	}
	__asm__ volatile("lidt %0" : : "m"(p));
}
