# stress.mk: `make stress-smp`, the long run of tests/test_stress_smp.py: on 2
# and 4 CPUs, sysfs reader threads race rmmod/modprobe and QEMU's
# device_add/device_del for STRESS_ROUNDS rounds (make test runs 2).
STRESS_ROUNDS ?= 100

.PHONY: stress-smp
stress-smp: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_STRESS_ROUNDS=$(STRESS_ROUNDS) $(PYTHON) -m pytest -q -s \
		tests/test_stress_smp.py -k race_rmmod
