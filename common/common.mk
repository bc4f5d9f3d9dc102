# Build fragment for what several programs share (common/ -> build/common),
# included by the top-level Makefile.  Headers in include/: il_xalloc.h,
# il_prng.h, il_sha256.h, il_hset.h, il_opt.h, il_util.h, il_csv.h,
# il_lines.h, il_plural.h (header only).  Not the library's: libinterloper.so
# links nothing of this (it allocates nothing before main).
#
# IL_XALLOC_OBJ: allocation that cannot fail; IL_PRNG_OBJ: the one
# generator of every order; IL_HSET_OBJ: the one hash set; IL_OPT_OBJ: the
# option layer; IL_UTIL_OBJ: strings, files, SHA-256, the hash set, the
# option layer and the allocation they use, for every C command;
# IL_CSV_OBJ: one CSV field (report --csv, record csv); IL_LINES_OBJ:
# record files read line by line, plain, gzip or zstd (link -lz -lzstd).
IL_XALLOC_OBJ = $(B)/common/xalloc.o
IL_PRNG_OBJ = $(B)/common/prng.o
IL_HSET_OBJ = $(B)/common/hset.o
IL_OPT_OBJ = $(B)/common/opt.o
IL_CSV_OBJ = $(B)/common/csv.o
# IL_MACHINE_OBJ: machine snapshots compared (il_machine.h; jansson), for
# record merge and report
IL_MACHINE_OBJ = $(B)/common/machfacts.o
IL_LINES_OBJ = $(B)/common/lines.o
IL_UTIL_OBJ = $(addprefix $(B)/common/,text.o system.o sha256.o hset.o opt.o xalloc.o)

$(B)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

# Their unit tests (tests/common/).
COMMON_UNIT = $(patsubst tests/common/%.c,$(B)/tests/unit/%,$(wildcard tests/common/test_*.c))
UNIT_TESTS += $(COMMON_UNIT)

$(COMMON_UNIT): $(B)/tests/unit/test_%: tests/common/test_%.c $(IL_UTIL_OBJ) $(IL_PRNG_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) -lcmocka
