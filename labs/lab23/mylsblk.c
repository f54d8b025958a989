/*
 * mylsblk.c: lab 23's lsblk, from /sys alone. Copy it to user/mylsblk.c and
 * fill in the TODOs (docs/labs/lab23-lsblk.md): util-linux's columns
 * (NAME MAJ:MIN RM SIZE RO TYPE) for every disk and its partitions, or for
 * the block devices named (/dev/NAME); -b prints sizes in bytes, -d leaves
 * the partitions out.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CLASS "/sys/class/block"
#define MAX_DEVS 256

struct bdev {
	char name[64];
	unsigned int major, minor;
	unsigned long long sectors;
	int ro, rm, is_part;
	int parent; /* a partition's disk, an index into devs; -1 for a disk */
};

static struct bdev devs[MAX_DEVS];
static int ndevs, bytes, disks_only;

/* The first line of DIR/ATTR into buf: 1, or 0 if it cannot be read. */
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

/*
 * TODO: fill devs[] from CLASS (opendir, readdir, read_attr: dev, size,
 * partition, ro, removable), sorted by name, each partition's parent found;
 * 0, or -1 if CLASS cannot be read.
 */
static int scan(void)
{
	(void)read_attr;
	return 0;
}

/*
 * TODO: the table (see the lab's page for the columns and the tree's
 * branches): every disk, or the n devices named in paths.
 */
static void print_all(int n, char **paths)
{
	(void)n, (void)paths, (void)ndevs, (void)devs;
	printf("NAME MAJ:MIN RM   SIZE RO TYPE\n");
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "bd")) != -1) {
		if (opt == 'b')
			bytes = 1;
		else if (opt == 'd')
			disks_only = 1;
		else
			return 1;
	}
	if (scan())
		return 1;
	print_all(argc - optind, argv + optind);
	return 0;
}
