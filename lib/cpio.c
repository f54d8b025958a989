/*
 * cpio.c: a reader of the newc cpio format ("070701"; "070702" with
 * checksums, not checked): a 110-byte header of thirteen 8-digit hex
 * fields, the name, NUL-padded to 4 bytes with the header, then the data,
 * padded to 4; the member named TRAILER!!! ends an archive. Every length
 * is checked against the buffer before a member is handed over.
 */
#include <kobold/cpio.h>

#include <kobold/errno.h>
#include <kobold/string.h>

#define NR_FIELDS 13
#define TRAILER "TRAILER!!!"

static size_t pad4(size_t n) { return (n + 3) & ~(size_t)3; }

static bool parse_hex8(const char *s, u32 *out)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];
		u32 d;

		if (c >= '0' && c <= '9')
			d = (u32)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (u32)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (u32)(c - 'A' + 10);
		else
			return false;
		v = v << 4 | d;
	}
	*out = v;
	return true;
}

/* The member at buf[off]: 0 and *next, or a reason in *why. */
static int parse_member(const u8 *buf, size_t len, size_t off, struct cpio_entry *e,
			size_t *next, const char **why)
{
	u32 f[NR_FIELDS], namesize;
	size_t name_off = off + CPIO_HDR_LEN, data_off;

	if (len - off < 6 || (memcmp(buf + off, "070701", 6) && memcmp(buf + off, "070702", 6))) {
		*why = len - off >= 2 && buf[off] == 0x1f && buf[off + 1] == 0x8b
			       ? "compressed (gzip): only an uncompressed newc archive is read"
			       : "bad magic (not a newc cpio archive)";
		return -EINVAL;
	}
	if (len - off < CPIO_HDR_LEN) {
		*why = "truncated header";
		return -EINVAL;
	}
	for (int i = 0; i < NR_FIELDS; i++)
		if (!parse_hex8((const char *)buf + off + 6 + 8 * i, &f[i])) {
			*why = "bad header field (not hexadecimal)";
			return -EINVAL;
		}
	namesize = f[11];
	if (namesize < 2 || namesize > CPIO_NAME_MAX) {
		*why = "bad name size";
		return -EINVAL;
	}
	if (len - name_off < namesize) {
		*why = "truncated name";
		return -EINVAL;
	}
	if (strnlen((const char *)buf + name_off, namesize) != namesize - 1) {
		*why = "name not NUL-terminated";
		return -EINVAL;
	}
	data_off = pad4(name_off + namesize);
	if (f[6] && (data_off > len || len - data_off < f[6])) {
		*why = "truncated data";
		return -EINVAL;
	}
	*e = (struct cpio_entry){
		.name = (const char *)buf + name_off,
		.ino = f[0],
		.mode = f[1],
		.uid = f[2],
		.gid = f[3],
		.nlink = f[4],
		.mtime = f[5],
		.size = f[6],
		.devmajor = f[7],
		.devminor = f[8],
		.rdevmajor = f[9],
		.rdevminor = f[10],
		.data = buf + data_off,
	};
	*next = pad4(data_off + f[6]);
	if (*next > len)
		*next = len; /* the last member's padding may be left off */
	return 0;
}

/* Past NUL padding to the next archive's header (4-byte steps, as Linux). */
static size_t skip_padding(const u8 *buf, size_t len, size_t off)
{
	while (off < len && buf[off] == '\0')
		off++;
	return off;
}

int cpio_walk(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *arg),
	      void *arg, struct cpio_error *err)
{
	const u8 *b = buf;
	size_t off = skip_padding(b, len, 0), next;
	struct cpio_entry e;
	bool in_archive = false;
	int ret;

	err->good = 0;
	while (off < len) {
		ret = parse_member(b, len, off, &e, &next, &err->why);
		if (ret) {
			err->offset = off;
			return ret;
		}
		in_archive = strcmp(e.name, TRAILER) != 0;
		if (in_archive) {
			ret = fn(&e, arg);
			if (ret)
				return ret;
			err->good++;
			off = next;
		} else {
			off = skip_padding(b, len, next);
		}
	}
	if (in_archive) {
		err->offset = off;
		err->why = "truncated: no TRAILER!!!";
		return -EINVAL;
	}
	return 0;
}
