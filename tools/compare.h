/*
 * compare.h: interloper compare (compare.c), a sweep of two or more
 * commands planned, run and summarised for the user: its commands made
 * systems (compare_systems.c) and its exports (compare_export.c).
 */
#ifndef IL_COMPARE_H
#define IL_COMPARE_H

#include "sweep.h"

#define IL_COMPARE_ME "interloper compare"
/* the system of the shell alone, whose time is subtracted */
#define IL_COMPARE_SHELL "shell"

struct il_compare {
    char **cmd; /* the commands as given */
    size_t ncmd;
    const char **names; /* --name, in order */
    size_t nnames;
    const char **name; /* each command's system name */
    char **path;       /* programs: the path each runs as */
    char **padded;     /* shell commands: each padded to one length */
    char *links;       /* the links' directory, or NULL */
    const char *shell; /* the shell of shell commands; NULL: programs */
    int shell_mode;
};

/* Are these commands programs, each one word naming an executable file? */
int il_compare_programs(struct il_compare *c);
/* a command with one of these is a shell command, not a program's name */
#define IL_SHELL_CHARS " \t\n;|&<>()$`\\\"'*?[]{}~="

/* The systems' names: --name, else what tells the commands apart. */
void il_compare_names(struct il_compare *c);
/* The programs' paths of one length (links when needed; 1 if made). */
int il_compare_paths(struct il_compare *c);
void il_compare_links_remove(struct il_compare *c);
/* The shell line that makes the links again (-n), or NULL without links. */
char *il_compare_links_line(const struct il_compare *c);
/* Shell commands padded to one length. */
void il_compare_pad(struct il_compare *c);

/* --export-json, --export-markdown, --export-csv (NULL: not asked) */
struct il_export {
    const char *json, *markdown, *csv;
};
#define IL_COMPARE_SCHEMA "interloper-compare/1"
void il_compare_export(const struct il_export *x, const struct il_sweep *s, json_t *report,
                       const struct il_ending *e);

#endif
