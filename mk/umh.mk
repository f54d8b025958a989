# umh.mk: `make umh-soak`, the long run of tests/test_umh.py's storm: UMH_CYCLES
# rmmod/modprobe cycles with a hotplug helper per event (make test runs 10):
# every event seen, no zombie, memory and kobjects back where they were.
UMH_CYCLES ?= 100

.PHONY: umh-soak
umh-soak: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) UMH_CYCLES=$(UMH_CYCLES) $(PYTHON) -m pytest -q -p no:xdist \
		tests/test_umh.py -k storm
