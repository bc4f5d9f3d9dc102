# Build fragment for the C tools (tools/ -> build/libexec), included by
# the top-level Makefile.
TOOLS = $(B)/libexec/interloper-events $(B)/libexec/interloper-record \
	$(B)/libexec/interloper-run $(B)/libexec/interloper-hold

# What interloper run, sweep and record merge share (tools/il_tools.h).
IL_TOOL_COMMON = util args opts setupid elf launch sha256
IL_TOOL_COMMON_OBJ = $(IL_TOOL_COMMON:%=$(B)/tools/%.o) $(B)/interposer/config.o

$(B)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Iinterposer -c $< -o $@

$(B)/libexec/interloper-events: $(B)/tools/events.o $(IL_CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson -lpfm -ldl

$(B)/libexec/interloper-run: $(B)/tools/run.o $(IL_TOOL_COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^

$(B)/libexec/interloper-hold: $(B)/tools/hold.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^

$(B)/libexec/interloper-record: $(B)/tools/record.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson


# The one generator of every order (include/il_prng.h).
$(B)/tests/unit/test_prng: tests/unit/test_prng.c $(B)/tools/prng.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $^ -lcmocka
