/* Unit tests: event resolution (interposer/backends.c, names.c, pfm.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il.h"

static void
test_generic_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t type;
        uint64_t config;
    } cases[] = {
        {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
        {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
        {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
        {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
        {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
        {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
        {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
        {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
        {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
        {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
        {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
        {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
        {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct perf_event_attr a;
        assert_int_equal(il_event_generic(cases[i].name, &a), 0);
        assert_int_equal(a.type, cases[i].type);
        assert_int_equal(a.config, cases[i].config);
        assert_false(a.exclude_user);
        assert_false(a.exclude_kernel);
    }
}

static void
test_modifiers(void **state)
{
    (void)state;
    struct perf_event_attr a;
    assert_int_equal(il_event_generic("cycles:u", &a), 0);
    assert_true(a.exclude_kernel);
    assert_false(a.exclude_user);
    assert_int_equal(il_event_generic("instructions:k", &a), 0);
    assert_true(a.exclude_user);
    assert_false(a.exclude_kernel);
    assert_int_equal(il_event_generic("cycles:x", &a), IL_ENOEVENT);
    assert_int_equal(il_event_generic("INST_RETIRED:ANY_P", &a), IL_ENOEVENT);
    assert_int_equal(il_event_generic("bogus", &a), IL_ENOEVENT);
}

/* outside13 F6: one event, one name, however the user spelled it */
static void
test_fold(void **state)
{
    (void)state;
    static const struct {
        const char *given, *recorded;
    } cases[] = {
        {"TASK-CLOCK", "task-clock"},
        {"Task-Clock", "task-clock"},
        {"task-clock", "task-clock"},
        {"Cycles:U", "cycles:u"},
        {"INSTRUCTIONS:KU", "instructions:ku"},
        {"CS", "cs"},
        {"Page-Faults", "page-faults"},
        {"INST_RETIRED:ANY_P", "INST_RETIRED:ANY_P"},
        {"PAPI_TOT_CYC", "PAPI_TOT_CYC"},
        {"perf::PAGE-FAULTS", "perf::PAGE-FAULTS"},
        {"TASK-CLOCKS", "TASK-CLOCKS"},
        {"TASK-CLOC", "TASK-CLOC"},
        {"CYCLES:X", "CYCLES:X"},
        {"CYCLES:UKU", "CYCLES:UKU"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char b[64];
        strcpy(b, cases[i].given);
        int changed = strcmp(cases[i].given, cases[i].recorded) != 0;
        assert_int_equal(il_event_fold(b, strlen(b)), changed);
        assert_string_equal(b, cases[i].recorded);
    }
    /* a list: blanks kept, each name folded, the separator's */
    char l[] = " TASK-CLOCK ,Cycles:U,INST_RETIRED:ANY_P";
    il_events_fold(l, ',');
    assert_string_equal(l, " task-clock ,cycles:u,INST_RETIRED:ANY_P");
    char m[] = "Task-Clock/INSTRUCTIONS";
    il_events_fold(m, '/');
    assert_string_equal(m, "task-clock/instructions");
}

static void
test_papi_names(void **state)
{
    (void)state;
    assert_true(il_event_is_papi_name("PAPI_TOT_CYC"));
    assert_true(il_event_is_papi_name("rapl:::PACKAGE_ENERGY:PACKAGE0"));
    assert_false(il_event_is_papi_name("perf::PAGE-FAULTS"));
    assert_false(il_event_is_papi_name("cycles"));
}

/* Real perf_event_open: each inheritance mode gives the counter its
 * attributes, disabled, and the descriptor goes just under the top. */
static void
test_attr_inherit(void **state)
{
    (void)state;
    static const struct {
        enum il_inherit mode;
        int inherit, thread;
    } modes[] = {
        {IL_INHERIT_ALL, 1, 0},
        {IL_INHERIT_THREADS, 1, 1},
        {IL_INHERIT_NONE, 0, 0},
    };
    for (size_t i = 0; i < 3; i++) {
        struct il_event e;
        memset(&e, 0, sizeof e);
        assert_int_equal(il_event_generic("task-clock", &e.attr), 0);
        if (il_perf_open_one(&e, modes[i].mode, 900) < 0) {
            print_message("skipped: perf_event_open refused task-clock here: %s\n", e.error);
            skip();
        }
        assert_true(e.attr.disabled);
        assert_int_equal(e.attr.inherit, modes[i].inherit);
        if (!il.inherit_thread_unsupported)
            assert_int_equal(e.attr.inherit_thread, modes[i].thread);
        assert_int_equal(e.attr.read_format,
                         PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
        assert_true(e.fd <= 900 && e.fd > 900 - 64);
        assert_int_equal(fcntl(e.fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
        close(e.fd);
    }
}

/* Real libpfm4, in the helper child, as the library uses it. */
static void
test_pfm_resolution(void **state)
{
    (void)state;
    const char *names[] = {"perf::PAGE-FAULTS", "no-such-event-anywhere", "perf::TASK-CLOCK:u"};
    struct il_pfm_result r[3];
    assert_int_equal(il_pfm_resolve(names, 3, r), 0);
    assert_int_equal(r[0].rc, 0);
    assert_int_equal(r[0].attr.type, PERF_TYPE_SOFTWARE);
    assert_int_equal(r[0].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
    assert_int_equal(r[1].rc, IL_ENOEVENT);
    assert_non_null(strstr(r[1].error, "unknown event"));
    assert_int_equal(r[2].rc, 0);
    assert_int_equal(r[2].attr.config, PERF_COUNT_SW_TASK_CLOCK);
    assert_true(r[2].attr.exclude_kernel);
    /* the helper child is reaped: no child is left for the caller */
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* Real perf_event_open: a software counter must open here. */
static void
test_perf_open_software(void **state)
{
    (void)state;
    struct il_event e;
    memset(&e, 0, sizeof e);
    assert_int_equal(il_event_generic("task-clock", &e.attr), 0);
    if (il_perf_open_one(&e, IL_INHERIT_ALL, 0) < 0) {
        print_message("skipped: perf_event_open refused task-clock here: %s\n", e.error);
        skip();
    }
    assert_true(e.ok);
    assert_true(e.fd >= 3);
    close(e.fd);
}

static void
test_errno_text(void **state)
{
    (void)state;
    char b[IL_ERRSHORT];
    struct perf_event_attr hw = {.type = PERF_TYPE_HARDWARE};
    assert_non_null(strstr(il_perf_errno_text(ENOENT, &hw, b, sizeof b), "no hardware PMU"));
    assert_non_null(strstr(il_perf_errno_text(EACCES, &hw, b, sizeof b), "perf_event_paranoid="));
    assert_non_null(strstr(il_perf_errno_text(ENOSYS, &hw, b, sizeof b), "seccomp"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_names),  cmocka_unit_test(test_modifiers),
        cmocka_unit_test(test_papi_names),     cmocka_unit_test(test_attr_inherit),
        cmocka_unit_test(test_pfm_resolution), cmocka_unit_test(test_perf_open_software),
        cmocka_unit_test(test_errno_text),     cmocka_unit_test(test_fold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
