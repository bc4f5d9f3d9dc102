# Build fragment for the interposer (interposer/ -> libinterloper.so),
# included by the top-level Makefile.
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

