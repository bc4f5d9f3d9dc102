# Build fragment for the C tools (tools/ -> build/libexec), included by
# the top-level Makefile.
TOOLS = $(B)/libexec/interloper-events $(B)/libexec/interloper-record \
	$(B)/libexec/interloper-exec $(B)/libexec/interloper-hold \
	$(B)/libexec/interloper-link $(B)/libexec/interloper-cc

$(B)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Iinterposer -c $< -o $@

$(B)/libexec/interloper-events: $(B)/tools/events.o $(IL_CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson -lpfm -ldl

$(B)/libexec/interloper-exec: $(B)/tools/exec.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson

$(B)/libexec/interloper-hold: $(B)/tools/hold.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^

$(B)/libexec/interloper-record: $(B)/tools/record.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson

# interloper link and interloper cc share the link command model.
IL_LINK_OBJ = $(addprefix $(B)/tools/,link.o linkobj.o linkaux.o linkrun.o archive.o order.o \
	prng.o linkcmd.o xalloc.o)

$(B)/libexec/interloper-link: $(IL_LINK_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -ljansson

$(B)/libexec/interloper-cc: $(B)/tools/cc.o $(B)/tools/linkcmd.o $(B)/tools/xalloc.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^

$(B)/tests/unit/test_linkcmd: tests/unit/test_linkcmd.c $(B)/tools/linkcmd.o $(B)/tools/archive.o \
		$(B)/tools/order.o $(B)/tools/prng.o $(B)/tools/xalloc.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Itools -o $@ $(filter %.c %.o,$^) -lcmocka

# The one generator of every order (include/il_prng.h).
$(B)/tests/unit/test_prng: tests/unit/test_prng.c $(B)/tools/prng.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $^ -lcmocka
