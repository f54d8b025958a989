/* vma_test.c: a process's VMA list: sorted, never overlapping, split at an address, free areas found from the top. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/string.h>

static void mm_init_empty(struct mm_struct *mm)
{
	*mm = (struct mm_struct){ 0 };
	INIT_LIST_HEAD(&mm->mmap);
}

static void mm_free_vmas(struct mm_struct *mm)
{
	struct vm_area_struct *v, *n;

	list_for_each_entry_safe(v, n, &mm->mmap, vm_list) {
		list_del(&v->vm_list);
		free_vma(v);
	}
}

static void vma_insert_sorted_and_refuses_overlap(struct ktest *t)
{
	struct mm_struct mm;
	struct vm_area_struct *v;
	unsigned long last = 0;

	mm_init_empty(&mm);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x3000, 0x5000, VM_READ, "b", 0), 0);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x1000, 0x2000, VM_READ, "a", 0), 0);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x8000, 0x9000, VM_READ, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x4000, 0x6000, VM_READ, NULL, 0), -EEXIST);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x1800, 0x2000, VM_READ, NULL, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, 0x2000, 0x2000, VM_READ, NULL, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, insert_vma(&mm, TASK_SIZE - 0x1000, TASK_SIZE + 0x1000, VM_READ, NULL, 0),
			-EINVAL);
	KTEST_EXPECT_EQ(t, mm.map_count, 3);
	list_for_each_entry(v, &mm.mmap, vm_list) {
		KTEST_EXPECT_TRUE(t, v->vm_start >= last);
		last = v->vm_end;
	}
	KTEST_EXPECT_STREQ(t, find_vma(&mm, 0x4fff)->vm_name, "b");
	KTEST_EXPECT_PTR_EQ(t, find_vma(&mm, 0x5000), NULL);
	KTEST_EXPECT_PTR_EQ(t, find_vma_intersection(&mm, 0x5000, 0x8000), NULL);
	KTEST_EXPECT_TRUE(t, find_vma_intersection(&mm, 0x5000, 0x8001) != NULL);
	mm_free_vmas(&mm);
}

static void vma_split_keeps_flags_and_offset(struct ktest *t)
{
	struct mm_struct mm;
	struct vm_area_struct *lo, *hi;

	mm_init_empty(&mm);
	KTEST_ASSERT_EQ(t, insert_vma(&mm, 0x10000, 0x14000, VM_READ | VM_WRITE, "f", 2), 0);
	KTEST_EXPECT_EQ(t, split_vma_at(&mm, 0x12000), 0);
	KTEST_EXPECT_EQ(t, split_vma_at(&mm, 0x12000), 0); /* already an edge: nothing */
	KTEST_EXPECT_EQ(t, split_vma_at(&mm, 0x20000), 0); /* in no VMA: nothing */
	lo = find_vma(&mm, 0x11000);
	hi = find_vma(&mm, 0x12000);
	KTEST_ASSERT_TRUE(t, lo && hi && lo != hi);
	KTEST_EXPECT_EQ(t, lo->vm_end, 0x12000);
	KTEST_EXPECT_EQ(t, hi->vm_start, 0x12000);
	KTEST_EXPECT_EQ(t, hi->vm_flags, VM_READ | VM_WRITE);
	KTEST_EXPECT_EQ(t, hi->vm_pgoff, 4);
	KTEST_EXPECT_STREQ(t, hi->vm_name, "f");
	KTEST_EXPECT_EQ(t, mm.map_count, 2);
	mm_free_vmas(&mm);
}

static void vma_unmapped_area_from_the_top(struct ktest *t)
{
	struct mm_struct mm;
	unsigned long a;

	mm_init_empty(&mm);
	a = get_unmapped_area(&mm, 0x2000);
	KTEST_EXPECT_EQ(t, a, MMAP_BASE - 0x2000);
	KTEST_ASSERT_EQ(t, insert_vma(&mm, a, a + 0x2000, VM_READ, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&mm, 0x1000), MMAP_BASE - 0x3000);
	KTEST_ASSERT_EQ(t, insert_vma(&mm, MMAP_BASE - 0x5000, MMAP_BASE - 0x4000, VM_READ, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, get_unmapped_area(&mm, 0x2000), MMAP_BASE - 0x4000); /* the hole */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&mm, 0x3000), MMAP_BASE - 0x8000); /* too small: below */
	KTEST_EXPECT_EQ(t, get_unmapped_area(&mm, MMAP_BASE), 0);		/* nowhere */
	mm_free_vmas(&mm);
}

static const struct ktest_case vma_cases[] = {
	KTEST_CASE(vma_insert_sorted_and_refuses_overlap),
	KTEST_CASE(vma_split_keeps_flags_and_offset),
	KTEST_CASE(vma_unmapped_area_from_the_top),
	KTEST_END,
};

static const struct ktest_suite vma_suite = {
	.name = "vma",
	.cases = vma_cases,
};
KTEST_SUITE(vma_suite);
