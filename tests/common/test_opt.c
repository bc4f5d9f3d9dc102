/*
 * test_opt.c: the option layer (common/opt.c, il_opt.h): the words every
 * command reads the same way, operands after options when a command
 * permutes, tables spliced and shared by several commands, --help and
 * --list-options from the table, and each complaint about bad usage as one
 * line and status 1 (run in a child).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "il_opt.h"

enum { O_EVENTS = 1, O_QUIET, O_PIN, O_OUTPUT, O_SETUP, O_SEED, O_BY, O_DRY };

static int
is_addr(const char *w)
{
    return !strncmp(w, "0x", 2) || !strcmp(w, "auto");
}

static const struct il_opt shared[] = {
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no summary", O_QUIET},
    {"dry-run", 'n', IL_OPT_FLAG, NULL, "run nothing", O_DRY},
    {0},
};

enum { ONE = 1, TWO = 2 };
static const struct il_opt table[] = {
    {.head = "measurement"},
    {"events", 'e', IL_OPT_VALUE, "LIST", "events to count,\ncomma-separated", O_EVENTS},
    {"stack-pin", 0, IL_OPT_MAYBE, "ADDR", "pin the stack", O_PIN, 0, is_addr},
    {"output", 'o', IL_OPT_VALUE, "FILE", "where", O_OUTPUT},
    {.incl = shared},
    {.head = "design"},
    {"setup", 0, IL_OPT_VALUE, "LABEL", "the setups", O_SETUP},
    {"seed", 0, IL_OPT_VALUE, "S", "the seed", O_SEED},
    {"by", 'b', IL_OPT_VALUE, "LABEL", "groups", O_BY, TWO},
    {0},
};

static const struct il_cmd one = {
    .name = "interloper one",
    .synopsis = "[options] PROG\n[more]",
    .about = "Do one thing.",
    .man = "interloper-one(1)",
    .opts = table,
    .bit = ONE,
};

static const struct il_cmd two = {
    .name = "interloper two",
    .synopsis = "[options] FILE...",
    .opts = table,
    .bit = TWO,
    .permute = 1,
};

/* Parse WORDS (NULL-terminated) with CMD; returns "id=value ..." of each
 * option, then "| operands". */
static char *
parse(const struct il_cmd *cmd, const char **words)
{
    static char out[1024];
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"prog";
    for (; *words; words++)
        argv[argc++] = (char *)*words;
    argv[argc] = NULL;
    struct il_optp p;
    const struct il_opt *o;
    size_t n = 0;
    out[0] = 0;
    il_opt_init(&p, cmd, argc, argv);
    while ((o = il_opt_next(&p)))
        n += (size_t)snprintf(out + n, sizeof out - n, "%d=%s ", o->id, p.val ? p.val : "-");
    n += (size_t)snprintf(out + n, sizeof out - n, "|");
    for (int i = p.i; i < argc; i++)
        n += (size_t)snprintf(out + n, sizeof out - n, " %s", argv[i]);
    return out;
}

