/*
 * memory.c: a process's page tables. Each mm has its own page directory;
 * its kernel half is a copy of swapper_pg_dir's, which never changes after
 * paging_init, so every process sees the same kernel. User pages are
 * mapped 4 KiB at a time on first touch; after fork both processes map
 * the same page read-only and the first write copies it (copy-on-write),
 * as Linux's do_wp_page. A page's sharers are counted in page_refs.
 * page_refs changes with locked instructions: two processes that share a
 * page since fork may take their copies on two CPUs at once, and the last
 * one to let go frees it. An mm's tables and VMAs are the big kernel lock's
 * where another thread could change them: system calls hold it, and so does
 * a fault in an mm that threads share (kernel/process.c); a fault in a
 * process of one thread changes only what that thread alone could change.
 * A CPU that has an mm loaded while another changes it (threads of one mm
 * on two CPUs) is told to forget the old entry by an IPI, as 2.6's
 * flush_tlb_page.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/aio.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/preempt.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/string.h>

#define PTE_PRESENT 0x001
#define PTE_WRITE 0x002
#define PTE_USER 0x004
#define PDE_USER_TABLE (PTE_PRESENT | PTE_WRITE | PTE_USER)
#define USER_PDES (TASK_SIZE >> 22)
#define NR_PFNS (LOWMEM_SIZE >> PAGE_SHIFT)

static u16 page_refs[NR_PFNS]; /* mappings of each user page (0: not a user page) */

void get_page_phys(unsigned long phys) { __sync_fetch_and_add(&page_refs[phys >> PAGE_SHIFT], 1); }

void get_page(void *kaddr) { get_page_phys(virt_to_phys(kaddr)); }

void put_page(void *kaddr) { put_page_phys(virt_to_phys(kaddr)); }

void put_page_phys(unsigned long phys)
{
	if (__sync_sub_and_fetch(&page_refs[phys >> PAGE_SHIFT], 1) == 0)
		free_pages(phys_to_virt(phys), 1);
}

static inline void flush_tlb_one(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

/* The page directory each CPU has loaded (NULL: not yet switched). */
static u32 *loaded_pgd[NR_CPUS];
#define current_pgd (loaded_pgd[smp_processor_id()])

void switch_mm(struct mm_struct *mm)
{
	u32 *pgd = mm ? mm->pgd : swapper_pg_dir;

	if (pgd == current_pgd)
		return;
	current_pgd = pgd;
	__asm__ volatile("mov %0, %%cr3" : : "r"(virt_to_phys(pgd)) : "memory");
}

#define FLUSH_ALL (~0UL)

static void flush_tlb_func(void *info)
{
	unsigned long addr = (unsigned long)info;
	u32 *pgd = current_pgd;

	if (addr != FLUSH_ALL)
		flush_tlb_one(addr);
	else if (pgd)
		__asm__ volatile("mov %0, %%cr3" : : "r"(virt_to_phys(pgd)) : "memory");
}

/*
 * The entry's new value is stored before the other CPUs' loaded_pgd is read:
 * a CPU that loads mm after that load walks the new table. With interrupts
 * off no IPI can be waited for; every caller that changes an mm threads
 * share holds the big kernel lock with them on (a system call, or a fault).
 */
static void flush_tlb_others(struct mm_struct *mm, unsigned long addr)
{
	unsigned int cpu;

	mb();
	for_each_online_cpu(cpu) if (cpu != smp_processor_id() && loaded_pgd[cpu] == mm->pgd &&
				     !irqs_disabled())
		smp_call_function_single(cpu, flush_tlb_func, (void *)addr, true);
}

/* Only threads of one mm run it on two CPUs: a process of one thread changes its own mm. */
static void flush_mm(struct mm_struct *mm, unsigned long addr)
{
	preempt_disable();
	if (mm->pgd == current_pgd)
		flush_tlb_func((void *)addr);
	if (mm->users > 1)
		flush_tlb_others(mm, addr);
	preempt_enable();
}

/* The page-table entry for addr, its table made if make is true; NULL if none. */
static u32 *pte_of(struct mm_struct *mm, unsigned long addr, bool make)
{
	u32 *pde = &mm->pgd[addr >> 22];
	u32 *table;

	if (!(*pde & PTE_PRESENT)) {
		if (!make || !(table = alloc_pages(1)))
			return NULL;
		memset(table, 0, PAGE_SIZE);
		*pde = virt_to_phys(table) | PDE_USER_TABLE;
	}
	table = phys_to_virt(*pde & ~(PAGE_SIZE - 1));
	return &table[(addr >> PAGE_SHIFT) & 1023];
}

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgd = alloc_pages(1);
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	memset(mm->pgd, 0, USER_PDES * 4);
	memcpy(&mm->pgd[USER_PDES], &swapper_pg_dir[USER_PDES], (1024 - USER_PDES) * 4);
	INIT_LIST_HEAD(&mm->mmap);
	mm->users = 1;
	return mm;
}

