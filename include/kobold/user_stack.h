/*
 * user_stack.h: a new program's initial stack, as Linux's create_elf_tables
 * lays it out for i386 (portable: lib/user_stack.c, unit-tested on the host).
 * From the top down: a zero word, AT_EXECFN's path, the argv and envp
 * strings, "i686" (AT_PLATFORM), AT_RANDOM's 16 bytes; then, 16-byte
 * aligned at the stack pointer: argc, argv[], NULL, envp[], NULL, auxv.
 */
#ifndef KOBOLD_USER_STACK_H
#define KOBOLD_USER_STACK_H

#include <kobold/types.h>

#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_EXECFN 31

struct user_stack_info {
	/* in */
	u32 entry, phdr, phnum, hwcap;
	u32 uid, euid, gid, egid;
	u8 random[16];
	/* out */
	u32 sp; /* where argc is */
	u32 arg_start, env_start, env_end;
};

/*
 * Lays the stack out in img, which stands for the size bytes below top:
 * strings holds argc then envc NUL-terminated strings (len bytes in all).
 * 0, or -E2BIG if it does not fit.
 */
int user_stack_build(char *img, size_t size, u32 top, const char *strings, size_t len, int argc,
		     int envc, const char *execfn, struct user_stack_info *si);

#endif
