/*
 * string_test.c: memset, memcpy and memmove against a byte at a time, for
 * every length up to past their word loops and every alignment, with the
 * bytes on either side left alone. (In the kernel they are lib/string.c's;
 * on the host, the C library's.)
 */
#include <kobold/ktest.h>
#include <kobold/string.h>

#define AREA 320 /* lengths 0..AREA-8, from offsets 0..3, in a buffer with room around */

static unsigned char area[AREA + 16], want[AREA + 16], src[AREA + 16];

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + seed);
}

static bool same(const unsigned char *a, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void string_memset_every_length_and_alignment(struct ktest *t)
{
	int bad = 0;

	for (size_t off = 0; off < 4; off++)
		for (size_t n = 0; n <= AREA - 8; n++) {
			fill_pattern(area, sizeof(area), 1);
			fill_pattern(want, sizeof(want), 1);
			for (size_t i = 0; i < n; i++)
				want[8 + off + i] = 0xa5;
			KTEST_EXPECT_PTR_EQ(t, memset(area + 8 + off, 0xa5, n), area + 8 + off);
			bad += !same(area, want, sizeof(area));
		}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static void string_memcpy_every_length_and_alignment(struct ktest *t)
{
	int bad = 0;

	fill_pattern(src, sizeof(src), 3);
	for (size_t doff = 0; doff < 4; doff++)
		for (size_t soff = 0; soff < 4; soff++)
			for (size_t n = 0; n <= AREA - 8; n++) {
				fill_pattern(area, sizeof(area), 1);
				fill_pattern(want, sizeof(want), 1);
				for (size_t i = 0; i < n; i++)
					want[8 + doff + i] = src[soff + i];
				KTEST_EXPECT_PTR_EQ(t, memcpy(area + 8 + doff, src + soff, n),
						    area + 8 + doff);
				bad += !same(area, want, sizeof(area));
			}
	KTEST_EXPECT_EQ(t, bad, 0);
}

/* Overlapping both ways: the result is as if copied through a buffer of its own. */
static void string_memmove_overlaps_both_ways(struct ktest *t)
{
	int bad = 0;

	for (int shift = -9; shift <= 9; shift++)
		for (size_t n = 0; n <= 200; n++) {
			size_t from = 40, to = (size_t)((int)from + shift);

			fill_pattern(area, sizeof(area), 5);
			fill_pattern(want, sizeof(want), 5);
			for (size_t i = 0; i < n; i++)
				want[to + i] = (unsigned char)((from + i) * 7 + 5);
			memmove(area + to, area + from, n);
			bad += !same(area, want, sizeof(area));
		}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static const struct ktest_case string_cases[] = {
	KTEST_CASE(string_memset_every_length_and_alignment),
	KTEST_CASE(string_memcpy_every_length_and_alignment),
	KTEST_CASE(string_memmove_overlaps_both_ways),
	KTEST_END,
};

static const struct ktest_suite string_suite = {
	.name = "string",
	.cases = string_cases,
};
KTEST_SUITE(string_suite);
