/*
 * binfmt_elf.c: the checks of an ELF32 i386 executable that come before
 * execve maps anything (Linux's fs/binfmt_elf.c, load_elf_binary's first
 * part). Every size and offset is checked for overflow in 64 bits; user
 * space is everything below PAGE_OFFSET (0xC0000000, the 3G/1G split).
 */
#include <kobold/elf.h>

#include <kobold/errno.h>
#include <kobold/string.h>

#define USER_TOP 0xC0000000ull /* PAGE_OFFSET: the kernel starts here */
#define ELF_PAGE 4096ull
#define MAX_PHDRS_SIZE 65536u /* Linux's bound on e_phnum * e_phentsize */

static int fail(const char **why, const char *reason)
{
	*why = reason;
	return -ENOEXEC;
}

static int check_ehdr(const Elf32_Ehdr *eh, size_t buflen, const char **why)
{
	if (buflen < sizeof(*eh) || memcmp(eh->e_ident, "\x7f"
							"ELF",
					   4))
		return fail(why, "not an ELF file (bad magic)");
	if (eh->e_ident[EI_CLASS] != ELFCLASS32)
		return fail(why, "not a 32-bit ELF (ELFCLASS64?)");
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(why, "not little-endian");
	if (eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT)
		return fail(why, "unknown ELF version");
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return fail(why, "neither an executable (ET_EXEC) nor position-independent (ET_DYN)");
	if (eh->e_machine != EM_386)
		return fail(why, "not for i386 (e_machine is not EM_386)");
	if (eh->e_phentsize != sizeof(Elf32_Phdr))
		return fail(why, "program header size is not 32");
	if (eh->e_phnum == 0 || (u32)eh->e_phnum * sizeof(Elf32_Phdr) > MAX_PHDRS_SIZE)
		return fail(why, "no program headers, or too many");
	if (eh->e_phoff % 4)
		return fail(why, "program headers not 4-byte aligned");
	if ((u64)eh->e_phoff + (u64)eh->e_phnum * sizeof(Elf32_Phdr) > buflen)
		return fail(why, "program headers past the end of the file");
	return 0;
}

/* One PT_LOAD: inside the file, below PAGE_OFFSET, after the one before it. */
static int check_load(const Elf32_Phdr *ph, u64 file_size, u64 prev_end, const char **why)
{
	u64 end = (u64)ph->p_vaddr + ph->p_memsz;

	if (ph->p_filesz > ph->p_memsz)
		return fail(why, "a segment's file size is larger than its memory size");
	if ((u64)ph->p_offset + ph->p_filesz > file_size)
		return fail(why, "a segment reaches past the end of the file");
	if (ph->p_memsz == 0)
		return 0;
	if (end > USER_TOP)
		return fail(why, "a segment reaches PAGE_OFFSET (0xC0000000), the kernel's");
	if (ph->p_align > 1 && (ph->p_vaddr - ph->p_offset) % ELF_PAGE)
		return fail(why, "a segment's address and offset differ modulo the page size");
	if (ph->p_vaddr < prev_end)
		return fail(why, "segments overlap or are not in address order");
	return 0;
}

static bool entry_in_text(const Elf32_Phdr *ph, unsigned int n, u32 entry)
{
	for (unsigned int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) && entry >= ph[i].p_vaddr &&
		    (u64)entry < (u64)ph[i].p_vaddr + ph[i].p_memsz)
			return true;
	return false;
}

int elf_check(const void *buf, size_t buflen, u64 file_size, struct elf_info *info,
	      const char **why)
{
	const Elf32_Ehdr *eh = buf;
	const Elf32_Phdr *ph;
	u64 prev_end = 0, start = USER_TOP;
	int err = check_ehdr(eh, buflen, why);

	if (err)
		return err;
	if (buflen > file_size)
		return fail(why, "file size smaller than its headers");
	ph = (const Elf32_Phdr *)((const u8 *)buf + eh->e_phoff);
	memset(info, 0, sizeof(*info));
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP)
			return fail(why, "dynamically linked (PT_INTERP): only static executables run");
		if (ph[i].p_type == PT_TLS)
			info->tls = &ph[i];
		if (ph[i].p_type != PT_LOAD)
			continue;
		err = check_load(&ph[i], file_size, prev_end, why);
		if (err)
			return err;
		if (ph[i].p_memsz == 0)
			continue;
		if (!info->nr_load++)
			start = ph[i].p_vaddr;
		prev_end = (u64)ph[i].p_vaddr + ph[i].p_memsz;
	}
	if (!info->nr_load)
		return fail(why, "no loadable segment");
	if (!entry_in_text(ph, eh->e_phnum, eh->e_entry))
		return fail(why, "the entry point is in no executable segment");
	info->type = eh->e_type;
	info->entry = eh->e_entry;
	info->start = (u32)(start & ~(ELF_PAGE - 1));
	info->end = (u32)((prev_end + ELF_PAGE - 1) & ~(ELF_PAGE - 1));
	info->phdr = ph;
	info->phnum = eh->e_phnum;
	return 0;
}
