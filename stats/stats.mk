# Build fragment for the statistics program (stats/), included by the
# top-level Makefile.  Adds its executables to STATS_TARGETS and its cmocka
# tests to UNIT_TESTS.
#
# One library of objects, three small programs (each a real file, so that
# `make install` copies them), and the unit tests linked against it.
STATS_LIBS = -ljansson -lz -lzstd -lpthread -lgsl -lgslcblas -lm
STATS_MODS = scan tmpl strtab input read prep group describe ratio design units robust perm minp seqp setupfx \
	attrib levels suitepass suiteshare kde plot_draw plot_kinds plot_env warn cli analyze comparisons out_text out_csv out_json out_attrib \
	disturb twice threads
STATS_LIB = $(B)/stats/libilstats.a
STATS_CMDS = report plan plot
STATS_TARGETS += $(STATS_CMDS:%=$(B)/libexec/interloper-%)
STATS_UNIT = $(patsubst tests/stats/%.c,$(B)/tests/unit/%,$(wildcard tests/stats/test_stats_*.c))
UNIT_TESTS += $(STATS_UNIT)

# Every function of the statistics starts on a 64-byte boundary: where the
# scanner's loop (tmpl.c's tmpl_match, about half of the report's
# instructions) began was chance, moved by any change elsewhere, and cost
# up to 12% of the report's CPU time (at a million records 0.486 s 16
# bytes past a boundary, 0.429 s on one: the same code).
STATS_ALIGN = -falign-functions=64

# (stats.mk among the prerequisites: a change of these flags rebuilds)
$(B)/stats/%.o: stats/%.c stats/il_stats.h stats/stats.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(STATS_ALIGN) -c $< -o $@

# The allocation helpers, the project's one generator (for resampling too),
# its one hash set, its option layer, the CSV field, the reader of record
# files and the machine snapshots compared, from common/; and the event
# names' one fold to lower case, the library's (interposer/names.c).
$(STATS_LIB): $(STATS_MODS:%=$(B)/stats/%.o) $(IL_XALLOC_OBJ) $(IL_PRNG_OBJ) $(IL_HSET_OBJ) \
		$(IL_OPT_OBJ) $(IL_CSV_OBJ) $(IL_LINES_OBJ) $(IL_MACHINE_OBJ) $(B)/interposer/names.o
	rm -f $@
	$(AR) rcs $@ $^

# The commands' objects are kept (not intermediates make would delete):
# a second make has nothing to do, and the cycle check reads them.
.SECONDARY: $(STATS_CMDS:%=$(B)/stats/%.o)

$(B)/libexec/interloper-%: $(B)/stats/%.o $(STATS_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATS_LIB) $(STATS_LIBS)

# The tests' variant of report, whose reading in parts takes IL_TEST_TAKE
# bytes at a time and says how many parts it read, and whose join of the
# parts runs on two threads IL_TEST_JOIN bytes at a time (stats/read.c,
# IL_TEST_PARTS); report itself has no such knob.
STATS_PARTS = $(B)/tests/interloper-report-parts
$(B)/tests/parts/read.o: stats/read.c stats/il_stats.h stats/stats.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DIL_TEST_PARTS $(ALL_CFLAGS) $(STATS_ALIGN) -Istats -c $< -o $@
$(STATS_PARTS): $(B)/stats/report.o $(B)/tests/parts/read.o $(STATS_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(B)/stats/report.o $(B)/tests/parts/read.o $(STATS_LIB) \
		$(STATS_LIBS)

# The scanner's suite again with tmpl.c's portable path (IL_TMPL_PORTABLE:
# no SSE2), so that the path other targets build is tested here too; its
# tmpl.o comes before the library's, which is then not linked.
STATS_PORTABLE = $(B)/tests/unit/test_stats_scan_portable
UNIT_TESTS += $(STATS_PORTABLE)
$(STATS_PORTABLE): tests/stats/test_stats_scan.c stats/tmpl.c stats/il_stats.h $(STATS_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DIL_TMPL_PORTABLE -Istats $(LDFLAGS) -o $@ \
		tests/stats/test_stats_scan.c stats/tmpl.c $(STATS_LIB) -lcmocka $(STATS_LIBS)

$(STATS_UNIT): $(B)/tests/unit/test_stats_%: tests/stats/test_stats_%.c tests/stats/il_near.h $(STATS_LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Istats $(LDFLAGS) -o $@ $< $(STATS_LIB) -lcmocka $(STATS_LIBS)

stats: $(STATS_TARGETS)

.PHONY: stats
