/* multiboot.h: the structures of the Multiboot 1 specification (0.6.96, §3.3). */
#ifndef KOBOLD_MULTIBOOT_H
#define KOBOLD_MULTIBOOT_H

#include <kobold/types.h>

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MULTIBOOT_INFO_MEMORY (1u << 0)
#define MULTIBOOT_INFO_CMDLINE (1u << 2)
#define MULTIBOOT_INFO_MODS (1u << 3)
#define MULTIBOOT_INFO_MEM_MAP (1u << 6)
#define MULTIBOOT_INFO_BOOT_LOADER_NAME (1u << 9)
#define MULTIBOOT_MEMORY_AVAILABLE 1

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper;
	u32 boot_device;
	u32 cmdline;
	u32 mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr;
	u32 drives_length, drives_addr;
	u32 config_table;
	u32 boot_loader_name;
} __packed;

/* A module (QEMU's -initrd FILE,FILE; GRUB's module lines), §3.3. */
struct multiboot_module {
	u32 mod_start, mod_end; /* physical, end exclusive */
	u32 string;		/* physical address of its command line */
	u32 reserved;
} __packed;

struct multiboot_mmap_entry {
	u32 size; /* of the rest of the entry: the next one is size + 4 on */
	u64 addr;
	u64 len;
	u32 type;
} __packed;

#endif
