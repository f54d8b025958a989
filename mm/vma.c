/*
 * vma.c: a process's VMAs, kept in a list sorted by address (Linux 2.6's
 * mm/mmap.c kept a list and a red-black tree; a process here has a
 * handful). Every range is page-aligned and no two overlap. Portable C:
 * unit-tested on the host (tests/unit/vma_test.c).
 */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
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
	if (vma->vm_ops && vma->vm_ops->close)
		vma->vm_ops->close(vma);
	if (vma->vm_file)
		fput(vma->vm_file);
	kfree(vma->vm_name);
	kfree(vma);
}

void vma_copy_file(struct vm_area_struct *dst, const struct vm_area_struct *src)
{
	dst->vm_file = src->vm_file ? get_file(src->vm_file) : NULL;
	dst->vm_ops = src->vm_ops;
	dst->vm_private_data = src->vm_private_data;
	if (dst->vm_ops && dst->vm_ops->open)
		dst->vm_ops->open(dst);
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
	vma_copy_file(tail, v);
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
