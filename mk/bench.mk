# bench.mk: `make bench`: the benchmarks, printed as one table (scripts/bench.py).
.PHONY: bench
bench: deps $(KERNEL) $(ISO)
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) -c 'import matplotlib' 2>/dev/null || \
		$(NEED) /usr/lib/python3/dist-packages/matplotlib python3-matplotlib
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_ISO=$(ISO) $(PYTHON) scripts/bench.py

# usertests on Debian's Linux in QEMU, the guest the benchmarks use: what the
# suite expects must be what Linux does (user/README.md).
.PHONY: usertests-linux
usertests-linux: user
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) scripts/usertests-linux.py $(BUILD)/user