static u32 pte_flags(unsigned long vm_flags)
{
	return PTE_PRESENT | PTE_USER | (vm_flags & VM_WRITE ? PTE_WRITE : 0);
}

void *map_new_page(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr);
	u32 *pte = pte_of(mm, addr, true);
	void *page;

	if (!v || !pte || (*pte & PTE_PRESENT) || !(page = alloc_pages(1)))
		return NULL;
	memset(page, 0, PAGE_SIZE);
	page_refs[virt_to_phys(page) >> PAGE_SHIFT] = 1;
	*pte = virt_to_phys(page) | pte_flags(v->vm_flags);
	mm->rss++;
	flush_mm(mm, addr);
	return page;
}

/*
 * A write to a page shared since fork, or to a device's page in a private
 * mapping: the last sharer takes it, others copy it. In a shared mapping
 * (MAP_SHARED) every sharer writes the one page.
 */
static int do_wp_page(struct mm_struct *mm, struct vm_area_struct *v, unsigned long addr, u32 *pte)
{
	unsigned long phys = *pte & ~(PAGE_SIZE - 1);
	void *copy;

	if (!(v->vm_flags & VM_SHARED) &&
	    *(volatile u16 *)&page_refs[phys >> PAGE_SHIFT] > 1) { /* 1: no other sharer can appear */
		copy = alloc_pages(1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, phys_to_virt(phys), PAGE_SIZE);
		page_refs[virt_to_phys(copy) >> PAGE_SHIFT] = 1;
		put_page_phys(phys);
		phys = virt_to_phys(copy);
	}
	*pte = phys | PTE_PRESENT | PTE_USER | PTE_WRITE;
	flush_mm(mm, addr);
	return 0;
}

/* The driver's fault gives the page (with a reference for this mapping): 2.6.23's __do_fault. */
static int do_fault(struct mm_struct *mm, struct vm_area_struct *v, unsigned long addr,
		    bool write, u32 *pte)
{
	struct vm_fault vmf = { .pgoff = v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT),
				.virtual_address = (void *)addr };

	if (!v->vm_ops->fault || v->vm_ops->fault(v, &vmf) || !vmf.page)
		return -EFAULT; /* Linux: SIGBUS */
	*pte = virt_to_phys(vmf.page) | PTE_PRESENT | PTE_USER;
	if ((v->vm_flags & (VM_SHARED | VM_WRITE)) == (VM_SHARED | VM_WRITE))
		*pte |= PTE_WRITE;
	mm->rss++;
	flush_mm(mm, addr);
	if (write && !(*pte & PTE_WRITE))
		return do_wp_page(mm, v, addr, pte); /* MAP_PRIVATE: a copy of its own */
	return 0;
}

int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write)
{
	struct vm_area_struct *v = find_vma(mm, addr);
	u32 *pte;

	if (!v || (write && !(v->vm_flags & VM_WRITE)) ||
	    (!write && !(v->vm_flags & (VM_READ | VM_EXEC))))
		return -EFAULT;
	addr &= ~(PAGE_SIZE - 1);
	pte = pte_of(mm, addr, true);
	if (!pte)
		return -ENOMEM;
	if (!(*pte & PTE_PRESENT) && v->vm_ops)
		return do_fault(mm, v, addr, write, pte);
	if (!(*pte & PTE_PRESENT))
		return map_new_page(mm, addr) ? 0 : -ENOMEM;
	if (write && !(*pte & PTE_WRITE))
		return do_wp_page(mm, v, addr, pte);
	return 0; /* another CPU's stale entry, or a spurious fault: nothing to do */
}

static void zap_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		u32 *pte = pte_of(mm, a, false);

		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		put_page_phys(*pte & ~(PAGE_SIZE - 1));
		*pte = 0;
		mm->rss--;
		flush_mm(mm, a);
	}
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area_struct *v, *n;
	int err;

	if (start % PAGE_SIZE || !len || end > TASK_SIZE || end < start)
		return -EINVAL;
	err = split_vma_at(mm, start);
	if (!err)
		err = split_vma_at(mm, end);
	if (err)
		return err;
	list_for_each_entry_safe(v, n, &mm->mmap, vm_list) {
		if (v->vm_start < start || v->vm_end > end)
			continue;
		zap_range(mm, v->vm_start, v->vm_end);
		list_del(&v->vm_list);
		mm->map_count--;
		free_vma(v);
	}
	return 0;
}

