# host.mk: the host test binary, the portable core and its unit tests built
# with the host compiler under AddressSanitizer and UndefinedBehaviorSanitizer.
HOST_CC ?= gcc
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Wno-unused-parameter \
	-fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DKOBOLD_HOST -Iinclude
HOST_OBJDIR := build/host
HOST_SRCS := $(PORTABLE_SRCS) $(UNIT_TEST_SRCS) tests/host/shim.c
HOST_OBJS := $(HOST_SRCS:%.c=$(HOST_OBJDIR)/%.o)

$(HOST_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $(WERROR_FLAG) -MMD -MP -c $< -o $@

$(HOST_OBJDIR)/ktest-host: $(HOST_OBJS)
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $^ -o $@

.PHONY: host-tests
host-tests: $(HOST_OBJDIR)/ktest-host
	$(HOST_OBJDIR)/ktest-host all

-include $(HOST_OBJS:.o=.d)
