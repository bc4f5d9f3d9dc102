/*
 * out_attrib.c: what --attribute found (attrib.c), as text and as the
 * report JSON's attribution[] (interloper-report(1), "Attribution").
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_report.h"
#include "il_stats.h"

static const char *const state_name[] = {
    [IL_FACT_TESTED] = "tested", [IL_FACT_MISSING] = "missing", [IL_FACT_VARIES] = "varies",
    [IL_FACT_SAME] = "same",     [IL_FACT_EVERY] = "every",     [IL_FACT_EQUIV] = "equivalent",
};

/* Why a fact was not tested, in words. */
static const char *const state_why[] = {
    [IL_FACT_MISSING] = "not in every record",
    [IL_FACT_VARIES] = "varies within a setup (main_sp and heap_start do with ASLR on: "
                       "attribution to them needs ASLR off)",
    [IL_FACT_SAME] = "the same in every setup",
    [IL_FACT_EVERY] = "a class of its own for every setup: cannot be told from the setups "
                      "themselves",
};

static void
pval(char *buf, size_t n, double p)
{
    snprintf(buf, n, p < 0.001 ? "%.4f" : "%.3f", p);
}

/* The facts equivalent to fact i (refine 0), the named refinements of it
 * (1), the named facts that overlap it and explain less (2) or as much (3),
 * after a heading; nothing when there are none. */
static void
related(FILE *fp, const struct il_attr *A, size_t i, int refine, const char *sub, const char *head)
{
    size_t n = 0;
    for (size_t j = 0; j < A->nfact; j++) {
        const struct il_fact *g = &A->f[j];
        int is = refine >= 2 ? g->named && g->overlaps == (long)i && g->alternative == (refine == 3)
                 : refine    ? g->named && g->refines == (long)i
                             : g->state == IL_FACT_EQUIV && g->equiv == i;
        if (!is)
            continue;
        if (!n++)
            fprintf(fp, "%s%s: %s", sub, head, g->name);
        else
            fprintf(fp, ", %s", g->name);
    }
    if (n)
        fputc('\n', fp);
}

static void
attr_text(FILE *fp, const struct il_report *r, const struct il_attr *A, int md)
{
    const char *in = md ? "  - " : "    ", *sub = md ? "    - " : "      ";
    fprintf(fp, "%s%s: %zu setups, %zu %s (%zu blocks", md ? "- " : "  ", A->name, A->setups,
            A->passes, A->blocked ? (il_pl(A->passes, "pass", "passes")) : "(no passes)",
            A->blocks);
    if (A->left_out)
        fprintf(fp, "; %zu runs without the other system in their block left out", A->left_out);
    fprintf(fp, "); %zu of %zu facts tested\n", A->tested, A->nfact);
    if (A->why) {
        fprintf(fp, "%snot tested: %s\n", in, A->why);
    } else if (!A->named) {
        const struct il_fact *best = NULL;
        for (size_t i = 0; i < A->nfact; i++)
            if (A->f[i].state == IL_FACT_TESTED && (!best || A->f[i].p < best->p))
                best = &A->f[i];
        char p[32];
        pval(p, sizeof p, best->p);
        fprintf(fp,
                "%snothing recorded explains the setups' differences (the smallest adjusted p "
                "is %s, %s's)\n",
                in, p, best->name);
    }
    for (size_t i = 0; i < A->nfact; i++) {
        const struct il_fact *f = &A->f[i];
        if (!f->named || f->refines >= 0 || f->overlaps >= 0)
            continue;
        char p[32], pn[32], ps[32];
        pval(p, sizeof p, f->p);
        pval(pn, sizeof pn, f->p_noise);
        pval(ps, sizeof ps, f->p_setups);
        fprintf(fp,
                "%sexplained by %s: p %s (beyond noise %s, beyond the setups' own differences "
                "%s), %.0f%% of the setups' variance between its %zu classes\n",
                in, f->name, p, pn, ps, 100 * f->r2, f->nclass);
        fprintf(fp, "%s%s:", sub, A->cmp ? "ratio by class" : "relative level by class");
        for (size_t q = 0; q < f->nclass && q < 16; q++)
            fprintf(fp, " %s %.4g (%zu)%s", f->cname[q], f->cratio[q], f->csetups[q],
                    q + 1 < f->nclass && q < 15 ? "," : "");
        fprintf(fp, "%s\n", f->nclass > 16 ? " ..." : "");
        related(fp, A, i, 0, sub, "the same classes (the records cannot tell them apart)");
        related(fp, A, i, 1, sub, "finer, named too (they refine it)");
        related(fp, A, i, 3, sub,
                "or, as well (the records cannot tell them apart: more layouts or setups "
                "would)");
        related(fp, A, i, 2, sub, "associated too, but explaining less and nothing beyond it");
    }
    /* the facts not tested, by reason */
    for (int st = IL_FACT_MISSING; st <= IL_FACT_EVERY; st++) {
        size_t n = 0;
        for (size_t i = 0; i < A->nfact; i++)
            if (A->f[i].state == st)
                fprintf(fp, "%s%s", n++ ? ", " : in, A->f[i].name);
        if (n)
            fprintf(fp, ": %s\n", state_why[st]);
    }
    if (!r->d.norders)
        fprintf(fp,
                "%slink positions: no plan line names the layouts' link orders (interloper "
                "sweep with --layouts writes them)\n",
                in);
}

