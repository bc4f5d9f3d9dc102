/*
 * il_csv.h: one CSV field as RFC 4180 writes it (common/csv.c), for every
 * CSV interloper writes: interloper report --csv and interloper record csv.
 */
#ifndef IL_CSV_H
#define IL_CSV_H

#include <stdio.h>

/* s as it is, or in double quotes with its quotes doubled when it holds a
 * comma, a quote or a line break */
void il_csv_field(FILE *fp, const char *s);

#endif
