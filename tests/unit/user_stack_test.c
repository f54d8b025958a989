/* user_stack_test.c: a new program's initial stack, laid out as Linux i386's create_elf_tables. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>
#include <kobold/user_stack.h>

#define TOP 0xc0000000u
#define SIZE 4096

static char img[SIZE];

static u32 word(u32 addr)
{
	u32 v;

	memcpy(&v, img + (addr - (TOP - SIZE)), 4);
	return v;
}

static const char *str(u32 addr) { return img + (addr - (TOP - SIZE)); }

/* The auxv value for type, walking from the first auxv word; 0xdead if absent. */
static u32 auxv(u32 p, u32 type)
{
	for (; word(p) != AT_NULL; p += 8)
		if (word(p) == type)
			return word(p + 4);
	return type == AT_NULL ? 0 : 0xdead;
}

static void user_stack_argv_envp_auxv(struct ktest *t)
{
	static const char strings[] = "ls\0-l\0HOME=/";
	struct user_stack_info si = { .entry = 0x8049000, .phdr = 0x8048034, .phnum = 9 };
	u32 p;

	memset(si.random, 0xa5, sizeof(si.random));
	KTEST_ASSERT_EQ(t, user_stack_build(img, SIZE, TOP, strings, sizeof(strings), 2, 1, "/bin/ls", &si),
			0);
	KTEST_EXPECT_EQ(t, si.sp % 16, 0);
	KTEST_EXPECT_EQ(t, word(si.sp), 2); /* argc */
	KTEST_EXPECT_STREQ(t, str(word(si.sp + 4)), "ls");
	KTEST_EXPECT_STREQ(t, str(word(si.sp + 8)), "-l");
	KTEST_EXPECT_EQ(t, word(si.sp + 12), 0);
	KTEST_EXPECT_STREQ(t, str(word(si.sp + 16)), "HOME=/");
	KTEST_EXPECT_EQ(t, word(si.sp + 20), 0);
	p = si.sp + 24;
	KTEST_EXPECT_EQ(t, auxv(p, AT_PAGESZ), 4096);
	KTEST_EXPECT_EQ(t, auxv(p, AT_ENTRY), 0x8049000);
	KTEST_EXPECT_EQ(t, auxv(p, AT_PHDR), 0x8048034);
	KTEST_EXPECT_EQ(t, auxv(p, AT_PHNUM), 9);
	KTEST_EXPECT_EQ(t, auxv(p, AT_PHENT), 32);
	KTEST_EXPECT_EQ(t, auxv(p, AT_SECURE), 0);
	KTEST_EXPECT_STREQ(t, str(auxv(p, AT_EXECFN)), "/bin/ls");
	KTEST_EXPECT_STREQ(t, str(auxv(p, AT_PLATFORM)), "i686");
	KTEST_EXPECT_EQ(t, (u8)str(auxv(p, AT_RANDOM))[15], 0xa5);
	KTEST_EXPECT_EQ(t, word(TOP - 4), 0); /* the end marker */
	KTEST_EXPECT_EQ(t, si.arg_start, word(si.sp + 4));
	KTEST_EXPECT_EQ(t, si.env_start, word(si.sp + 16));
}

static void user_stack_no_environment(struct ktest *t)
{
	struct user_stack_info si = { 0 };

	KTEST_ASSERT_EQ(t, user_stack_build(img, SIZE, TOP, "sh", 3, 1, 0, "/bin/sh", &si), 0);
	KTEST_EXPECT_EQ(t, word(si.sp), 1);
	KTEST_EXPECT_EQ(t, word(si.sp + 8), 0);	 /* argv's NULL */
	KTEST_EXPECT_EQ(t, word(si.sp + 12), 0); /* envp's NULL */
	KTEST_EXPECT_EQ(t, word(si.sp + 16), AT_HWCAP);
}

static void user_stack_too_big_is_e2big(struct ktest *t)
{
	static char big[SIZE];
	struct user_stack_info si = { 0 };

	memset(big, 'x', sizeof(big) - 1);
	KTEST_EXPECT_EQ(t, user_stack_build(img, SIZE, TOP, big, sizeof(big), 1, 0, "/x", &si),
			-E2BIG);
}

static const struct ktest_case user_stack_cases[] = {
	KTEST_CASE(user_stack_argv_envp_auxv),
	KTEST_CASE(user_stack_no_environment),
	KTEST_CASE(user_stack_too_big_is_e2big),
	KTEST_END,
};

static const struct ktest_suite user_stack_suite = {
	.name = "user_stack",
	.cases = user_stack_cases,
};
KTEST_SUITE(user_stack_suite);
