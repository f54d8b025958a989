# rootfs.mk: `make rootfs`, build/rootfs.cpio: a newc cpio with Debian's
# unmodified busybox-static for i386, its applet links, /etc, the tree's own
# /sbin programs (scripts/rootfs/sbin: lab 13's hotplug) and the mount points; `make run` passes it as an initramfs (-initrd) whenever it is built.
ROOTFS := build/rootfs.cpio
ROOTFS_DIR := build/rootfs
ROOTFS_ETC := $(sort $(wildcard scripts/rootfs/etc/*) $(wildcard scripts/rootfs/sbin/*))
QEMU_INITRD = $(if $(wildcard $(ROOTFS)),-initrd $(ROOTFS))

.PHONY: rootfs
rootfs: $(ROOTFS)

$(ROOTFS_DIR)/bin/busybox:
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(NEED) apt-get apt
	@echo "  FETCH   busybox-static:i386"
	$(Q)scripts/fetch-busybox.sh $(ROOTFS_DIR)

$(ROOTFS): $(ROOTFS_DIR)/bin/busybox scripts/mkrootfs.py scripts/gen_init_cpio.py \
		scripts/rootfs/busybox-applets.txt $(ROOTFS_ETC)
	@echo "  CPIO    $@"
	$(Q)$(PYTHON) scripts/mkrootfs.py $< scripts/rootfs/busybox-applets.txt scripts/rootfs/etc \
		> $(ROOTFS_DIR)/rootfs.list
	$(Q)$(PYTHON) scripts/gen_init_cpio.py $(ROOTFS_DIR)/rootfs.list > $@.tmp && mv $@.tmp $@
