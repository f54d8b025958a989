# bench.mk: `make bench`: the benchmarks, printed as one table (scripts/bench.py);
# `make grade-bench`: the grader on a class of 120; `make udev-compare`: udev rules
# against systemd's udevadm.
.PHONY: bench
bench: deps $(KERNEL) $(ISO)
	$(Q)$(NEED) qemu-system-x86_64 qemu-system-x86
	$(Q)$(NEED) dpkg-deb dpkg
	$(Q)$(PYTHON) -c 'import matplotlib' 2>/dev/null || \
		$(NEED) /usr/lib/python3/dist-packages/matplotlib python3-matplotlib
	$(Q)KOBOLD_KERNEL=$(KERNEL) KOBOLD_ISO=$(ISO) $(PYTHON) scripts/bench.py

# The grading part alone, on a class of GRADE_BENCH_STUDENTS (120) students x every lab
# (scripts/classgen.py: each student's files distinct), graded by grade-class: the wall
# time, the CPU time and both per student-lab. It takes the machine for most of an hour:
# run it alone. GRADE_BENCH_STUDENTS=2 (make bench's class) for a quick one; GRADE_BENCH_JOBS=N
# grades N student-labs at a time (grade-class's --jobs; two per core by default).
GRADE_BENCH_STUDENTS ?= 120
.PHONY: grade-bench
grade-bench: deps $(KERNEL)
	$(Q)BENCH_PARTS=grading BENCH_GRADE_STUDENTS=$(GRADE_BENCH_STUDENTS) KOBOLD_KERNEL=$(KERNEL) \
		$(if $(GRADE_BENCH_JOBS),BENCH_GRADE_JOBS=$(GRADE_BENCH_JOBS)) $(PYTHON) scripts/bench.py

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
