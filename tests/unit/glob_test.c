/* glob_test.c: wildcard matching as a shell matches names, for aliases and rules. */
#include <kobold/glob.h>
#include <kobold/ktest.h>

static void glob_plain_star_and_question(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match("vda", "vda"));
	KTEST_EXPECT_FALSE(t, glob_match("vda", "vdb"));
	KTEST_EXPECT_FALSE(t, glob_match("vda", "vda1"));
	KTEST_EXPECT_TRUE(t, glob_match("vd*", "vda1"));
	KTEST_EXPECT_TRUE(t, glob_match("*", ""));
	KTEST_EXPECT_TRUE(t, glob_match("vd?", "vdb"));
	KTEST_EXPECT_FALSE(t, glob_match("vd?", "vd"));
	KTEST_EXPECT_TRUE(t, glob_match("*a*b*c", "xxaybzbc"));
	KTEST_EXPECT_FALSE(t, glob_match("*a*b*c", "xxaybzbcd"));
	KTEST_EXPECT_TRUE(t, glob_match("virtio:d00000002v*", "virtio:d00000002v00001AF4"));
	KTEST_EXPECT_FALSE(t, glob_match("virtio:d00000002v*", "virtio:d00000004v00001AF4"));
	KTEST_EXPECT_TRUE(t, glob_match("pci:v00001AF4d*sv*sd*bc*sc*i*",
					"pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00"));
}

static void glob_sets_ranges_and_escapes(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match("sd[a-c]", "sdb"));
	KTEST_EXPECT_FALSE(t, glob_match("sd[a-c]", "sdd"));
	KTEST_EXPECT_TRUE(t, glob_match("sd[!a-c]", "sdd"));
	KTEST_EXPECT_TRUE(t, glob_match("sd[^a-c]", "sdz"));
	KTEST_EXPECT_FALSE(t, glob_match("sd[!a-c]", "sda"));
	KTEST_EXPECT_TRUE(t, glob_match("[]]", "]")); /* ']' first is a member */
	KTEST_EXPECT_TRUE(t, glob_match("a[-x]", "a-"));
	KTEST_EXPECT_TRUE(t, glob_match("\\*", "*"));
	KTEST_EXPECT_FALSE(t, glob_match("\\*", "x"));
	KTEST_EXPECT_TRUE(t, glob_match("a[b", "a[b")); /* no ']': a plain '[' */
	KTEST_EXPECT_FALSE(t, glob_match("a[b", "ab"));
	KTEST_EXPECT_TRUE(t, glob_match("vd[a-z][0-9]*", "vda12"));
}

static void glob_many_stars_stay_linear_enough(struct ktest *t)
{
	char s[201];

	for (int i = 0; i < 200; i++)
		s[i] = 'a';
	s[200] = '\0';
	KTEST_EXPECT_FALSE(t, glob_match("*a*a*a*a*a*a*a*a*b", s));
	KTEST_EXPECT_TRUE(t, glob_match("*a*a*a*a*a*a*a*a*a", s));
}

static const struct ktest_case glob_cases[] = {
	KTEST_CASE(glob_plain_star_and_question),
	KTEST_CASE(glob_sets_ranges_and_escapes),
	KTEST_CASE(glob_many_stars_stay_linear_enough),
	KTEST_END,
};

static const struct ktest_suite glob_suite = {
	.name = "glob",
	.cases = glob_cases,
};
KTEST_SUITE(glob_suite);