/* The pages of a VMA whose write permission changed: write-enabled only where not shared. */
static void change_protection(struct mm_struct *mm, struct vm_area_struct *v)
{
	for (unsigned long a = v->vm_start; a < v->vm_end; a += PAGE_SIZE) {
		u32 *pte = pte_of(mm, a, false);
		unsigned long phys;

		if (!pte || !(*pte & PTE_PRESENT))
			continue;
		phys = *pte & ~(PAGE_SIZE - 1);
		*pte = phys | PTE_PRESENT | PTE_USER;
		if ((v->vm_flags & VM_WRITE) &&
		    ((v->vm_flags & VM_SHARED) || page_refs[phys >> PAGE_SHIFT] == 1))
			*pte |= PTE_WRITE;
		flush_mm(mm, a);
	}
}

int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long prot)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE);
	struct vm_area_struct *v;
	int err;

	if (start % PAGE_SIZE || end > TASK_SIZE || end < start)
		return -EINVAL;
	for (unsigned long a = start; a < end; a = v->vm_end)
		if (!(v = find_vma(mm, a)))
			return -ENOMEM; /* a hole in the range, as Linux says */
	err = split_vma_at(mm, start);
	if (!err)
		err = split_vma_at(mm, end);
	if (err)
		return err;
	list_for_each_entry(v, &mm->mmap, vm_list) {
		if (v->vm_start < start || v->vm_end > end)
			continue;
		v->vm_flags = (v->vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC)) |
			      (prot & (PROT_READ | PROT_WRITE | PROT_EXEC));
		change_protection(mm, v);
	}
	return 0;
}

/* The child's copy of one VMA's pages: both map them, neither may write (unless shared). */
static int copy_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *v)
{
	for (unsigned long a = v->vm_start; a < v->vm_end; a += PAGE_SIZE) {
		u32 *spte = pte_of(src, a, false), *dpte;

		if (!spte || !(*spte & PTE_PRESENT))
			continue;
		dpte = pte_of(dst, a, true);
		if (!dpte)
			return -ENOMEM;
		if (!(v->vm_flags & VM_SHARED))
			*spte &= ~PTE_WRITE;
		*dpte = *spte;
		get_page_phys(*spte & ~(PAGE_SIZE - 1));
		dst->rss++;
	}
	return 0;
}

struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *v;

	if (!mm)
		return NULL;
	memcpy(&mm->start_code, &old->start_code,
	       sizeof(*mm) - offsetof(struct mm_struct, start_code));
	mm->rss = 0;
	mm->exe_path = old->exe_path ? kstrdup(old->exe_path) : NULL;
	list_for_each_entry(v, &old->mmap, vm_list) {
		if (insert_vma(mm, v->vm_start, v->vm_end, v->vm_flags, v->vm_name, v->vm_pgoff) ||
		    (vma_copy_file(find_vma(mm, v->vm_start), v), copy_range(mm, old, v))) {
			mmput(mm);
			mm = NULL;
			break;
		}
	}
	flush_mm(old, FLUSH_ALL); /* the parent's pages are read-only now */
	return mm;
}

void mmput(struct mm_struct *mm)
{
	struct vm_area_struct *v, *n;

	if (!mm || --mm->users > 0)
		return;
	exit_aio(mm); /* waits for its requests in flight, as Linux's */
	if (mm->pgd == current_pgd)
		switch_mm(NULL);
	list_for_each_entry_safe(v, n, &mm->mmap, vm_list) {
		zap_range(mm, v->vm_start, v->vm_end);
		list_del(&v->vm_list);
		free_vma(v);
	}
	for (unsigned int i = 0; i < USER_PDES; i++)
		if (mm->pgd[i] & PTE_PRESENT)
			free_pages(phys_to_virt(mm->pgd[i] & ~(PAGE_SIZE - 1)), 1);
	free_pages(mm->pgd, 1);
	kfree(mm->exe_path);
	kfree(mm);
}

void *user_page_kaddr(struct mm_struct *mm, unsigned long addr)
{
	u32 *pte = pte_of(mm, addr, false);
	struct vm_area_struct *v = find_vma(mm, addr);

	if (pte && (*pte & PTE_PRESENT))
		return phys_to_virt(*pte & ~(PAGE_SIZE - 1));
	if (v && (v->vm_flags & VM_IO))
		return NULL; /* a device's memory: no page of the process's own there */
	return map_new_page(mm, addr & ~(PAGE_SIZE - 1));
}

int access_process_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		unsigned long a = addr + done, off = a & (PAGE_SIZE - 1);
		size_t n = min(len - done, (size_t)(PAGE_SIZE - off));
		u32 *pte = a < TASK_SIZE ? pte_of(mm, a, false) : NULL;

		if (!pte || !(*pte & PTE_PRESENT))
			break;
		memcpy((char *)buf + done, (char *)phys_to_virt(*pte & ~(PAGE_SIZE - 1)) + off, n);
		done += n;
	}
	return (int)done;
}
