# reliability.mk: libFuzzer targets for the portable code (tests/fuzz/) and
# the long runs: `make fuzz` (FUZZ_SECONDS per target), `make soak` (1,000
# load/unload cycles in QEMU), `make failslab-walk` (every allocation of every
# shell command failing in turn), `make failslab-boot` (of the boot, a boot
# each), `make hotplug-walk` and `make hotplug-soak` (QEMU device_add and
# device_del), `make sysfuzz` (random system calls from user/sysfuzz).
# `make test` runs all but failslab-boot briefly.
FUZZ_CC ?= clang
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
SOAK_CYCLES ?= 1000
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -DKOBOLD_HOST -Iinclude \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-Wall -Wno-unused-parameter
# The host shim gives kmalloc and printk; libFuzzer brings its own main().
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,\
	$(filter-out lib/ktest.c,$(PORTABLE_SRCS)) tests/host/shim.c tests/fuzz/stubs.c)
.SECONDARY: $(FUZZ_LIB_OBJS)

$(FUZZ_DIR)/.tools:
	@mkdir -p $(FUZZ_DIR)
	$(Q)$(NEED) $(FUZZ_CC) clang
	$(Q)$(NEED) "$$($(FUZZ_CC) -print-runtime-dir)/libclang_rt.fuzzer-x86_64.a" libclang-rt-dev
	$(Q)touch $@

$(FUZZ_DIR)/obj/%.o: %.c | $(FUZZ_DIR)/.tools
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Dmain=ktest_host_main -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJS) $(wildcard tests/fuzz/*.h)
	@echo "  FUZZ    $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(filter %.c %.o,$^) -o $@

.PHONY: fuzz fuzz-build soak failslab-walk failslab-boot hotplug-walk hotplug-soak sysfuzz
fuzz-build: $(FUZZ_BINS)

# Each target for FUZZ_SECONDS, its corpus kept in build/fuzz/corpus/NAME,
# starting from the seeds in tests/fuzz/corpus/NAME where there are some.
fuzz: fuzz-build
	$(Q)for t in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_DIR)/corpus/$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		status=0; ASAN_OPTIONS=detect_leaks=0 $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-max_len=6000 -print_final_stats=1 $(FUZZ_DIR)/corpus/$$t \
			$$(test -d tests/fuzz/corpus/$$t && echo tests/fuzz/corpus/$$t) \
			>$(FUZZ_DIR)/fuzz_$$t.log 2>&1 || status=$$?; \
		grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|crash-' $(FUZZ_DIR)/fuzz_$$t.log; \
		[ $$status -eq 0 ] || { echo "fuzz_$$t failed: $(FUZZ_DIR)/fuzz_$$t.log"; exit 1; }; \
	done

soak: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_SOAK_CYCLES=$(SOAK_CYCLES) $(PYTHON) -m pytest -q -s \
		tests/test_reliability.py -k cycles

# make test stops the module loads and the long readers of the command walk
# at allocation 24 and compares the kobjects and sysfs once a walk; this walks
# every line to its end and compares everything after each allocation.
failslab-walk: deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_WALK_FULL=1 $(PYTHON) -m pytest -q -s \
		tests/test_reliability.py -k walk

# QEMU device_add and device_del with each allocation of the add failing in
# turn (make test: the first and the last few); every slot must eject and
# memory, kobjects, /dev and the PCI address space come back.
hotplug-walk: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_HOTPLUG_WALK=all $(PYTHON) -m pytest -q -s \
		tests/test_hotplug.py -k any_allocation

# SOAK_CYCLES add/del cycles mixing good disks and disks whose probe fails,
# then as many with an allocation failing anywhere (make test: 6 of each).
hotplug-soak: deps $(KERNEL) $(DISK)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_HOTPLUG_SOAK=$(SOAK_CYCLES) $(PYTHON) -m pytest -q -s \
		tests/test_hotplug.py -k soak

# A boot for each allocation of the boot (failslab.nth=N): about 1,170 boots.
failslab-boot: deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) $(PYTHON) -m pytest -q tests/long_failslab_boot.py

-include $(FUZZ_LIB_OBJS:.o=.d)

# VIRTIO_RING_F_EVENT_IDX at depth 1 and 64, on MSI-X and INTx, for 2,000 cycles
# (make test runs 5): a lost kick or interrupt is a run that never ends.
.PHONY: stress-event-idx
stress-event-idx: deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_EVENT_IDX_CYCLES=$${EVENT_IDX_CYCLES:-2000} $(PYTHON) -m pytest -q -s \
		tests/test_asyncblk.py -k event_idx

# user/sysfuzz as root and as user 65534, seeds SEED to SEED+SEEDS-1, each for
# SECONDS (or COUNT calls), on 1 and then 2 CPUs; then no oops, BUG, WARNING or
# panic, the shell answers, and memory and kobjects as before (make test: a few
# fixed seeds, a few seconds). A run prints the seed and each call's index.
SYSFUZZ_SEED := $(or $(SEED),1)
SYSFUZZ_RUN := $(if $(COUNT),$(COUNT),$(or $(SECONDS),30)s)
sysfuzz: deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_SYSFUZZ_SEEDS=$(SYSFUZZ_SEED):$(or $(SEEDS),2) \
		KOBOLD_SYSFUZZ_RUN=$(SYSFUZZ_RUN) $(PYTHON) -m pytest -q -s tests/test_sysfuzz.py
