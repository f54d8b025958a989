// oomgrow: touches one new page after another until the kernel's OOM killer ends it.
#include <stdio.h>
#include <sys/mman.h>

#define CHUNK (1 << 20)

int main(void)
{
	unsigned long total = 0;

	for (;;) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			printf("oomgrow: mmap failed after %lu MiB\n", total >> 20);
			return 1;
		}
		for (int i = 0; i < CHUNK; i += 4096)
			p[i] = 1;
		total += CHUNK;
	}
}
