/* elf_test.c: the checks of an ELF32 i386 executable before execve (fs/binfmt_elf.c), on good and bad headers. */
#include <kobold/elf.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>

/* The ELF and program headers of Debian 12's busybox-static 1:1.35.0-4+deb12u1 (i386), 2063088 bytes. */
#define BUSYBOX_SIZE 2063088
static const u8 busybox_hdr[] __attribute__((aligned(4))) = {
	0x7f,
	0x45,
	0x4c,
	0x46,
	0x01,
	0x01,
	0x01,
	0x03,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x02,
	0x00,
	0x03,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
	0x00,
	0x9b,
	0x04,
	0x08,
	0x34,
	0x00,
	0x00,
	0x00,
	0xe0,
	0x76,
	0x1f,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x34,
	0x00,
	0x20,
	0x00,
	0x08,
	0x00,
	0x28,
	0x00,
	0x1a,
	0x00,
	0x19,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x80,
	0x04,
	0x08,
	0x00,
	0x80,
	0x04,
	0x08,
	0x68,
	0x02,
	0x00,
	0x00,
	0x68,
	0x02,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x00,
	0x90,
	0x04,
	0x08,
	0x00,
	0x90,
	0x04,
	0x08,
	0x88,
	0x3d,
	0x18,
	0x00,
	0x88,
	0x3d,
	0x18,
	0x00,
	0x05,
	0x00,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
	0x00,
	0x50,
	0x18,
	0x00,
	0x00,
	0xd0,
	0x1c,
	0x08,
	0x00,
	0xd0,
	0x1c,
	0x08,
	0xb9,
	0xc6,
	0x06,
	0x00,
	0xb9,
	0xc6,
	0x06,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
	0x24,
	0x23,
	0x1f,
	0x00,
	0x24,
	0xa3,
	0x23,
	0x08,
	0x24,
	0xa3,
	0x23,
	0x08,
	0x74,
	0x52,
	0x00,
	0x00,
	0xb4,
	0x95,
	0x00,
	0x00,
	0x06,
	0x00,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x34,
	0x01,
	0x00,
	0x00,
	0x34,
	0x81,
	0x04,
	0x08,
	0x34,
	0x81,
	0x04,
	0x08,
	0x44,
	0x00,
	0x00,
	0x00,
	0x44,
	0x00,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x07,
	0x00,
	0x00,
	0x00,
	0x24,
	0x23,
	0x1f,
	0x00,
	0x24,
	0xa3,
	0x23,
	0x08,
	0x24,
	0xa3,
	0x23,
	0x08,
	0x14,
	0x00,
	0x00,
	0x00,
	0x54,
	0x00,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x51,
	0xe5,
	0x74,
	0x64,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x00,
	0x06,
	0x00,
	0x00,
	0x00,
	0x10,
	0x00,
	0x00,
	0x00,
	0x52,
	0xe5,
	0x74,
	0x64,
	0x24,
	0x23,
	0x1f,
	0x00,
	0x24,
	0xa3,
	0x23,
	0x08,
	0x24,
	0xa3,
	0x23,
	0x08,
	0xdc,
	0x3c,
	0x00,
	0x00,
	0xdc,
	0x3c,
	0x00,
	0x00,
	0x04,
	0x00,
	0x00,
	0x00,
	0x01,
	0x00,
	0x00,
	0x00,
};

/* A small static executable: text at 0x08048000, data after it, entry in text. */
struct image {
	Elf32_Ehdr eh;
	Elf32_Phdr ph[3];
};

static void make_image(struct image *im)
{
	memset(im, 0, sizeof(*im));
	memcpy(im->eh.e_ident, "\x7f"
			       "ELF",
	       4);
	im->eh.e_ident[EI_CLASS] = ELFCLASS32;
	im->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	im->eh.e_ident[EI_VERSION] = EV_CURRENT;
	im->eh.e_type = ET_EXEC;
	im->eh.e_machine = EM_386;
	im->eh.e_version = EV_CURRENT;
	im->eh.e_entry = 0x08048100;
	im->eh.e_phoff = sizeof(Elf32_Ehdr);
	im->eh.e_ehsize = sizeof(Elf32_Ehdr);
	im->eh.e_phentsize = sizeof(Elf32_Phdr);
	im->eh.e_phnum = 3;
	im->ph[0] = (Elf32_Phdr){ PT_LOAD, 0, 0x08048000, 0x08048000, 0x2000, 0x2000, PF_R | PF_X,
				  0x1000 };
	im->ph[1] = (Elf32_Phdr){ PT_LOAD, 0x2000, 0x0804a000, 0x0804a000, 0x100, 0x3000,
				  PF_R | PF_W, 0x1000 };
	im->ph[2] = (Elf32_Phdr){ PT_TLS, 0x2000, 0x0804a000, 0x0804a000, 0x10, 0x20, PF_R, 4 };
}

static int check(struct image *im, u64 size, const char **why)
{
	struct elf_info info;

	*why = "";
	return elf_check(im, sizeof(*im), size, &info, why);
}

