# bench.mk: `make bench`: the benchmarks, printed as one table (scripts/bench.py);
# `make udev-compare`: udev rules against systemd's udevadm.
.PHONY: bench
bench: deps $(KERNEL) $(ISO)
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) -c 'import matplotlib' 2>/dev/null || \
		$(NEED) /usr/lib/python3/dist-packages/matplotlib python3-matplotlib
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_ISO=$(ISO) $(PYTHON) scripts/bench.py

# `make udev-compare`: the rules of tests/udev_compare/cases.py through
# systemd 252's udevadm (Debian 12's udev package, in Debian's Linux in QEMU)
# and through Kobold's; records systemd's results for make test and prints
# where the two differ.
.PHONY: udev-compare
udev-compare: deps $(KERNEL)
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)KOBOLD_KERNEL=$(KERNEL) $(PYTHON) scripts/udev_compare.py --record

# usertests on Debian's Linux in QEMU, the guest the benchmarks use: what the
# suite expects must be what Linux does (user/README.md).
.PHONY: usertests-linux
usertests-linux: user
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) scripts/usertests-linux.py $(BUILD)/user

# aiotests on Debian's Linux in QEMU with a scratch disk: what the AIO suite
# expects must be what Linux does (user/README.md).
.PHONY: aiotests-linux
aiotests-linux: user
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) scripts/aiotests-linux.py $(BUILD)/user
