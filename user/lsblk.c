/*
 * lsblk.c: the block devices from /sys alone, as util-linux's lsblk prints
 * them (NAME MAJ:MIN RM SIZE RO TYPE): opendir over /sys/class/block, a
 * disk's attributes from its directory, its partitions from the entries
 * with a `partition` file below it. The same output as the shell's lsblk.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLASS "/sys/class/block"
#define MAX_DEVS 256

struct bdev {
	char name[64];
	unsigned int major, minor;
	unsigned long long sectors;
	int ro, rm, is_part;
};

static int read_attr(const char *dir, const char *attr, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	return ok;
}

static int load(struct bdev *b, const char *name)
{
	char dir[300], buf[64];

	snprintf(dir, sizeof(dir), CLASS "/%s", name);
	snprintf(b->name, sizeof(b->name), "%s", name);
	if (!read_attr(dir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", &b->major, &b->minor) != 2 ||
	    !read_attr(dir, "size", buf, sizeof(buf)))
		return 0;
	b->sectors = strtoull(buf, NULL, 10);
	b->is_part = read_attr(dir, "partition", buf, sizeof(buf));
	b->ro = read_attr(dir, "ro", buf, sizeof(buf)) ? atoi(buf) : 0;
	b->rm = read_attr(dir, "removable", buf, sizeof(buf)) ? atoi(buf) : 0;
	return 1;
}

/* util-linux's human sizes: binary units, one decimal where it is not whole. */
static void human(unsigned long long bytes, char *buf, size_t size)
{
	static const char units[] = "BKMGTP";
	unsigned long long whole = bytes, frac = 0;
	int u = 0;

	while (whole >= 1024 && u < 5) {
		frac = whole % 1024 * 10 / 1024;
		whole /= 1024;
		u++;
	}
	if (frac)
		snprintf(buf, size, "%llu.%llu%c", whole, frac, units[u]);
	else
		snprintf(buf, size, "%llu%c", whole, units[u]);
}

static void line(int w, const char *tree, const struct bdev *b, int rm, int ro)
{
	char sz[24], mm[24];

	human(b->sectors * 512, sz, sizeof(sz));
	snprintf(mm, sizeof(mm), "%3u:%-3u", b->major, b->minor);
	printf("%s%-*s %s %2d %6s %2d %s\n", tree, w - (*tree ? 2 : 0), b->name, mm, rm, sz, ro,
	       b->is_part ? "part" : "disk");
}

/* A partition of @disk is an entry of the disk's own directory. */
static int part_of(const struct bdev *disk, const struct bdev *p)
{
	char path[400];

	snprintf(path, sizeof(path), CLASS "/%s/%s", disk->name, p->name);
	return p->is_part && access(path, F_OK) == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct bdev *)a)->name, ((const struct bdev *)b)->name);
}

int main(void)
{
	static struct bdev devs[MAX_DEVS];
	struct dirent *e;
	int n = 0, w = 4;
	DIR *dir = opendir(CLASS);

	if (!dir) {
		perror("lsblk: " CLASS);
		return 1;
	}
	while ((e = readdir(dir)) && n < MAX_DEVS)
		if (e->d_name[0] != '.' && load(&devs[n], e->d_name))
			n++;
	closedir(dir);
	qsort(devs, (size_t)n, sizeof(devs[0]), by_name);
	for (int i = 0; i < n; i++)
		if ((int)strlen(devs[i].name) + (devs[i].is_part ? 2 : 0) > w)
			w = (int)strlen(devs[i].name) + (devs[i].is_part ? 2 : 0);
	printf("%-*s MAJ:MIN RM   SIZE RO TYPE\n", w, "NAME");
	for (int i = 0; i < n; i++) {
		int last = -1;

		if (devs[i].is_part)
			continue;
		line(w, "", &devs[i], devs[i].rm, devs[i].ro);
		for (int j = 0; j < n; j++)
			if (part_of(&devs[i], &devs[j]))
				last = j;
		for (int j = 0; j <= last; j++)
			if (part_of(&devs[i], &devs[j]))
				line(w, j == last ? "\xe2\x94\x94\xe2\x94\x80" : "\xe2\x94\x9c\xe2\x94\x80",
				     &devs[j], devs[i].rm, devs[i].ro);
	}
	return 0;
}
