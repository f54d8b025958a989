/*
 * mmap.c: a process's VMAs, kept in a list sorted by address (Linux 2.6
 * kept a list and a red-black tree; a process here has a handful). Every
 * range is page-aligned and no two overlap.
 */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/sched.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/slab.h>
#include <kobold/string.h>

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->mmap, vm_list)
		if (addr >= v->vm_start && addr < v->vm_end)
			return v;
	return NULL;
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->mmap, vm_list)
		if (v->vm_start < end && start < v->vm_end)
			return v;
	return NULL;
}

void free_vma(struct vm_area_struct *vma)
{
	kfree(vma->vm_name);
	kfree(vma);
}

static struct vm_area_struct *new_vma(unsigned long start, unsigned long end, unsigned long flags,
				      const char *name, unsigned long pgoff)
{
	struct vm_area_struct *v = kzalloc(sizeof(*v));

	if (!v)
		return NULL;
	v->vm_start = start;
	v->vm_end = end;
	v->vm_flags = flags;
	v->vm_pgoff = pgoff;
	if (name && !(v->vm_name = kstrdup(name))) {
		kfree(v);
		return NULL;
	}
	return v;
}

/* Into the list by address. */
static void link_vma(struct mm_struct *mm, struct vm_area_struct *nv)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->mmap, vm_list) {
		if (v->vm_start > nv->vm_start) {
			list_add_tail(&nv->vm_list, &v->vm_list);
			mm->map_count++;
			return;
		}
	}
	list_add_tail(&nv->vm_list, &mm->mmap);
	mm->map_count++;
}

int insert_vma(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
	       const char *name, unsigned long pgoff)
{
	struct vm_area_struct *v;

	if (start >= end || end > TASK_SIZE || (start | end) % PAGE_SIZE)
		return -EINVAL;
	if (find_vma_intersection(mm, start, end))
		return -EEXIST;
	v = new_vma(start, end, flags, name, pgoff);
	if (!v)
		return -ENOMEM;
	link_vma(mm, v);
	return 0;
}

int split_vma_at(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *v = find_vma(mm, addr), *tail;

	if (!v || v->vm_start == addr)
		return 0;
	tail = new_vma(addr, v->vm_end, v->vm_flags, v->vm_name,
		       v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT));
	if (!tail)
		return -ENOMEM;
	v->vm_end = addr;
	list_add(&tail->vm_list, &v->vm_list);
	mm->map_count++;
	return 0;
}

unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len)
{
	unsigned long top = MMAP_BASE;
	struct vm_area_struct *v;

	len = ALIGN_UP(len, PAGE_SIZE);
	list_for_each_entry_reverse(v, &mm->mmap, vm_list) {
		if (v->vm_start >= top)
			continue;
		if (v->vm_end <= top - len)
			return top - len;
		top = v->vm_start;
		if (top < len + PAGE_SIZE)
			return 0;
	}
	return top >= len + PAGE_SIZE ? top - len : 0;
}

/* ---- the system calls: brk, mmap2, munmap, mprotect ---- */

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
		if (flags & MAP_SHARED)
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
