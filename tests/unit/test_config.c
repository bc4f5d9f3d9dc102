/* Unit tests: INTERLOPER_* parsing (interposer/config.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "interloper.h"

/* A fake environment: NAME=value strings, NULL-terminated. */
static char *fake_env[32];

static const char *
fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (char **e = fake_env; *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static struct il_config cfg;

static int
parse(const char *a, const char *b, const char *c)
{
    const char *in[] = {a, b, c};
    int k = 0;
    for (int i = 0; i < 3; i++)
        if (in[i])
            fake_env[k++] = (char *)in[i];
    fake_env[k] = NULL;
    return il_config_parse(&cfg, fake_getenv, fake_env);
}

static void
test_defaults(void **state)
{
    (void)state;
    assert_int_equal(parse(NULL, NULL, NULL), 0);
    assert_int_equal(cfg.backend, IL_BACKEND_AUTO);
    assert_int_equal(cfg.inherit, IL_INHERIT_ALL);
    assert_true(cfg.events_default);
    assert_int_equal(cfg.nevents, 0);
    assert_string_equal(cfg.output, "./interloper.jsonl");
    assert_int_equal(cfg.stack_offset, 0);
    assert_int_equal(cfg.stack_pin, IL_PIN_NONE);
    assert_int_equal(cfg.heap_offset, 0);
    assert_false(cfg.strict);
}

static void
test_events_list(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_EVENTS= cycles, instructions ,,task-clock:u,", NULL, NULL),
                     0);
    assert_false(cfg.events_default);
    assert_int_equal(cfg.nevents, 3);
    assert_string_equal(cfg.events[0], "cycles");
    assert_string_equal(cfg.events[1], "instructions");
    assert_string_equal(cfg.events[2], "task-clock:u");
}

static void
test_events_duplicate_and_too_many(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_EVENTS=cycles,cycles", NULL, NULL), 1);
    assert_int_equal(cfg.nevents, 1);
    assert_non_null(strstr(cfg.errors[0], "named twice"));

    char many[1024] = "INTERLOPER_EVENTS=";
    for (int i = 0; i < 40; i++)
        sprintf(many + strlen(many), "e%d,", i);
    assert_int_equal(parse(many, NULL, NULL), 1);
    assert_int_equal(cfg.nevents, IL_MAX_EVENTS);
    assert_non_null(strstr(cfg.errors[0], "more than 32"));
}

static void
test_backend(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_BACKEND=papi", NULL, NULL), 0);
    assert_int_equal(cfg.backend, IL_BACKEND_PAPI);
    assert_int_equal(parse("INTERLOPER_BACKEND=none", NULL, NULL), 0);
    assert_int_equal(cfg.backend, IL_BACKEND_NONE);
    assert_int_equal(parse("INTERLOPER_BACKEND=fast", NULL, NULL), 1);
    assert_int_equal(cfg.backend, IL_BACKEND_AUTO);
    /* one line naming the variable, its value and what was expected */
    assert_non_null(strstr(cfg.errors[0], "INTERLOPER_BACKEND=fast: "));
    assert_non_null(strstr(cfg.errors[0], "expected auto, perf, papi or none"));
    assert_null(strchr(cfg.errors[0], '\n'));
}

