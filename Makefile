# interloper: plain Makefile.  `make` builds, `make check` installs missing
# Debian packages (as root) and runs every test, `make install` honours
# PREFIX and DESTDIR.
VERSION = 0.1.0

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
LIBEXECDIR ?= $(PREFIX)/libexec/interloper
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
CPPFLAGS += -Iinclude -D_GNU_SOURCE -DIL_VERSION='"$(VERSION)"'
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -MMD -MP

B = build

# Debian packages the build and the tests need (the README says why).
DEB_PACKAGES = gcc make libc6-dev libpapi-dev libpfm4-dev libjansson-dev libcmocka-dev \
	libgsl-dev gnuplot-nox mandoc shellcheck valgrind linux-perf \
	python3 gzip binutils lld util-linux

# ---------------------------------------------------------------- interposer
# Objects shared by the library and the tools are built position-independent.
IL_CORE = config util events perf pfm papi record
IL_HOOKS = start finish signals forkexec setup run
IL_CORE_OBJ = $(IL_CORE:%=$(B)/interposer/%.o)
IL_HOOK_OBJ = $(IL_HOOKS:%=$(B)/interposer/%.o) $(B)/interposer/trampoline.o
IL_PIC = -fPIC -fvisibility=hidden -fno-strict-aliasing

LIB = $(B)/libinterloper.so

$(B)/interposer/%.o: interposer/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(IL_PIC) -Iinterposer -c $< -o $@

$(B)/interposer/trampoline.o: interposer/trampoline.S
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -fPIC -c $< -o $@

$(LIB): $(IL_CORE_OBJ) $(IL_HOOK_OBJ) interposer/exports.map
	$(CC) -shared $(CFLAGS) -o $@ $(IL_CORE_OBJ) $(IL_HOOK_OBJ) \
		-Wl,--version-script=interposer/exports.map -Wl,-z,now -Wl,-z,nodelete \
		-ljansson -ldl

# ---------------------------------------------------------------- tools
TOOLS = $(B)/libexec/interloper-events $(B)/libexec/interloper-record \
	$(B)/libexec/interloper-exec $(B)/libexec/interloper-hold

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

# ---------------------------------------------------------------- parts with their own fragments
STATS_TARGETS =
UNIT_TESTS =
include stats/stats.mk

# ---------------------------------------------------------------- tests
TEST_LIBS_SRC = $(wildcard tests/progs/lib*.c)
TEST_PROGS_SRC = $(filter-out $(TEST_LIBS_SRC), $(wildcard tests/progs/*.c))
TEST_PROGS = $(TEST_PROGS_SRC:tests/progs/%.c=$(B)/tests/progs/%) \
	$(TEST_LIBS_SRC:tests/progs/%.c=$(B)/tests/progs/%.so)

$(B)/tests/progs/%.so: tests/progs/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIC -shared -o $@ $< -ldl

$(B)/tests/progs/%: tests/progs/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< -lpthread -lm

IL_UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_TESTS += $(IL_UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)

$(B)/tests/unit/test_%: tests/unit/test_%.c $(IL_CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -Iinterposer -o $@ $< $(IL_CORE_OBJ) -lcmocka -ljansson -ldl

# ---------------------------------------------------------------- targets
all: $(LIB) $(TOOLS) $(STATS_TARGETS)

tests-build: all $(TEST_PROGS) $(UNIT_TESTS)

# One idempotent step: root installs what is missing, anyone else is told
# the exact command.
deps:
	@sh scripts/deps.sh $(DEB_PACKAGES)

check: deps
	@$(MAKE) --no-print-directory tests-build
	@sh tests/run

test: tests-build
	@sh tests/run

SCRIPTS = $(wildcard scripts/interloper-*)
SHLIBS = $(wildcard scripts/il-*.sh)
MANPAGES = $(wildcard man/*.[1-9])

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/interloper $(DESTDIR)$(LIBEXECDIR)
	sed -e 's|^IL_INSTALLED_LIBEXEC=.*|IL_INSTALLED_LIBEXEC=$(LIBEXECDIR)|' \
	    -e 's|^IL_INSTALLED_LIB=.*|IL_INSTALLED_LIB=$(LIBDIR)/interloper/libinterloper.so|' \
	    scripts/interloper > $(DESTDIR)$(BINDIR)/interloper
	chmod 755 $(DESTDIR)$(BINDIR)/interloper
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/interloper/libinterloper.so
	install -m 755 $(TOOLS) $(STATS_TARGETS) $(SCRIPTS) $(DESTDIR)$(LIBEXECDIR)
	install -m 644 $(SHLIBS) $(DESTDIR)$(LIBEXECDIR)
	for m in $(MANPAGES); do \
		s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interloper
	rm -rf $(DESTDIR)$(LIBDIR)/interloper $(DESTDIR)$(LIBEXECDIR)
	for m in $(MANPAGES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m#man/}; done

clean:
	rm -rf $(B) bench/out

format:
	clang-format -i interposer/*.c interposer/*.h include/*.h tools/*.c tests/unit/*.c \
		tests/progs/*.c $(wildcard stats/*.c stats/*.h tests/stats/*.c)

.PHONY: all deps check test tests-build install uninstall clean format

-include $(wildcard $(B)/*/*.d $(B)/*/*/*.d)
