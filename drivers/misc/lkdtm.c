/*
 * lkdtm.c: crashes on purpose, as Linux's Kernel Dump Test Module does, so
 * that the oops report can be seen and tested: boot with lkdtm.crash=NULL_DEREF.
 */
#include <kobold/init.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/string.h>

static const char *crash;
module_param(crash, charp, "crash at the end of boot: NULL_DEREF");

struct lkdtm_victim {
	int pad;
	int value;
};

/* volatile: the compiler cannot see that it is NULL and turn the read into a trap. */
static struct lkdtm_victim *volatile victim;

/* noipa: not inlined or cloned, so the backtrace shows this function by name. */
static __attribute__((noipa)) void lkdtm_do_null_deref(struct lkdtm_victim *v)
{
	pr_info("lkdtm: value %d\n", v->value);	/* reads address 4: page 0 is unmapped */
}

void lkdtm_run(void)
{
	if (!crash)
		return;
	if (strcmp(crash, "NULL_DEREF") != 0) {
		pr_err("lkdtm: unknown crash type \"%s\"\n", crash);
		return;
	}
	pr_info("lkdtm: performing direct entry NULL_DEREF\n");
	lkdtm_do_null_deref(victim);
}
