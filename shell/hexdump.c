/*
 * hexdump.c: util-linux's hexdump -C: offset, 16 bytes in hex in two groups
 * of eight, the printable ones between bars; a run of identical lines is one
 * "*". -n reads at most LEN bytes, -s starts at OFFSET. Ctrl-C stops it.
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/string.h>

struct hexdump {
	unsigned long long offset, limit;
	unsigned char prev[16];
	bool have_prev, squeezing;
};

static void print_line(unsigned long long off, const unsigned char *b, size_t n)
{
	char line[80];
	int pos = scnprintf(line, sizeof(line), "%08llx ", off);

	for (size_t i = 0; i < 16; i++) {
		if (i == 8)
			line[pos++] = ' ';
		pos += i < n ? scnprintf(line + pos, sizeof(line) - pos, " %02x", b[i]) : scnprintf(line + pos, sizeof(line) - pos, "   ");
	}
	pos += scnprintf(line + pos, sizeof(line) - pos, "  |");
	for (size_t i = 0; i < n; i++)
		line[pos++] = b[i] >= 0x20 && b[i] < 0x7f ? (char)b[i] : '.';
	sh_printf("%.*s|\n", pos, line);
}

static void dump_line(struct hexdump *h, const unsigned char *b, size_t n)
{
	if (n == 16 && h->have_prev && !memcmp(h->prev, b, 16)) {
		if (!h->squeezing)
			sh_printf("*\n");
		h->squeezing = true;
	} else {
		print_line(h->offset, b, n);
		h->squeezing = false;
	}
	memcpy(h->prev, b, n);
	h->have_prev = n == 16;
	h->offset += n;
}

/* Fills a whole line where the file has it (sysfs and devices return less). */
static ssize_t read_line(struct file *f, unsigned char *b, size_t want)
{
	size_t got = 0;

	while (got < want) {
		ssize_t n = vfs_read(f, (char *)b + got, want - got);

		if (n < 0)
			return got ? (ssize_t)got : n;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int hexdump_file(struct hexdump *h, struct file *f)
{
	unsigned char b[16];

	while (h->limit) {
		ssize_t n;

		if (signal_pending())
			return -EINTR;
		n = read_line(f, b, (size_t)min(h->limit, 16ULL));
		if (n < 0)
			return (int)n;
		if (n == 0)
			break;
		dump_line(h, b, (size_t)n);
		h->limit -= (unsigned long long)n;
	}
	if (h->offset || h->squeezing)
		sh_printf("%08llx\n", h->offset);
	return 0;
}

/* -s: a seek for files and disks, a read for what has no positions. */
static int skip_to(struct file *f, unsigned long long off)
{
	unsigned char b[64];
	umode_t m = f->f_path.inode->i_mode;

	if (S_ISREG(m) || S_ISBLK(m))
		return (int)min(vfs_llseek(f, (loff_t)off), (loff_t)0);
	while (off) {
		ssize_t n = vfs_read(f, (char *)b, (size_t)min(off, (unsigned long long)sizeof(b)));

		if (n <= 0)
			return (int)n;
		off -= (unsigned long long)n;
	}
	return 0;
}

static int parse_opt(const char *val, unsigned long long *out)
{
	if (!val || kstrtoull(val, 0, out)) {
		sh_err("hexdump: invalid number '%s'\n", val ? val : "");
		return -EINVAL;
	}
	return 0;
}

static int cmd_hexdump(int argc, char **argv)
{
	struct hexdump h = { .limit = ~0ULL };
	const char *path = NULL;
	struct file *f;
	int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-C"))
			continue;
		if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-s")) {
			if (parse_opt(argv[i + 1], argv[i][1] == 'n' ? &h.limit : &h.offset))
				return 1;
			i++;
		} else if (!path && argv[i][0] != '-') {
			path = argv[i];
		} else {
			sh_err("usage: hexdump -C [-n LEN] [-s OFFSET] FILE\n");
			return 1;
		}
	}
	if (!path) {
		sh_err("usage: hexdump -C [-n LEN] [-s OFFSET] FILE\n");
		return 1;
	}
	err = vfs_open(shell_cwd(), path, O_RDONLY, 0, &f);
	if (!err && S_ISDIR(f->f_path.inode->i_mode))
		err = -EISDIR;
	if (!err)
		err = skip_to(f, h.offset) ?: hexdump_file(&h, f);
	vfs_close(f);
	if (sh_interrupted(err))
		return 130;
	if (err) {
		sh_err("hexdump: %s: %s\n", path, kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("hexdump", "-C [-n LEN] [-s OFFSET] FILE",
	      "bytes in hex and ASCII, as hexdump -C prints them", cmd_hexdump);
