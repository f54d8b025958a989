/*
 * mm_types.h: a process's address space (mm/mmap.c, mm/memory.c): its page
 * directory, which shares the kernel's entries above PAGE_OFFSET, and its
 * VMAs, the ranges of user addresses it may touch, as Linux's mm_struct
 * and vm_area_struct. Pages come on first touch (demand-zero, or copied on
 * write after fork).
 */
#ifndef KOBOLD_MM_TYPES_H
#define KOBOLD_MM_TYPES_H

#include <kobold/list.h>
#include <kobold/types.h>

#define VM_READ 0x1
#define VM_WRITE 0x2
#define VM_EXEC 0x4
#define VM_SHARED 0x8
#define VM_GROWSDOWN 0x100
#define VM_IO 0x4000 /* a device's memory: not the process's own (Linux's value) */

#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20

#define TASK_SIZE 0xC0000000UL /* PAGE_OFFSET: user space ends here */
#define STACK_TOP TASK_SIZE
#define STACK_SIZE_MAX (8UL << 20)			     /* the stack VMA: 8 MiB, Linux's default RLIMIT_STACK */
#define MMAP_BASE (STACK_TOP - STACK_SIZE_MAX - (1UL << 20)) /* mmap grows down from here */
#define ELF_ET_DYN_BASE 0x00400000UL			     /* static-pie's load bias, as Linux i386 */

struct kioctx;
struct file;
struct vm_area_struct;

/*
 * A page fault in a mapping a driver made (Linux 2.6.23's struct
 * vm_fault): pgoff is the page's index in the file (vm_pgoff and the
 * offset in the VMA); the driver's fault sets page, the kernel address of
 * the page to map, after get_page() on it. Kobold has no struct page.
 */
struct vm_fault {
	unsigned long pgoff;
	void *virtual_address; /* the faulting user address */
	void *page;
};

#define VM_FAULT_OOM 0x0001
#define VM_FAULT_SIGBUS 0x0002

/* A driver's mapping (f_op->mmap sets vma->vm_ops): open for each new copy (fork, a split), close for each that goes. */
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *vma);
	void (*close)(struct vm_area_struct *vma);
	int (*fault)(struct vm_area_struct *vma, struct vm_fault *vmf); /* 0 or VM_FAULT_* */
};

struct vm_area_struct {
	unsigned long vm_start, vm_end; /* [start, end), page-aligned */
	unsigned long vm_flags;		/* VM_READ | VM_WRITE | ... */
	unsigned long vm_pgoff;		/* in the file, for /proc/PID/maps */
	char *vm_name;			/* the file's path, "[heap]", "[stack]", or NULL */
	struct list_head vm_list;	/* in mm->mmap, by address */
	/* a file mapped through its f_op->mmap (a device): */
	struct file *vm_file; /* held: the file stays open while it is mapped */
	const struct vm_operations_struct *vm_ops;
	void *vm_private_data;
};

struct mm_struct {
	u32 *pgd;	       /* the page directory, one page */
	struct list_head mmap; /* VMAs by address */
	int map_count;
	int users;		   /* tasks using it: vfork's child shares its parent's */
	struct kioctx *ioctx_list; /* its AIO contexts (fs/aio.c); not copied by fork, as Linux */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk, start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	unsigned long rss; /* pages mapped */
	char *exe_path;	   /* the executable's absolute path: /proc/PID/exe */
};

/* mm/vma.c: the VMA list (portable: no page tables). */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* The first VMA that overlaps [start, end), or NULL. */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end);
int insert_vma(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
	       const char *name, unsigned long pgoff);
/* Splits so that no VMA crosses addr. */
int split_vma_at(struct mm_struct *mm, unsigned long addr);
/* A free range of len bytes below MMAP_BASE, highest first; 0 if none. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len);
/* Runs vm_ops->close and drops vm_file, then frees it. */
void free_vma(struct vm_area_struct *vma);
/* dst takes src's file, operations and data, as a new user of them (vm_ops->open). */
void vma_copy_file(struct vm_area_struct *dst, const struct vm_area_struct *src);

/* mm/memory.c: page tables and faults. */
struct mm_struct *mm_alloc(void);
/* A copy for fork: private pages shared read-only, copied at the first write. */
struct mm_struct *dup_mm(struct mm_struct *old);
/* Drops a user; the last frees the pages, the VMAs and the page tables. */
void mmput(struct mm_struct *mm);
/* Loads mm's page directory (NULL: the kernel's alone). */
void switch_mm(struct mm_struct *mm);
/* Resolves a fault at addr: 0, or -EFAULT (no VMA, or not allowed), -ENOMEM. */
int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write);
/* Drops the pages and the VMAs of [start, end). */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len, unsigned long prot);
/* Maps a fresh zeroed page at addr (in a VMA); its kernel address, or NULL. */
void *map_new_page(struct mm_struct *mm, unsigned long addr);
/* The kernel address of the page at addr, mapped first (zeroed) if it is not; NULL: no memory. */
void *user_page_kaddr(struct mm_struct *mm, unsigned long addr);
/* Copies len bytes of mm's memory at addr (present pages only): the bytes copied. */
int access_process_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len);
/* Physical page references, for pages shared after fork. */
void get_page_phys(unsigned long phys);
void put_page_phys(unsigned long phys);
/*
 * A driver's page that mappings may hold (vm_ops->fault), by its kernel
 * address (Linux: struct page). alloc_pages takes no reference (Linux 2.6's
 * gives the page a count of 1): the driver takes its own with get_page()
 * after allocating it, and one for each mapping its fault hands it to; the
 * last put_page frees it.
 */
void get_page(void *kaddr);
void put_page(void *kaddr);

#endif