static void
test_sizes(void **state)
{
    (void)state;
    unsigned long long v;
    assert_int_equal(il_parse_size("4096", ~0ULL, &v), 0);
    assert_int_equal(v, 4096);
    /* constant-width values written by drivers are decimal, not octal */
    assert_int_equal(il_parse_size("00004096", ~0ULL, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(il_parse_size("0x1000", ~0ULL, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(il_parse_size("4k", ~0ULL, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(il_parse_size("2M", ~0ULL, &v), 0);
    assert_int_equal(v, 2u << 20);
    assert_int_equal(il_parse_size("12abc", ~0ULL, &v), IL_EINVAL);
    assert_int_equal(il_parse_size("", ~0ULL, &v), IL_EINVAL);
    assert_int_equal(il_parse_size("-5", ~0ULL, &v), IL_EINVAL);
    assert_int_equal(il_parse_size("99999999999999999999999", ~0ULL, &v), IL_ERANGE);
    assert_int_equal(il_parse_size("2048", 1024, &v), IL_ERANGE);
}

static void
test_stack_offset(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_STACK_OFFSET=00000100", NULL, NULL), 0);
    assert_int_equal(cfg.stack_offset_req, 100);
    assert_int_equal(cfg.stack_offset, 96); /* 16-byte steps */
    assert_int_equal(parse("INTERLOPER_STACK_OFFSET=lots", NULL, NULL), 1);
    assert_int_equal(cfg.stack_offset, 0);
    assert_non_null(strstr(cfg.errors[0], "INTERLOPER_STACK_OFFSET=lots: not a byte count"));
    assert_int_equal(parse("INTERLOPER_STACK_OFFSET=1G", NULL, NULL), 1);
    assert_non_null(strstr(cfg.errors[0], "too large"));
}

static void
test_stack_pin_and_heap(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_STACK_PIN=auto", "INTERLOPER_HEAP_OFFSET=4k", NULL), 0);
    assert_int_equal(cfg.stack_pin, IL_PIN_AUTO);
    assert_int_equal(cfg.heap_offset, 4096);
    assert_int_equal(parse("INTERLOPER_STACK_PIN=0x7fffffffd000", NULL, NULL), 0);
    assert_int_equal(cfg.stack_pin, IL_PIN_ADDR);
    assert_true(cfg.stack_pin_addr == (uintptr_t)0x7fffffffd000ULL);
    assert_int_equal(parse("INTERLOPER_STACK_PIN=somewhere", "INTERLOPER_HEAP_OFFSET=x", NULL), 2);
    assert_int_equal(cfg.stack_pin, IL_PIN_NONE);
    assert_int_equal(cfg.heap_offset, 0);
}

static void
test_inherit_bools(void **state)
{
    (void)state;
    assert_int_equal(
        parse("INTERLOPER_INHERIT=threads", "INTERLOPER_STRICT=1", "INTERLOPER_DEBUG=yes"), 0);
    assert_int_equal(cfg.inherit, IL_INHERIT_THREADS);
    assert_true(cfg.strict);
    assert_true(cfg.debug);
    assert_int_equal(parse("INTERLOPER_INHERIT=0", NULL, NULL), 0);
    assert_int_equal(cfg.inherit, IL_INHERIT_NONE);
    assert_int_equal(parse("INTERLOPER_INHERIT=some", "INTERLOPER_STRICT=maybe", NULL), 2);
    assert_false(cfg.strict);
}

static void
test_output(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(parse("INTERLOPER_OUTPUT=-", NULL, NULL), 0);
    assert_true(cfg.output_stderr);
    assert_int_equal(parse("INTERLOPER_OUTPUT=/tmp/r.%p.jsonl", NULL, NULL), 0);
    assert_string_equal(cfg.output, "/tmp/r.%p.jsonl");
    assert_int_equal(il_expand_output("/tmp/r.%p.jsonl", 42, out, sizeof out), 0);
    assert_string_equal(out, "/tmp/r.42.jsonl");
    assert_int_equal(il_expand_output("100%%.j", 1, out, sizeof out), 0);
    assert_string_equal(out, "100%.j");
    assert_int_equal(il_expand_output("a%q", 1, out, sizeof out), IL_EINVAL);
    assert_int_equal(il_expand_output("abcdefgh", 1, out, 4), IL_ERANGE);
    assert_int_equal(parse("INTERLOPER_OUTPUT=/tmp/%z", NULL, NULL), 1);
    assert_true(cfg.output_stderr); /* where the user will see it */
}

static void
test_unknown_variable(void **state)
{
    (void)state;
    assert_int_equal(parse("INTERLOPER_EVENT=cycles", "INTERLOPER_PAD=xxxx", NULL), 1);
    assert_non_null(strstr(cfg.errors[0], "INTERLOPER_EVENT=cycles: unknown variable"));
    assert_true(cfg.events_default);
}

/* Without a getenv function the library finds its variables in one pass
 * over the environment: the first of a name counts, as with getenv; the
 * variables interloper sets for its own use are known; a misspelt one is
 * reported after the others' problems, with the names the library reads;
 * an entry without '=' has no value. */
static void
test_environment_scan(void **state)
{
    (void)state;
    char *env[] = {"PATH=/bin",
                   "INTERLOPER_BACKENDS=perf",
                   "INTERLOPER_BACKEND=none",
                   "INTERLOPER_BACKEND=perf",
                   "INTERLOPER_STACK_OFFSET=00000064",
                   "INTERLOPER_HEAP_OFFSET=lots",
                   "INTERLOPER_PAD=xxxx",
                   "INTERLOPER_CC=gcc",
                   "INTERLOPER_RUN",
                   "INTERLOPER_STRICT=",
                   NULL};
    assert_int_equal(il_config_parse(&cfg, NULL, env), 2);
    assert_int_equal(cfg.backend, IL_BACKEND_NONE);
    assert_int_equal(cfg.stack_offset, 64);
    assert_false(cfg.strict);
    assert_string_equal(cfg.run_spec, "");
    assert_non_null(strstr(cfg.errors[0], "INTERLOPER_HEAP_OFFSET=lots: not a byte count"));
    assert_non_null(strstr(cfg.errors[1], "INTERLOPER_BACKENDS=perf: unknown variable; expected "
                                          "one of INTERLOPER_EVENTS, _BACKEND, _OUTPUT,"));
    assert_non_null(strstr(cfg.errors[1], ", _DEBUG"));
}

/* A run spec's "set" line goes through the same table, over what the
 * environment said: the spec's events list replaces the environment's, a
 * bad value is one message in the variable's words, an unknown name or
 * INTERLOPER_RUN (which a spec cannot set) is reported as unknown, an
 * empty value is as good as unset. */
static void
test_spec_settings(void **state)
{
    (void)state;
    assert_int_equal(
        parse("INTERLOPER_EVENTS=task-clock,page-faults", "INTERLOPER_STACK_OFFSET=32", NULL), 0);
    /* the variables: their problems are told in the variables' names */
    assert_false(cfg.events_spec || cfg.backend_spec || cfg.stack_offset_spec || cfg.strict_spec);
    il_config_set(&cfg, "INTERLOPER_EVENTS=context-switches");
    il_config_set(&cfg, "INTERLOPER_BACKEND=perf");
    il_config_set(&cfg, "INTERLOPER_STACK_OFFSET=4k");
    il_config_set(&cfg, "INTERLOPER_STRICT=1");
    il_config_set(&cfg, "INTERLOPER_HEAP_OFFSET=");
    assert_int_equal(cfg.nerrors, 0);
    assert_int_equal(cfg.nevents, 1);
    assert_string_equal(cfg.events[0], "context-switches");
    assert_string_equal(cfg.events_value, "context-switches");
    assert_int_equal(cfg.stack_offset, 4096);
    assert_true(cfg.strict);
    assert_int_equal(cfg.heap_offset, 0);
    /* the spec's: told by the driver's options (review12b L1) */
    assert_true(cfg.events_spec && cfg.backend_spec && cfg.stack_offset_spec && cfg.strict_spec);
    il_config_set(&cfg, "INTERLOPER_STACK_PIN=nowhere");
    il_config_set(&cfg, "INTERLOPER_NOPE=1");
    il_config_set(&cfg, "INTERLOPER_RUN=/x");
    assert_int_equal(cfg.nerrors, 3);
    assert_non_null(strstr(cfg.errors[0], "INTERLOPER_STACK_PIN=nowhere: not an address"));
    assert_non_null(strstr(cfg.errors[1],
                           "INTERLOPER_NOPE=1: in the run spec, a setting this library "
                           "does not know: it is older than the interloper command"));
    assert_non_null(strstr(cfg.errors[2], "INTERLOPER_RUN=/x: unknown variable"));
    assert_string_equal(cfg.run_spec, "");
    il_config_set(&cfg, "INTERLOPER_STRICT");
    assert_int_equal(cfg.nerrors, 4);
    assert_non_null(strstr(cfg.errors[3], "INTERLOPER_STRICT=: no = in the run spec's set line"));
}

static void
test_strerror(void **state)
{
    (void)state;
    assert_string_equal(il_strerror(0), "success");
    assert_string_equal(il_strerror(IL_ENOEVENT), "unknown event");
    assert_string_equal(il_strerror(-1000), "unknown error");
    assert_string_equal(il_strerror(5), "unknown error");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_events_list),
        cmocka_unit_test(test_events_duplicate_and_too_many),
        cmocka_unit_test(test_backend),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_stack_offset),
        cmocka_unit_test(test_stack_pin_and_heap),
        cmocka_unit_test(test_inherit_bools),
        cmocka_unit_test(test_output),
        cmocka_unit_test(test_unknown_variable),
        cmocka_unit_test(test_environment_scan),
        cmocka_unit_test(test_spec_settings),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