void
il_attr_text(FILE *fp, const struct il_report *r, int md)
{
    if (!r->o->attribute)
        return;
    fprintf(fp, md ? "\n**attribution**: which recorded fact the setups' differences follow\n\n"
                   : "\nattribution: which recorded fact the setups' differences follow\n");
    for (size_t u = 0; u < r->nattr; u++)
        attr_text(fp, r, &r->attr[u], md);
    fprintf(fp,
            "%sp: adjusted over all the facts tested (%d exchanges); an association, to be "
            "confirmed by intervening (for the stack: interloper sweep --stack-pin both)\n",
            md ? "\n" : "  ", IL_ATTR_P);
}

static json_t *
jreal(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *
fact_json(const struct il_attr *A, const struct il_fact *f)
{
    json_t *o = json_object();
    json_object_set_new(o, IL_R_FACT, json_string(f->name));
    json_object_set_new(o, IL_R_STATE, json_string(state_name[f->state]));
    json_object_set_new(o, "classes", json_integer((json_int_t)f->nclass));
    json_object_set_new(o, "same_as",
                        f->state == IL_FACT_EQUIV ? json_string(A->f[f->equiv].name) : json_null());
    int t = f->state == IL_FACT_TESTED;
    json_object_set_new(o, IL_R_P, t ? jreal(f->p) : json_null());
    json_object_set_new(o, "p_noise", t ? jreal(f->p_noise) : json_null());
    json_object_set_new(o, "p_setups", t ? jreal(f->p_setups) : json_null());
    json_object_set_new(o, "f_noise", t ? jreal(f->f_noise) : json_null());
    json_object_set_new(o, "f_setups", t ? jreal(f->f_setups) : json_null());
    json_object_set_new(o, "share", t ? jreal(f->r2) : json_null());
    json_object_set_new(o, IL_R_NAMED, json_boolean(t && f->named));
    json_object_set_new(o, "refines",
                        f->refines >= 0 ? json_string(A->f[f->refines].name) : json_null());
    json_object_set_new(o, "overlaps",
                        f->overlaps >= 0 ? json_string(A->f[f->overlaps].name) : json_null());
    json_object_set_new(o, "p_beyond", jreal(f->p_beyond));
    json_object_set_new(o, "alternative", json_boolean(f->alternative));
    json_t *c = json_array();
    for (size_t q = 0; t && q < f->nclass; q++)
        json_array_append_new(c,
                              json_pack("{s:s,s:o,s:I}", "value", f->cname[q], "ratio",
                                        jreal(f->cratio[q]), "setups", (json_int_t)f->csetups[q]));
    json_object_set_new(o, "by_class", t ? c : (json_decref(c), json_null()));
    return o;
}

json_t *
il_attr_json(const struct il_report *r)
{
    json_t *a = json_array();
    for (size_t u = 0; u < r->nattr; u++) {
        const struct il_attr *A = &r->attr[u];
        json_t *o = json_object(), *ex = json_array(), *fs = json_array();
        json_object_set_new(o, IL_R_NAME, json_string(A->name));
        json_object_set_new(o, "of", json_string(A->cmp ? "log ratio" : "log estimate"));
        json_object_set_new(o, "setups", json_integer((json_int_t)A->setups));
        json_object_set_new(o, "passes",
                            A->blocked ? json_integer((json_int_t)A->passes) : json_null());
        json_object_set_new(o, "blocks", json_integer((json_int_t)A->blocks));
        json_object_set_new(o, "runs_left_out", json_integer((json_int_t)A->left_out));
        json_object_set_new(o, "exchanges", json_integer((json_int_t)A->P));
        json_object_set_new(o, "exchange",
                            json_pack("{s:s,s:s}", "noise",
                                      A->cmp ? "the two systems within each (setup, pass) block"
                                             : "the setups' blocks within each pass",
                                      "setups", "the setups among the facts' classes"));
        json_object_set_new(o, IL_R_WHY, A->why ? json_string(A->why) : json_null());
        for (size_t i = 0; i < A->nfact; i++) {
            const struct il_fact *f = &A->f[i];
            if (f->named && f->refines < 0 && (f->overlaps < 0 || f->alternative))
                json_array_append_new(ex, json_string(f->name));
            json_array_append_new(fs, fact_json(A, f));
        }
        json_object_set_new(o, IL_R_EXPLAINED_BY, ex);
        json_object_set_new(o, "link_orders", json_boolean(r->d.norders > 0));
        json_object_set_new(o, IL_R_FACTS, fs);
        json_array_append_new(a, o);
    }
    return a;
}
