/* A forwarding oracle that counts the selects of another and the PCSF runs they report,
 * and can switch it to its full search (refine) on a given call: for the experiments and
 * tests that count a solver's projections (gsfw_tools; not installed). */
#ifndef GSFW_COUNTED_DMO_H
#define GSFW_COUNTED_DMO_H

#include "gsfw.h"

typedef struct {
    const gsfw_dmo *inner;          /* borrowed: it must outlive the wrapper */
    int refine_on_call;             /* > 0: call inner->refine once, right before this
                                       select (counted from 1); 0: never */
    int refine_rc;                  /* 0 once inner was refined (by that call, or by the
                                       solver through the wrapper's refine hook); else
                                       what the forced refine returned (-1: not called) */
    long calls, pcsf;               /* selects and their PCSF runs since the last reset */
    long calls_refined, pcsf_refined; /* the same, from the refine on */
} gsfw_counted_dmo;

/* The wrapper of inner, counting into *c (which must outlive it; the wrapper owns
 * nothing). Its reset forwards, zeroes the counts and re-arms refine_on_call. */
gsfw_dmo gsfw_counted_wrap(const gsfw_dmo *inner, gsfw_counted_dmo *c, int refine_on_call);

#endif
