/*
 * idt.c: the Interrupt Descriptor Table: 32 exceptions, 16 PIC interrupts,
 * 32 MSI-X vectors, the local APIC timer, two interprocessor interrupts,
 * the local APIC's spurious vector, and int 0x80, the system call, the one
 * gate ring 3 may use.
 */
#include <asm/apic.h>
#include <asm/desc.h>
#include <kobold/types.h>

#define NR_VECTORS 80

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 zero;
	u8 type_attr; /* present, ring 0, 32-bit interrupt gate: 0x8e */
	u16 offset_high;
} __packed;

struct idt_ptr {
	u16 limit;
	u32 base;
} __packed;

extern const u32 vector_table[NR_VECTORS];
extern const u32 spurious_vector_entry, call_function_vector_entry, reschedule_vector_entry;
extern const u32 local_timer_vector_entry, syscall_vector_entry;
static struct idt_gate idt[256];

static void set_gate_dpl(int n, u32 entry, u8 type_attr)
{
	idt[n].offset_low = entry & 0xffff;
	idt[n].offset_high = entry >> 16;
	idt[n].selector = KERNEL_CS;
	idt[n].type_attr = type_attr;
}

static void set_gate(int n, u32 entry) { set_gate_dpl(n, entry, 0x8e); }

void idt_load(void)
{
	struct idt_ptr p = { sizeof(idt) - 1, (u32)idt };

	__asm__ volatile("lidt %0" : : "m"(p));
}

void idt_init(void)
{
	for (int i = 0; i < NR_VECTORS; i++)
		set_gate(i, vector_table[i]);
	set_gate(LOCAL_TIMER_VECTOR, local_timer_vector_entry);
	set_gate(CALL_FUNCTION_VECTOR, call_function_vector_entry);
	set_gate(RESCHEDULE_VECTOR, reschedule_vector_entry);
	set_gate(SPURIOUS_APIC_VECTOR, spurious_vector_entry);
	set_gate_dpl(SYSCALL_VECTOR, syscall_vector_entry, 0xee); /* DPL 3: int 0x80 from ring 3 */
	idt_load();
}
