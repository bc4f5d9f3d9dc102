#include <stdio.h>
#include <string.h>
#include "ltp.h"

static char fmtbuf[64];

void ltp_str_rev(char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n / 2; i++) {
		char t = s[i];
		s[i] = s[n - 1 - i];
		s[n - 1 - i] = t;
	}
}

size_t ltp_str_count(const char *s, char c)
{
	size_t k = 0;
	for (; *s; s++)
		k += *s == c;
	return k;
}

const char *ltp_str_fmt(const char *word, int n)
{
	snprintf(fmtbuf, sizeof fmtbuf, "%s-%d", word, ltp_clamp(n, 0, 999));
	return fmtbuf;
}
