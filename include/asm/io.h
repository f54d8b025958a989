/* io.h: x86 port I/O, control registers and interrupt flag helpers. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <kobold/types.h>

#define __iomem /* device memory: read and write it with volatile accesses */

/* Device memory at physical @phys, @size bytes, mapped uncached (mm/ioremap.c); NULL if no room. */
void __iomem *ioremap(unsigned long phys, unsigned long size);
void iounmap(volatile void __iomem *addr);

/* One 32-bit access to device memory, as Linux 2.6's readl and writel (x86 orders them itself). */
static inline u32 readl(const volatile void __iomem *addr) { return *(const volatile u32 *)addr; }
static inline void writel(u32 v, volatile void __iomem *addr) { *(volatile u32 *)addr = v; }

static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }

static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u32 read_cr2(void)
{
	u32 v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline void cpu_relax(void) { __asm__ volatile("pause"); }
static inline void raw_local_irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void raw_local_irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }

#define X86_EFLAGS_IF 0x200 /* in the flags local_irq_save returns: interrupts were on */

static inline unsigned long raw_local_irq_save(void)
{
	unsigned long flags;
	__asm__ volatile("pushfl; popl %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void raw_local_irq_restore(unsigned long flags)
{
	__asm__ volatile("pushl %0; popfl" : : "r"(flags) : "memory", "cc");
}

/*
 * The interrupt lock (kernel/irq_lock.c): a CPU holds it whenever it has
 * interrupts off outside a spinlock, so that every "interrupts off"
 * section of the kernel excludes the other CPUs too, as 2.2's global cli().
 */
void irq_lock_acquire(void);
void irq_lock_release(void);

static inline void local_irq_disable(void)
{
	raw_local_irq_disable();
	irq_lock_acquire();
}

static inline void local_irq_enable(void)
{
	irq_lock_release();
	raw_local_irq_enable();
}

static inline unsigned long local_irq_save(void)
{
	unsigned long flags = raw_local_irq_save();

	irq_lock_acquire();
	return flags;
}

static inline void local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		irq_lock_release();
	raw_local_irq_restore(flags);
}

/* Atomically enable interrupts and wait for one (no lost wake-up between). */
static inline void safe_halt(void)
{
	irq_lock_release();
	__asm__ volatile("sti; hlt" ::: "memory");
}

/* Memory barriers: x86 keeps stores ordered, but the compiler must not reorder. */
#define barrier() __asm__ volatile("" ::: "memory")
#define mb() __asm__ volatile("mfence" ::: "memory")
#define rmb() __asm__ volatile("lfence" ::: "memory")
#define wmb() __asm__ volatile("sfence" ::: "memory")

#endif
