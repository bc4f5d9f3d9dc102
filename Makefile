# interloper: plain Makefile.  `make` builds, `make check` installs missing
# Debian packages (as root) and runs every test, `make install` honours
# PREFIX and DESTDIR.
# The version lives in one place, the file VERSION; the C parts get it as
# IL_VERSION from the generated header il_version.h (below), the scripts
# read the file (installed beside them).
VERSION := $(shell cat VERSION)

.DEFAULT_GOAL := all

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
LIBEXECDIR ?= $(PREFIX)/libexec/interloper
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CC ?= cc
CFLAGS ?= -O2 -g
# LDFLAGS is given to every link (Debian's dpkg-buildflags sets it).
LDFLAGS ?=
# Tables (options, events) initialise only the fields they need: the rest
# are zero, as C says, without a warning for each.
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
	-Wno-missing-field-initializers
ifeq ($(WERROR),1)
WARN += -Werror
endif
B = build
CPPFLAGS += -Iinclude -I$(B)/include -D_GNU_SOURCE
# No fused multiply-add unless written: the statistics' fast paths promise
# the same bits as their general ones (stats/setupfx.c's grid), and clang
# contracts by default where gcc's -std=c11 does not (review9).
ALL_CFLAGS = -std=c11 -ffp-contract=off $(WARN) $(CFLAGS) -MMD -MP

# $(B)/include/il_version.h holds IL_VERSION.  It is rewritten, here as the
# Makefile is read (so before anything compiles), only when VERSION says
# something else: an object that embeds the version includes it, and
# the compiler's dependency files then rebuild exactly those objects.
VERSION_H = $(B)/include/il_version.h
VERSION_LINE = \#define IL_VERSION "$(VERSION)"
ifneq ($(shell cat $(VERSION_H) 2>/dev/null),$(VERSION_LINE))
$(shell mkdir -p $(B)/include && printf '%s\n' '$(VERSION_LINE)' >$(VERSION_H))
endif

# Debian packages the build and the tests need (doc/install.md says why).
DEB_PACKAGES = gcc make libc6-dev libpapi-dev libpfm4-dev libjansson-dev libcmocka-dev \
	libgsl-dev gnuplot-nox mandoc shellcheck valgrind strace linux-perf \
	python3 gzip binutils lld util-linux zlib1g-dev libzstd-dev zstd clang clang-format mawk
# Only for tests, which skip without them: a real Slurm and GNU parallel for
# interloper sweep's scale-out (installed with no daemon started), and
# what builds and checks the Debian package (tests/system/debian.sh), and
# the harnesses interloper run wraps (tests/system/harness.sh: lit, CTest).
DEB_TEST_PACKAGES = slurm-wlm munge parallel debhelper dpkg-dev fakeroot lintian \
	llvm-14-tools cmake

# ---------------------------------------------------------------- parts with their own fragments
# Each part's build lives beside its sources.  LIB is the library, TOOLS
# and STATS_TARGETS the programs in build/libexec, UNIT_TESTS the cmocka
# suites.
STATS_TARGETS =
UNIT_TESTS =
include common/common.mk
include interposer/interposer.mk
include tools/tools.mk
include stats/stats.mk

