# netlink.mk: `make netlink-storm`, NETLINK_STORM add/remove cycles of a
# hot-plugged virtio disk with two uevent netlink listeners and the hotplug
# helper (/proc/sys/kernel/hotplug): every event seen with no SEQNUM gap, a
# helper run for each and none left, memory and kobjects back to the
# baseline (make test runs 20 cycles in tests/test_netlink.py).
NETLINK_STORM ?= 100

.PHONY: netlink-storm
netlink-storm: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_NETLINK_STORM=$(NETLINK_STORM) $(PYTHON) -m pytest -q -s \
		tests/test_netlink.py -k storm
