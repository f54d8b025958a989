# coursework.mk: the labs' checkers, the docs' transcript check and the
# picture of the device model (docs/labs/README.md, docs/tutorial.md).
LAB ?=
GRAPH := $(BUILD)/device-model

.PHONY: check-lab check-docs graph grade grade-class gradescope labs-compose-all lab-deps
# What a checker needs, and no more: a student's machine without gdb, graphviz or
# clang checks its labs (make test's deps has those; the build and the rootfs name theirs).
lab-deps:
	$(Q)status=0; \
	$(NEED) $(QEMU) qemu-system-x86 || status=1; \
	$(NEED) $(PYTHON) python3 || status=1; \
	$(NEED) py:pexpect python3-pexpect || status=1; \
	exit $$status

check-lab: lab-deps $(KERNEL)
	@[ -n "$(LAB)" ] || { echo "usage: make check-lab LAB=N   (the labs are in docs/labs/)" >&2; exit 2; }
	@[ -f labs/lab$(LAB)/check.py ] || { echo "kobold: there is no lab $(LAB); see docs/labs/" >&2; exit 2; }
	$(Q)KOBOLD_KERNEL=$(KERNEL) LABCHECK_LOG=labs/lab$(LAB)/.progress $(PYTHON) labs/lab$(LAB)/check.py

# Every lab's checker on this tree: points per check, a score per lab, a total.
grade: lab-deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) $(PYTHON) scripts/grade

# A teacher's: every submission in DIR (NAME.patch or NAME.bundle), graded in its own copy.
grade-class: deps
	@[ -n "$(DIR)" ] || { echo "usage: make grade-class DIR=folder-of-submissions   (see scripts/grade-class)" >&2; exit 2; }
	$(Q)$(PYTHON) scripts/grade-class $(DIR)

# The Gradescope autograder (docs/teaching.md): LABS=1,2 to grade some labs only,
# HIDDEN=DIR for hidden checks kept outside the tree.
GRADESCOPE_ZIP ?= $(BUILD)/gradescope.zip
gradescope: deps
	$(Q)mkdir -p $(dir $(GRADESCOPE_ZIP))
	$(Q)$(PYTHON) scripts/gradescope.py zip $(GRADESCOPE_ZIP) $(if $(LABS),--labs $(LABS)) \
		$(if $(HIDDEN),--hidden $(HIDDEN))

# The labs' solutions composed in every order that can matter, with every transcript
# of the docs and every failslab walk of the registrations, and each lab's solution
# alone (make test: three orders, the transcripts and walks the labs touch, one lab alone).
labs-compose-all: deps $(KERNEL)
	$(Q)KOBOLD_LABS_ORDERS=all $(PYTHON) -m pytest -q -p no:xdist tests/test_labs_compose.py \
		tests/test_labs.py -k "solutions_compose or solution_alone"

check-docs: deps $(KERNEL)
	$(Q)KOBOLD_KERNEL=$(KERNEL) $(PYTHON) scripts/doccheck.py

# Boots the kernel, walks /sys with the shell's tree, draws it with Graphviz.
graph: deps $(KERNEL)
	$(Q)$(NEED) dot graphviz
	$(Q)KOBOLD_KERNEL=$(KERNEL) $(PYTHON) scripts/sysfs-graph.py $(GRAPH)
	@echo "  GRAPH   $(GRAPH).svg $(GRAPH).png (docs/images/: cp them there to update the docs)"
