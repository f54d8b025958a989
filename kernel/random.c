/*
 * random.c: random bytes for AT_RANDOM and getrandom. Not Linux's entropy
 * pool: a xorshift generator stirred with the time stamp counter at each
 * call, which is enough for stack canaries and malloc's cookies in a
 * teaching kernel (docs/differences.md).
 */
#include <asm/processor.h>
#include <kobold/random.h>
#include <kobold/string.h>

static u64 state = 0x9e3779b97f4a7c15ULL;

static u64 next(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	state ^= ((u64)hi << 32 | lo) * 0x2545f4914f6cdd1dULL;
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

void get_random_bytes(void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		u64 r = next();
		size_t k = n < sizeof(r) ? n : sizeof(r);

		memcpy(p, &r, k);
		p += k;
		n -= k;
	}
}

u32 cpu_hwcap(void) { return cpu_data[0].capability[0]; }
