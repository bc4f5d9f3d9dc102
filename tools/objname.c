/*
 * objname.c: whether two systems' link orders name the same objects
 * (il_tools.h), for interloper build, which refuses systems whose orders
 * differ, and interloper sweep, which pairs layouts by id across systems.
 *
 * A build whose object directory is named by its flags (zstd 1.5.4's
 * programs/Makefile puts them in obj/conf_<MD5 of the flags>/) links the
 * same objects under another directory in every system (outside13 F1:
 * build said "O2 and O3 linked different objects" in a 5 KB line, of the
 * same 45 objects).  Two names are one object where they have the same
 * number of components and the same last one, and each directory
 * component is the same in both or renamed one to one: conf_2a67... in O2
 * always conf_dc50... in O3, and nothing else either way.  The orders must
 * still agree place by place: interloper link draws them from the names
 * sorted byte by byte, which a renamed directory may reorder.
 */
#include <jansson.h>
#include <string.h>

#include "il_tools.h"

/* The pair of m that has a's component or b's: its index, or m->n. */
static size_t
pair_of(const struct il_dirmap *m, const char *a, size_t la, const char *b, size_t lb)
{
    size_t i = 0;
    while (i < m->n && !(m->p[i].la == la && !memcmp(m->p[i].a, a, la)) &&
           !(m->p[i].lb == lb && !memcmp(m->p[i].b, b, lb)))
        i++;
    return i;
}

static int
same_object(const char *a, const char *b, struct il_dirmap *m)
{
    for (;;) {
        size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
        if (!a[la] || !b[lb]) /* the last component: the object's own name */
            return !a[la] && !b[lb] && !strcmp(a, b);
        size_t i = pair_of(m, a, la, b, lb);
        int same = la == lb && !memcmp(a, b, la);
        if (i < m->n) {
            /* renamed before: so again, and only so */
            if (!(m->p[i].la == la && !memcmp(m->p[i].a, a, la) && m->p[i].lb == lb &&
                  !memcmp(m->p[i].b, b, lb)))
                return 0;
        } else if (!same) {
            m->p = il_xrealloc(m->p, (m->n + 1) * sizeof *m->p);
            m->p[m->n++] = (struct il_dirpair){a, b, la, lb};
        }
        a += la + 1;
        b += lb + 1;
    }
}

int
il_order_renamed(struct json_t *a, struct json_t *b, struct il_dirmap *m, size_t *at)
{
    size_t n = json_array_size(a) > json_array_size(b) ? json_array_size(a) : json_array_size(b);
    for (size_t i = 0; i < n; i++) {
        const char *x = json_string_value(json_array_get(a, i)),
                   *y = json_string_value(json_array_get(b, i));
        if (!x || !y || !same_object(x, y, m)) {
            *at = i;
            return -1;
        }
    }
    return 0;
}
