/* elf.h: the ELF32 structures (System V ABI, i386 supplement) and the check execve makes before loading. */
#ifndef KOBOLD_ELF_H
#define KOBOLD_ELF_H

#include <kobold/types.h>

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define ELFCLASS32 1
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define ET_DYN 3
#define EM_386 3

#define PT_NULL 0
#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_INTERP 3
#define PT_PHDR 6
#define PT_TLS 7
#define PF_X 1
#define PF_W 2
#define PF_R 4

typedef struct {
	u8 e_ident[EI_NIDENT];
	u16 e_type, e_machine;
	u32 e_version, e_entry, e_phoff, e_shoff, e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	u32 p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
} Elf32_Phdr;

/* What the check learnt, for the loader. */
struct elf_info {
	u16 type;		/* ET_EXEC or ET_DYN (static-pie: placed at a load bias) */
	u32 entry;		/* e_entry, before any bias */
	u32 start, end;		/* the PT_LOAD segments' span, page-rounded out */
	unsigned int nr_load;	/* PT_LOAD segments */
	const Elf32_Phdr *tls;	/* PT_TLS, or NULL */
	const Elf32_Phdr *phdr; /* the program headers, in buf */
	unsigned int phnum;
};

/*
 * Checks an i386 ELF executable before execve loads it, as Linux's
 * load_elf_binary does: buf holds its first buflen bytes (at least the ELF
 * header and the program headers), file_size is the whole file's. 0 and
 * info filled in, or -ENOEXEC with *why saying what is wrong: not ELF, not
 * 32-bit little-endian i386, not ET_EXEC/ET_DYN, a dynamic executable (no
 * interpreter yet), program headers out of the file, a segment past the
 * file's end, above PAGE_OFFSET (over the kernel) or overlapping another, an
 * entry point outside every executable segment.
 */
int elf_check(const void *buf, size_t buflen, u64 file_size, struct elf_info *info,
	      const char **why);

#endif
