/*
 * mmap.c: the memory system calls (Linux's mm/mmap.c and mprotect.c): brk
 * grows or shrinks the heap's VMA, mmap2 makes anonymous or private file
 * mappings (a file's pages are copied in: no page cache yet), munmap and
 * mprotect split VMAs at their edges (mm/vma.c) and fix the page tables
 * (mm/memory.c). A file whose f_op has mmap (a device) makes the mapping
 * itself: its pages come from its vm_ops->fault, shared with MAP_SHARED.
 */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/sched.h>
#include <kobold/slab.h>

long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->user.mm;
	unsigned long old = ALIGN_UP(mm->brk, PAGE_SIZE), new = ALIGN_UP(brk, PAGE_SIZE);

	if (brk < mm->start_brk)
		return (long)mm->brk;
	if (new < old) {
		do_munmap(mm, new, old - new);
	} else if (new > old) {
		if (find_vma_intersection(mm, old, new + PAGE_SIZE) || new >= MMAP_BASE)
			return (long)mm->brk;
		if (insert_vma(mm, old, new, VM_READ | VM_WRITE, "[heap]", 0))
			return (long)mm->brk;
	}
	mm->brk = brk;
	return (long)brk;
}

static int fill_from_file(struct mm_struct *mm, struct file *f, unsigned long addr,
			  unsigned long len, loff_t off)
{
	for (unsigned long a = addr; a < addr + len; a += PAGE_SIZE) {
		char *page = user_page_kaddr(mm, a);
		ssize_t n;

		if (!page)
			return -ENOMEM;
		vfs_llseek(f, off + (loff_t)(a - addr));
		n = vfs_read(f, page, PAGE_SIZE);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

/* The mapping's name in /proc/PID/maps: the file's path. */
static char *file_path(struct file *f)
{
	char *buf = kmalloc(PATH_MAX);

	if (buf && vfs_path_name(&f->f_path, buf, PATH_MAX) < 0) {
		kfree(buf);
		buf = NULL;
	}
	return buf;
}

/*
 * A driver's mmap (Linux's mmap_region with vma->vm_file): read access to
 * the file always, write access for a shared writable mapping (EACCES);
 * the VMA holds the file; the driver's mmap sets vm_ops or refuses.
 */
static long mmap_device(struct mm_struct *mm, struct file *f, unsigned long addr,
			unsigned long len, unsigned long prot, unsigned long flags,
			unsigned long pgoff)
{
	unsigned int acc = f->f_flags & O_ACCMODE;
	unsigned long vm_flags = (prot & 7) | (flags & MAP_SHARED ? VM_SHARED : 0);
	struct vm_area_struct *v;
	char *name;
	long err;

	if (acc == O_WRONLY || ((flags & MAP_SHARED) && (prot & PROT_WRITE) && acc != O_RDWR))
		return -EACCES;
	name = file_path(f);
	err = insert_vma(mm, addr, addr + len, vm_flags, name, pgoff);
	kfree(name);
	if (err)
		return err;
	v = find_vma(mm, addr);
	v->vm_file = get_file(f);
	err = f->f_op->mmap(f, v);
	if (err) {
		v->vm_ops = NULL; /* refused: no close for a mapping that never opened */
		do_munmap(mm, addr, len);
		return err;
	}
	return (long)addr;
}

long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	       int fd, unsigned long pgoff)
{
	struct mm_struct *mm = current->user.mm;
	struct file *f = NULL;
	loff_t saved;
	long err;

	if (!len || (addr % PAGE_SIZE) || len > TASK_SIZE)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!(flags & MAP_ANONYMOUS)) {
		f = fget(current->user.files, fd);
		if (!f)
			return -EBADF;
		if ((flags & MAP_SHARED) && !f->f_op->mmap)
			return -ENODEV; /* shared file mappings: not yet */
	}
	if (flags & MAP_FIXED) {
		if (addr + len > TASK_SIZE || addr + len < addr)
			return -EINVAL;
		do_munmap(mm, addr, len);
	} else if (!addr || find_vma_intersection(mm, addr, addr + len) || addr + len > MMAP_BASE) {
		addr = get_unmapped_area(mm, len);
		if (!addr)
			return -ENOMEM;
	}
	if (f && f->f_op->mmap)
		return mmap_device(mm, f, addr, len, prot, flags, pgoff);
	err = insert_vma(mm, addr, addr + len, (prot & 7) | (f ? VM_WRITE : 0), NULL, pgoff);
	if (err)
		return err;
	if (f) {
		saved = f->f_pos;
		err = fill_from_file(mm, f, addr, len, (loff_t)pgoff << PAGE_SHIFT);
		f->f_pos = saved;
		if (!err)
			err = do_mprotect(mm, addr, len, prot & 7);
		if (err) {
			do_munmap(mm, addr, len);
			return err;
		}
	}
	return (long)addr;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	return do_munmap(current->user.mm, addr, len);
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	return do_mprotect(current->user.mm, addr, len, prot & 7);
}
