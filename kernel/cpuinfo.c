/*
 * cpuinfo.c: what each CPU is, from CPUID (Linux 2.6's identify_cpu), and
 * /proc/cpuinfo in Linux 2.6 i386's format, a "processor : N" block per CPU.
 */
#include <asm/processor.h>
#include <kobold/proc_fs.h>
#include <kobold/string.h>
#include <kobold/time.h>

struct cpuinfo_x86 cpu_data[NR_CPUS];

/* The flag names of Linux's x86_cap_flags, word by word; NULL bits are not shown. */
static const char *const cap_names[4][32] = {
	/* clang-format off */
	{ "fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce",
	  "cx8", "apic", NULL, "sep", "mtrr", "pge", "mca", "cmov",
	  "pat", "pse36", "pn", "clflush", NULL, "dts", "acpi", "mmx",
	  "fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe" },
	{ "pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est",
	  "tm2", "ssse3", "cid", NULL, "fma", "cx16", "xtpr", "pdcm",
	  NULL, "pcid", "dca", "sse4_1", "sse4_2", "x2apic", "movbe", "popcnt",
	  "tsc_deadline_timer", "aes", "xsave", NULL, "avx", "f16c", "rdrand", "hypervisor" },
	{ [11] = "syscall", [19] = "mp", [20] = "nx", [22] = "mmxext", [25] = "fxsr_opt",
	  [26] = "pdpe1gb", [27] = "rdtscp", [29] = "lm", [30] = "3dnowext", [31] = "3dnow" },
	{ [0] = "lahf_lm", [1] = "cmp_legacy", [2] = "svm", [3] = "extapic", [4] = "cr8_legacy",
	  [5] = "abm", [6] = "sse4a", [7] = "misalignsse", [8] = "3dnowprefetch" },
	/* clang-format on */
};

/* The extended leaves: the brand string, the 0x80000001 flags, the L2 size. */
static void read_extended_leaves(struct cpuinfo_x86 *c)
{
	u32 *w = (u32 *)c->model_id, max, b, d;

	cpuid_count(0x80000000, 0, &max, &b, &d, &d);
	if (max < 0x80000004)
		return;
	for (u32 leaf = 0x80000002; leaf <= 0x80000004; leaf++, w += 4)
		cpuid_count(leaf, 0, &w[0], &w[1], &w[2], &w[3]);
	c->model_id[48] = '\0';
	if (max >= 0x80000001)
		cpuid_count(0x80000001, 0, &b, &b, &c->capability[3], &c->capability[2]);
	if (max >= 0x80000006) {
		cpuid_count(0x80000006, 0, &b, &b, &d, &b);
		c->cache_size_kb = d >> 16; /* ECX[31:16]: L2 size in KiB */
	}
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

void identify_cpu(struct cpuinfo_x86 *c)
{
	u32 a, b, cx, d, cr0;
	const char *brand;

	memset(c, 0, sizeof(*c));
	c->cache_size_kb = -1;
	cpuid_count(0, 0, &a, &b, &cx, &d);
	c->cpuid_level = (int)a;
	memcpy(c->vendor, &b, 4); /* EBX, EDX, ECX: "Genu" "ineI" "ntel" */
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cx, 4);
	cpuid_count(1, 0, &a, &b, &c->capability[1], &c->capability[0]);
	c->family = (a >> 8) & 0xf;
	c->model = (a >> 4) & 0xf;
	c->stepping = a & 0xf;
	if (c->family == 0xf)
		c->family += (a >> 20) & 0xff;
	if (c->family >= 6)
		c->model += ((a >> 16) & 0xf) << 4;
	read_extended_leaves(c);
	brand = skip_spaces(c->model_id); /* Intel pads the brand string on the left */
	memmove(c->model_id, brand, strlen(brand) + 1);
	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	c->wp = cr0 & (1u << 16);
	c->identified = true;
}

void identify_boot_cpu(void)
{
	identify_cpu(&cpu_data[0]);
}

static size_t show_flags(char *buf, size_t size, const struct cpuinfo_x86 *c)
{
	size_t n = scnprintf(buf, size, "flags\t\t:");

	for (int word = 0; word < 4; word++)
		for (int bit = 0; bit < 32; bit++)
			if ((c->capability[word] >> bit & 1) && cap_names[word][bit])
				n += scnprintf(buf + n, size - n, " %s", cap_names[word][bit]);
	return n + scnprintf(buf + n, size - n, "\n");
}

static size_t show_cpu(char *buf, size_t size, int cpu, const struct cpuinfo_x86 *c)
{
	bool fpu = c->capability[0] & 1;
	/* With the TSC as the delay loop, 2.6's BogoMIPS is twice the clock in MHz. */
	u32 bogo = tsc_khz / 5;
	size_t n;

	n = scnprintf(buf, size,
		      "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
		      "model name\t: %s\nstepping\t: %d\ncpu MHz\t\t: %u.%03u\n",
		      cpu, c->vendor, c->family, c->model, c->model_id[0] ? c->model_id : "unknown",
		      c->stepping, tsc_khz / 1000, tsc_khz % 1000);
	if (c->cache_size_kb >= 0)
		n += scnprintf(buf + n, size - n, "cache size\t: %d KB\n", c->cache_size_kb);
	n += scnprintf(buf + n, size - n,
		       "fdiv_bug\t: no\nhlt_bug\t\t: no\nf00f_bug\t: no\ncoma_bug\t: no\n"
		       "fpu\t\t: %s\nfpu_exception\t: %s\ncpuid level\t: %d\nwp\t\t: %s\n",
		       fpu ? "yes" : "no", fpu ? "yes" : "no", c->cpuid_level, c->wp ? "yes" : "no");
	n += show_flags(buf + n, size - n, c);
	return n + scnprintf(buf + n, size - n, "bogomips\t: %u.%02u\n\n", bogo / 100, bogo % 100);
}

size_t proc_show_cpuinfo(char *buf, size_t size)
{
	size_t n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu) && cpu_data[cpu].identified)
			n += show_cpu(buf + n, size - n, cpu, &cpu_data[cpu]);
	return n;
}
