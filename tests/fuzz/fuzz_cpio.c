/*
 * fuzz_cpio.c: libFuzzer target for the newc reader (lib/cpio.c): whatever
 * the bytes, every member handed over lies inside the buffer with its name
 * NUL-terminated there, and a walk that fails says where and why.
 */
#include <kobold/cpio.h>
#include <kobold/errno.h>
#include <kobold/string.h>

#include <stdint.h>
#include <stdlib.h>

struct bounds {
	const uint8_t *start, *end;
	unsigned int members;
};

static int check_member(const struct cpio_entry *e, void *arg)
{
	struct bounds *b = arg;
	const uint8_t *name = (const uint8_t *)e->name;

	if (name < b->start || name >= b->end)
		abort();
	if (strnlen(e->name, (size_t)(b->end - name)) == (size_t)(b->end - name))
		abort(); /* no NUL before the end */
	if (e->size && (e->data < b->start || e->data > b->end ||
			(size_t)(b->end - e->data) < e->size))
		abort();
	b->members++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any read past the end */
	uint8_t *buf = malloc(size ? size : 1);
	struct bounds b = { buf, buf + size, 0 };
	struct cpio_error err = { 0 };
	int ret;

	memcpy(buf, data, size);
	ret = cpio_walk(buf, size, check_member, &b, &err);
	if (ret != 0 && ret != -EINVAL)
		abort();
	if (ret == -EINVAL && (!err.why || err.offset > size || err.good != b.members))
		abort();
	free(buf);
	return 0;
}