# ---------------------------------------------------------------- tests
TEST_LIBS_SRC = $(wildcard tests/progs/lib*.c)
TEST_PROGS_SRC = $(filter-out $(TEST_LIBS_SRC), $(wildcard tests/progs/*.c))
TEST_PROGS = $(TEST_PROGS_SRC:tests/progs/%.c=$(B)/tests/progs/%) \
	$(TEST_LIBS_SRC:tests/progs/%.c=$(B)/tests/progs/%.so)

$(B)/tests/progs/%.so: tests/progs/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -shared $(LDFLAGS) -o $@ $< -ldl

$(B)/tests/progs/%: tests/progs/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lpthread -lm

IL_UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_TESTS += $(IL_UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)

$(B)/tests/unit/test_%: tests/unit/test_%.c $(IL_CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Iinterposer $(LDFLAGS) -o $@ $< $(IL_CORE_OBJ) -lcmocka -ljansson -ldl

# ---------------------------------------------------------------- targets
# The bash completion, from the commands' own option tables.
COMPLETION = $(B)/interloper.bash

all: $(LIB) $(TOOLS) $(STATS_TARGETS) $(COMPLETION)

$(COMPLETION): $(TOOLS) $(STATS_TARGETS) scripts/completion.sh
	sh scripts/completion.sh $(B)/libexec >$@.tmp
	mv $@.tmp $@

tests-build: all $(TEST_PROGS) $(UNIT_TESTS) $(LIB_DELAY) $(STATS_PARTS)

# One idempotent step: root installs what is missing, anyone else is told
# the exact command.
deps:
	@sh scripts/deps.sh $(DEB_PACKAGES)

test-deps:
	@sh scripts/deps.sh --test $(DEB_TEST_PACKAGES)

# T=NAME runs one test (or several, blank-separated): a script of
# tests/system/ by its name (T=sweep), a unit suite (T=test_opt), or
# T=unit for every unit suite.
check: deps test-deps
	@$(MAKE) --no-print-directory tests-build
	@sh tests/run $(T)

test: tests-build
	@sh tests/run $(T)

# About a minute: the unit suites, the golden outputs of report and plan,
# the option tables against the man pages, and one script of the
# interposer's exit paths.
SMOKE = unit stats_golden options interposer_exit
smoke: tests-build
	@sh tests/run $(SMOKE)

# The seed paper's experiments on this machine, with a summary and figures
# in $(DEMO_OUT) (demo/demo.sh; how long: README.md, "Reproduce the paper").
DEMO_OUT ?= demo/out
demo: all
	@sh demo/demo.sh $(if $(filter 1,$(QUICK)),--quick) --out '$(DEMO_OUT)'

# The exit races, 10,000 runs of each pattern (minutes; bench/stress.sh).
stress: tests-build
	@sh bench/stress.sh

# The hardware-counter paths, for a machine with a PMU, in one command
# (packages, build, checks); skipped, saying SKIPPED and what it would have
# checked, where there is none (bench/check-pmu.sh).
check-pmu: deps
	@$(MAKE) --no-print-directory tests-build
	@sh bench/check-pmu.sh || [ $$? -eq 77 ]

SCRIPTS = $(wildcard scripts/interloper-*)
SHLIBS = $(wildcard scripts/il-*.sh)
MANPAGES = $(wildcard man/*.[1-9])

# install writes a receipt of every file and directory it made; uninstall
# removes exactly those.  A plain `make uninstall` undoes the last install
# from this tree (build/last-install names its receipt), whatever PREFIX
# it had; with PREFIX (or DESTDIR) given, the install at that place.
install: all
	@env DESTDIR='$(DESTDIR)' BINDIR='$(BINDIR)' LIBDIR='$(LIBDIR)' \
		LIBEXECDIR='$(LIBEXECDIR)' MANDIR='$(MANDIR)' BASHCOMPDIR='$(BASHCOMPDIR)' B='$(B)' \
		LIB='$(LIB)' PROGRAMS='$(TOOLS) $(STATS_TARGETS) $(SCRIPTS)' DATA='$(SHLIBS)' \
		MANPAGES='$(MANPAGES)' COMPLETION='$(COMPLETION)' sh scripts/install.sh install
	@echo "interloper: installed in $(DESTDIR)$(PREFIX); make uninstall removes it"

ifeq ($(origin PREFIX)$(origin DESTDIR)$(origin LIBEXECDIR),fileundefinedfile)
RECEIPT = $(shell cat $(B)/last-install 2>/dev/null || echo $(LIBEXECDIR)/installed)
else
RECEIPT = $(DESTDIR)$(LIBEXECDIR)/installed
endif
uninstall:
	@B='$(B)' sh scripts/install.sh uninstall '$(RECEIPT)'

clean:
	rm -rf $(B) bench/out demo/out

# Every C file of the project's own (not the fixtures of tests/link or
# bzip2's sources in demo/), headers and tests included.
FORMAT_SRC = $(wildcard include/*.h common/*.c common/*.h interposer/*.c interposer/*.h \
	tools/*.c tools/*.h stats/*.c stats/*.h tests/unit/*.c tests/common/*.c tests/tools/*.c \
	tests/stats/*.c tests/stats/*.h tests/progs/*.c bench/*.c demo/*.c)

format:
	clang-format -i $(FORMAT_SRC)

.PHONY: all deps test-deps check test smoke tests-build install uninstall clean format stress \
	check-pmu demo

-include $(wildcard $(B)/*/*.d $(B)/*/*/*.d)