static void elf_busybox_header_is_accepted(struct ktest *t)
{
	struct elf_info info;
	const char *why = NULL;

	KTEST_ASSERT_EQ(t, elf_check(busybox_hdr, sizeof(busybox_hdr), BUSYBOX_SIZE, &info, &why), 0);
	KTEST_EXPECT_EQ(t, info.type, ET_EXEC);
	KTEST_EXPECT_EQ(t, info.entry, 0x8049b00);
	KTEST_EXPECT_EQ(t, info.nr_load, 4);
	KTEST_EXPECT_EQ(t, info.start, 0x08048000);
	KTEST_EXPECT_EQ(t, info.end, 0x08244000); /* 0x0823a324 + 0x95b4, page-rounded */
	KTEST_EXPECT_TRUE(t, info.tls != NULL);
	KTEST_EXPECT_EQ(t, info.tls->p_memsz, 0x54);
	/* the same headers with the file cut short: its last segment is not all there */
	KTEST_EXPECT_EQ(t, elf_check(busybox_hdr, sizeof(busybox_hdr), 0x1f0000, &info, &why),
			-ENOEXEC);
	KTEST_EXPECT_TRUE(t, strstr(why, "past the end of the file") != NULL);
}

static void elf_small_static_and_pie_are_accepted(struct ktest *t)
{
	struct image im;
	const char *why;

	make_image(&im);
	KTEST_EXPECT_EQ(t, check(&im, 0x2100, &why), 0);
	im.eh.e_type = ET_DYN; /* static-pie: the same, placed at a bias */
	for (int i = 0; i < 3; i++)
		im.ph[i].p_vaddr -= 0x08048000;
	im.eh.e_entry -= 0x08048000;
	KTEST_EXPECT_EQ(t, check(&im, 0x2100, &why), 0);
}

/* Each mistake alone, with the words that say what it is. */
static void elf_bad_headers_say_why(struct ktest *t)
{
	static const struct {
		unsigned int field;
		u32 value;
		const char *words;
	} cases[] = {
		{ 0, 'M', "magic" },
		{ 1, 2, "32-bit" },		   /* ELFCLASS64 */
		{ 2, 2, "little-endian" },	   /* big-endian */
		{ 3, 1, "neither an executable" }, /* ET_REL */
		{ 4, 62, "i386" },		   /* EM_X86_64 */
		{ 5, 0, "no program headers" },
		{ 6, 40, "program header size" },
		{ 7, 0x1000, "program headers past" }, /* e_phoff */
		{ 8, 0xbfffe000, "PAGE_OFFSET" },      /* data segment over the kernel's */
		{ 9, 0xfffff000, "PAGE_OFFSET" },      /* p_memsz that wraps around */
		{ 10, 0x08049000, "overlap" },	       /* data starts inside text */
		{ 11, 0x08060000, "entry point" },
		{ 12, 0x10000, "file size is larger" }, /* p_filesz > p_memsz */
		{ 13, 0x9000, "past the end of the file" },
		{ 14, PT_INTERP, "dynamically linked" },
		{ 15, 0x0804a010, "modulo the page size" },
		{ 16, 3, "aligned" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct image im;
		const char *why;
		u32 v = cases[i].value;

		make_image(&im);
		switch (cases[i].field) {
		case 0:
			im.eh.e_ident[0] = (u8)v;
			break;
		case 1:
			im.eh.e_ident[EI_CLASS] = (u8)v;
			break;
		case 2:
			im.eh.e_ident[EI_DATA] = (u8)v;
			break;
		case 3:
			im.eh.e_type = (u16)v;
			break;
		case 4:
			im.eh.e_machine = (u16)v;
			break;
		case 5:
			im.eh.e_phnum = (u16)v;
			break;
		case 6:
			im.eh.e_phentsize = (u16)v;
			break;
		case 7:
			im.eh.e_phoff = v;
			break;
		case 8:
			im.ph[1].p_vaddr = v;
			im.ph[1].p_offset = 0x2000;
			break;
		case 9:
			im.ph[1].p_memsz = v;
			break;
		case 10:
			im.ph[1].p_vaddr = v;
			im.ph[1].p_offset = 0x1000;
			break;
		case 11:
			im.eh.e_entry = v;
			break;
		case 12:
			im.ph[1].p_filesz = v;
			break;
		case 13:
			im.ph[1].p_offset = v;
			break;
		case 14:
			im.ph[2].p_type = v;
			break;
		case 15:
			im.ph[1].p_vaddr = v;
			break;
		case 16:
			im.eh.e_phoff = sizeof(Elf32_Ehdr) - 2;
			break;
		}
		KTEST_EXPECT_EQ(t, check(&im, 0x2100, &why), -ENOEXEC);
		if (!strstr(why, cases[i].words))
			ktest_fail(t, __FILE__, __LINE__, "case %u: \"%s\" does not say \"%s\"", i, why,
				   cases[i].words);
	}
}

static const struct ktest_case elf_cases[] = {
	KTEST_CASE(elf_busybox_header_is_accepted),
	KTEST_CASE(elf_small_static_and_pie_are_accepted),
	KTEST_CASE(elf_bad_headers_say_why),
	KTEST_END,
};

static const struct ktest_suite elf_suite = {
	.name = "elf",
	.cases = elf_cases,
};
KTEST_SUITE(elf_suite);
