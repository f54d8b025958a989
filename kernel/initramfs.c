/*
 * initramfs.c: the root filesystem's first files, as Linux's
 * populate_rootfs(): the files of the source tree's etc/ (udev rules, say),
 * built into the kernel by scripts/gen-initramfs.sh, then each multiboot
 * module (QEMU's -initrd a.cpio,b.cpio; GRUB's module lines) that is a newc
 * cpio archive, unpacked in order, later over earlier. A module's pages go
 * back to the allocator once it is unpacked, as Linux frees the initrd.
 */
#include <kobold/initramfs.h>

#include <asm/page.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/multiboot.h>
#include <kobold/printk.h>
#include <kobold/string.h>

#define MAX_INITRD 8

struct initrd {
	u32 start, end; /* physical */
	char name[64];	/* its command line: the file name, for messages */
};

static struct initrd initrds[MAX_INITRD];
static unsigned int nr_initrds;

/* A module's name for messages: its command line's first word, without directories. */
static void module_name(char *buf, size_t size, const char *cmdline)
{
	const char *end = strchr(cmdline, ' '), *base = cmdline;
	size_t len;

	for (const char *p = cmdline; *p && p != end; p++)
		if (*p == '/')
			base = p + 1;
	len = end ? (size_t)(end - base) : strlen(base);
	if (len >= size)
		len = size - 1;
	memcpy(buf, base, len);
	buf[len] = '\0';
}

void initrd_save(const struct multiboot_info *mbi)
{
	const struct multiboot_module *mod;

	if (!(mbi->flags & MULTIBOOT_INFO_MODS))
		return;
	mod = phys_to_virt(mbi->mods_addr);
	for (u32 i = 0; i < mbi->mods_count; i++) {
		struct initrd *rd = &initrds[nr_initrds];

		if (nr_initrds == MAX_INITRD) {
			pr_err("initramfs: %u modules; only the first %d are read\n", mbi->mods_count,
			       MAX_INITRD);
			break;
		}
		if (mod[i].mod_end < mod[i].mod_start || mod[i].mod_end > LOWMEM_SIZE) {
			pr_err("initramfs: module %u at %#x-%#x is out of low memory, skipped\n", i,
			       mod[i].mod_start, mod[i].mod_end);
			continue;
		}
		rd->start = mod[i].mod_start;
		rd->end = mod[i].mod_end;
		if (mod[i].string)
			module_name(rd->name, sizeof(rd->name), phys_to_virt(mod[i].string));
		if (!rd->name[0])
			snprintf(rd->name, sizeof(rd->name), "module %u", i);
		nr_initrds++;
	}
}

static int populate_builtin(void)
{
	int err, first = 0;

	for (const struct initramfs_file *f = initramfs_files; f->path; f++) {
		err = initramfs_write_file(f->path, f->data, f->size, 0644);
		if (err)
			pr_err("initramfs: %s: %s\n", f->path, kstrerror(err));
		first = first ?: err;
	}
	return first;
}

static int unpack_initrd(const struct initrd *rd)
{
	struct initramfs_stats st;
	int err = unpack_to_rootfs(phys_to_virt(rd->start), rd->end - rd->start, rd->name, &st);

	pr_info("initramfs: %s: %u KiB, %u member(s) unpacked%s", rd->name,
		(rd->end - rd->start + 1023) / 1024, st.unpacked, err ? " before the error" : "");
	if (st.skipped || st.failed)
		pr_cont(", %u skipped, %u refused", st.skipped, st.failed);
	pr_cont("\n");
	free_reserved_range(rd->start, rd->end);
	return err;
}

int populate_rootfs(void)
{
	int err, first = populate_builtin();

	for (unsigned int i = 0; i < nr_initrds; i++) {
		err = unpack_initrd(&initrds[i]);
		first = first ?: err;
	}
	nr_initrds = 0;
	return first;
}
