# user.mk: the programs of user/ (usertests, lsblk, ueventmon, netlinktest, oomgrow,
# aiotests, aioread, sysbench, the labs' sculltest, scullptest, scullmtest, edutest), static i386
# ELF executables built with the host gcc -m32 -static (gcc-multilib).
# (`make usertests-linux`, which boots Debian's Linux, is in bench.mk.)
USER_PROGS := $(patsubst user/%.c,$(BUILD)/user/%,$(sort $(wildcard user/*.c)))
USER_CFLAGS := -m32 -static -O2 -g -Wall -Wextra $(WERROR_FLAG)

.PHONY: user
user: $(USER_PROGS)

$(BUILD)/user/%: user/%.c user/test.h | $(BUILD)/.toolchain
	@mkdir -p $(dir $@)
	@echo "  USERCC  $<"
	$(Q)gcc $(USER_CFLAGS) -o $@ $<
