#ifndef IDBUDGET_CMPFR_SHIM_H
#define IDBUDGET_CMPFR_SHIM_H
// stdio and stdint first: gmp.h and mpfr.h declare their FILE*/intmax_t functions only if these are in.
#include <stdio.h>
#include <stdint.h>
#include <gmp.h>
#include <mpfr.h>

// Macros Swift cannot import, as functions.
static inline int idb_mpz_sgn(const mpz_t z) { return mpz_sgn(z); }
static inline int idb_mpfr_sgn(const mpfr_t x) { return mpfr_sgn(x); }
static inline mpfr_prec_t idb_mpfr_get_prec(const mpfr_t x) { return mpfr_get_prec(x); }
static inline mpfr_exp_t idb_mpfr_get_exp(const mpfr_t x) { return mpfr_get_exp(x); }

#endif
