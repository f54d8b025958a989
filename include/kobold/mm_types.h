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

struct vm_area_struct {
	unsigned long vm_start, vm_end; /* [start, end), page-aligned */
	unsigned long vm_flags;		/* VM_READ | VM_WRITE | ... */
	unsigned long vm_pgoff;		/* in the file, for /proc/PID/maps */
	char *vm_name;			/* the file's path, "[heap]", "[stack]", or NULL */
	struct list_head vm_list;	/* in mm->mmap, by address */
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
void free_vma(struct vm_area_struct *vma);

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

#endif
