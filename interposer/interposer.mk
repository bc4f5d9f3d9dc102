# Build fragment for the interposer (interposer/ -> libinterloper.so),
# included by the top-level Makefile.
#
# IL_CORE: objects the tools and unit tests link too (position-independent).
# IL_HOOKS: the hooks, only in the library.
# IL_SAFE: the finish path, which may run in a signal handler or _exit:
#   tests/system/interposer_safety.sh checks that these objects call
#   nothing outside themselves but the allowlist in interposer/safe.allow.
IL_CORE = config sigsafe names backends backend_perf backend_papi backend_none pfm record_json \
	summary output setup run_spec secure
IL_HOOKS = start exit finish signals forkexec counted libc glibc bind others
IL_SAFE = libc sigsafe names config record_json summary output exit finish signals backend_perf \
	backend_none run_spec stack others
IL_CORE_OBJ = $(IL_CORE:%=$(B)/interposer/%.o)
IL_HOOK_OBJ = $(IL_HOOKS:%=$(B)/interposer/%.o) $(B)/interposer/trampoline.o \
	$(B)/interposer/stack.o
IL_PIC = -fPIC -fvisibility=hidden -fno-strict-aliasing

LIB = $(B)/libinterloper.so

$(B)/interposer/%.o: interposer/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(IL_PIC) -Iinterposer -c $< -o $@

$(B)/interposer/%.o: interposer/%.S
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -fPIC -c $< -o $@

# One import, dl_iterate_phdr, found in the program's libc: the library
# finds the rest itself before main (bind.c), since every import costs
# each process a lookup at load.  Linked without libc (-nodefaultlibs: it
# defines the few string functions it uses, libc.c), so that it has no
# DT_NEEDED and no version requirement, which cost the loader a search of
# the loaded objects by name and a version check in every process.  No start files (crtbeginS.o's weak
# imports and __cxa_finalize call, for a library with no C++ and no
# destructors), and calls between the library's own exported functions
# bound at link time (-Bsymbolic-functions), not at load.  -z now: nothing
# is resolved inside the measured window.  -z noseparate-code: two loaded
# segments (text with the read-only data, then the writable data), not
# four, so that the loader maps the library with two mmap calls fewer in
# every process (bench/overhead.sh: 2 system calls and about 270
# instructions); the price is that the ELF headers and read-only data are
# mapped executable with the code, as every binutils before 2.31 linked
# them (the package already builds the library without the stack
# protector and fortify, debian/rules, for the same reason).
IL_SOFLAGS = -shared -nostartfiles -nodefaultlibs -Wl,--version-script=interposer/exports.map -Wl,-z,now \
	-Wl,-z,relro -Wl,-z,noseparate-code -Wl,-z,nodelete -Wl,--hash-style=gnu -Wl,--as-needed -Wl,-Bsymbolic-functions
$(LIB): $(IL_CORE_OBJ) $(IL_HOOK_OBJ) interposer/exports.map interposer/interposer.mk
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(IL_CORE_OBJ) $(IL_HOOK_OBJ) $(IL_SOFLAGS)
	@printf '%s\n' $(IL_SAFE:%=$(B)/interposer/%.o) >$(B)/interposer/safe.list

# The tests' variant of the library, with delays injected into race windows
# (interposer/testdelay.c) and a glibc version to stand for (glibc.c): the
# objects that hold a test point are compiled again with IL_TEST_DELAYS;
# the library itself has none.
IL_DELAYED = exit forkexec glibc output signals
IL_DELAY_OBJ = $(IL_DELAYED:%=$(B)/tests/delay/%.o) $(B)/tests/delay/testdelay.o
LIB_DELAY = $(B)/tests/libinterloper-delay.so

$(B)/tests/delay/%.o: interposer/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DIL_TEST_DELAYS $(ALL_CFLAGS) $(IL_PIC) -Iinterposer -c $< -o $@

$(LIB_DELAY): $(filter-out $(IL_DELAYED:%=$(B)/interposer/%.o),$(IL_CORE_OBJ) $(IL_HOOK_OBJ)) \
		$(IL_DELAY_OBJ) interposer/exports.map interposer/interposer.mk
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(IL_SOFLAGS)
