/* user_stack.c: a new program's initial stack (argc, argv, envp, auxv), as Linux i386's. */
#include <kobold/user_stack.h>

#include <kobold/errno.h>
#include <kobold/string.h>

#define AUXV_PAIRS 18
#define CLK_TCK 100 /* USER_HZ: what times() and /proc count in */

struct layout {
	char *img;
	u32 base; /* the address of img[0] */
};

static void put32(struct layout *l, u32 addr, u32 v) { memcpy(l->img + (addr - l->base), &v, 4); }

static u32 put_auxv(struct layout *l, u32 p, const struct user_stack_info *si, u32 platform,
		    u32 random, u32 execfn)
{
	const u32 auxv[AUXV_PAIRS][2] = {
		{ AT_HWCAP, si->hwcap },
		{ AT_PAGESZ, 4096 },
		{ AT_CLKTCK, CLK_TCK },
		{ AT_PHDR, si->phdr },
		{ AT_PHENT, 32 },
		{ AT_PHNUM, si->phnum },
		{ AT_BASE, 0 },
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, si->entry },
		{ AT_UID, si->uid },
		{ AT_EUID, si->euid },
		{ AT_GID, si->gid },
		{ AT_EGID, si->egid },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, random },
		{ AT_EXECFN, execfn },
		{ AT_PLATFORM, platform },
		{ AT_NULL, 0 },
	};

	for (int i = 0; i < AUXV_PAIRS; i++, p += 8) {
		put32(l, p, auxv[i][0]);
		put32(l, p + 4, auxv[i][1]);
	}
	return p;
}

int user_stack_build(char *img, size_t size, u32 top, const char *strings, size_t len, int argc,
		     int envc, const char *execfn, struct user_stack_info *si)
{
	struct layout l = { img, top - (u32)size };
	size_t fnlen = strlen(execfn) + 1;
	u32 p = top - 4, execfn_at, strings_at, platform, random, words, sp;
	const char *s = strings;

	if (len + fnlen + 64 > size)
		return -E2BIG;
	memset(img, 0, size);
	execfn_at = p -= (u32)fnlen;
	memcpy(img + (p - l.base), execfn, fnlen);
	strings_at = p -= (u32)len;
	memcpy(img + (p - l.base), strings, len);
	platform = p -= 5;
	memcpy(img + (p - l.base), "i686", 5);
	random = p -= 16;
	memcpy(img + (p - l.base), si->random, 16);
	p &= ~15u;
	words = 1 + (u32)argc + 1 + (u32)envc + 1 + AUXV_PAIRS * 2;
	sp = (p - words * 4) & ~15u;
	if (sp < l.base)
		return -E2BIG;
	si->sp = sp;
	si->arg_start = strings_at;
	put32(&l, sp, (u32)argc);
	p = sp + 4;
	for (int i = 0; i < argc + envc; i++) {
		if (i == argc) {
			put32(&l, p, 0);
			p += 4;
			si->env_start = strings_at + (u32)(s - strings);
		}
		put32(&l, p, strings_at + (u32)(s - strings));
		p += 4;
		s += strlen(s) + 1;
	}
	if (argc == envc + argc) /* no environment */
		si->env_start = strings_at + (u32)len;
	if (!envc) {
		put32(&l, p, 0);
		p += 4;
	}
	si->env_end = strings_at + (u32)len;
	put32(&l, p, 0);
	p += 4;
	put_auxv(&l, p, si, platform, random, execfn_at);
	return 0;
}