/* Run parse() in a child: its status and its stderr. */
static int
fails(const struct il_cmd *cmd, const char **words, char *err, size_t n)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        dup2(fd[1], 1);
        close(fd[0]);
        parse(cmd, words);
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fd[0], err + got, n - 1 - got)) > 0)
        got += (size_t)r;
    err[got] = 0;
    close(fd[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define WORDS(...) ((const char *[]){__VA_ARGS__, NULL})

static void
the_words(void **state)
{
    (void)state;
    assert_string_equal(parse(&one, WORDS("--events", "a,b", "-q", "prog", "-x")),
                        "1=a,b 2=- | prog -x");
    assert_string_equal(parse(&one, WORDS("--events=a", "-eb", "-e", "c", "--", "-q")),
                        "1=a 1=b 1=c | -q");
    /* a value may look like an option; an empty value is a value */
    assert_string_equal(parse(&one, WORDS("-o", "-q", "--output=", "x")), "4=-q 4= | x");
    /* optional values: after '=', or the next word if it is one */
    assert_string_equal(parse(&one, WORDS("--stack-pin", "prog")), "3=- | prog");
    assert_string_equal(parse(&one, WORDS("--stack-pin", "0x1000", "prog")), "3=0x1000 | prog");
    assert_string_equal(parse(&one, WORDS("--stack-pin=zz", "prog")), "3=zz | prog");
    /* "-" alone is an operand */
    assert_string_equal(parse(&one, WORDS("-q", "-", "-n")), "2=- | - -n");
    /* the spliced table's options */
    assert_string_equal(parse(&one, WORDS("--dry-run", "-n")), "8=- 8=- |");
}

static void
permuted(void **state)
{
    (void)state;
    assert_string_equal(parse(&two, WORDS("a.jsonl", "-q", "b.jsonl", "--by", "x", "c")),
                        "2=- 7=x | a.jsonl b.jsonl c");
    assert_string_equal(parse(&two, WORDS("a", "--", "-q", "b")), "| a -q b");
    assert_string_equal(parse(&two, WORDS("-q", "a", "--by=s", "--", "--by")), "2=- 7=s | a --by");
}

static void
complaints(void **state)
{
    (void)state;
    char err[1024];
    struct {
        const struct il_cmd *cmd;
        const char **words;
        const char *msg;
    } c[] = {
        {&one, WORDS("--bogus"),
         "interloper one: unknown option --bogus; see interloper one --help\n"},
        {&one, WORDS("-x"), "interloper one: unknown option -x; see interloper one --help\n"},
        {&one, WORDS("--se", "x"),
         "interloper one: ambiguous option --se (--setup, --seed); see interloper one --help\n"},
        {&one, WORDS("--eve", "x"),
         "interloper one: unknown option --eve; did you mean --events? see interloper one "
         "--help\n"},
        {&one, WORDS("--quiet=1"),
         "interloper one: --quiet takes no value; see interloper one --help\n"},
        {&one, WORDS("--events"),
         "interloper one: --events: expected a value, LIST; see interloper one --help\n"},
        {&one, WORDS("-qn"),
         "interloper one: -qn: one short option a word (-q -n, not -qn); see interloper one "
         "--help\n"},
        {&one, WORDS("--by", "x"),
         "interloper one: --by is not an option of interloper one; see interloper one --help\n"},
        {&one, WORDS("-b", "x"), "interloper one: unknown option -b; see interloper one --help\n"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        assert_int_equal(fails(c[i].cmd, c[i].words, err, sizeof err), 1);
        assert_string_equal(err, c[i].msg);
    }
}

static void
help_and_list(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(fails(&one, WORDS("prog", "--help"), out, sizeof out), 0);
    assert_string_equal(out, ""); /* options end at prog */
    assert_int_equal(fails(&one, WORDS("--help", "--bogus"), out, sizeof out), 0);
    assert_string_equal(out, "usage: interloper one [options] PROG\n"
                             "                      [more]\n"
                             "\n"
                             "Do one thing.\n"
                             "\n"
                             "measurement:\n"
                             "  -e, --events LIST       events to count,\n"
                             "                          comma-separated\n"
                             "      --stack-pin [ADDR]  pin the stack\n"
                             "  -o, --output FILE       where\n"
                             "  -q, --quiet             no summary\n"
                             "  -n, --dry-run           run nothing\n"
                             "design:\n"
                             "      --setup LABEL       the setups\n"
                             "      --seed S            the seed\n"
                             "  -h, --help              this text\n"
                             "\n"
                             "See interloper-one(1).\n");
    assert_int_equal(fails(&two, WORDS("x", "--list-options"), out, sizeof out), 0);
    assert_string_equal(out, "-e --events value LIST\n"
                             "- --stack-pin maybe ADDR\n"
                             "-o --output value FILE\n"
                             "-q --quiet flag -\n"
                             "-n --dry-run flag -\n"
                             "- --setup value LABEL\n"
                             "- --seed value S\n"
                             "-b --by value LABEL\n"
                             "-h --help flag -\n");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_words),
        cmocka_unit_test(permuted),
        cmocka_unit_test(complaints),
        cmocka_unit_test(help_and_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
