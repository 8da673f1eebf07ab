/* Grundy kernels in C: the same loops as game/grundy/jit.py (numba), built once per machine by
 * game/grundy/native.py and loaded with ctypes, so a run pays neither numba's nor numpy's
 * import: values live in Python `array` buffers and reach C as bare addresses.
 *
 * Values are as narrow as they fit: this file includes itself (#include "kernels.c") three times, for uint8_t,
 * uint16_t and uint32_t values (functions named *_u8, *_u16, *_u32). A kernel that meets a
 * value too wide for its type stops at that heap, and the caller widens the array (widen()).
 * `seen` is stamped with the heap number instead of cleared, and kept at least twice the
 * largest value so that any XOR of two values, and the mex, fit in it.
 */
#ifndef VALUE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Pairs looked at between two looks at the values still wanted; up to FEW wanted values are
 * compared with each block's XORs, more are stamped. */
#define BLOCK 64
#if defined(__SSSE3__) || defined(__ARM_NEON)
#define FEW 4
#else /* no byte shuffle to reverse the upper heaps' values: stamping is faster */
#define FEW 0
#endif
/* Why rarecommon_extend stopped before `stop`. */
#define DONE 0
#define RARE_FULL 1
#define TOO_WIDE 2
/* Rolling hashes for the period search: modulo 2^31 - 1, so every product fits in 64 bits
 * (the numba build computes the very same numbers). A hash match is always checked with
 * memcmp, so a collision costs a comparison, never a wrong answer. */
#define MOD 2147483647ULL
#define BASE 1000003ULL

typedef struct {
    int64_t *seen;
    int8_t *cls;
    int64_t size;
} table;

static int table_grow(table *t, int64_t needed, int64_t mask) {
    int64_t size = t->size ? t->size : 64;
    while (size <= needed) size *= 2;
    if (size == t->size) return 0;
    int64_t *seen = realloc(t->seen, (size_t)size * sizeof *seen);
    if (!seen) return -1;
    for (int64_t i = t->size; i < size; i++) seen[i] = -1;
    t->seen = seen;
    if (mask >= 0) {
        int8_t *cls = realloc(t->cls, (size_t)size);
        if (!cls) return -1;
        for (int64_t v = t->size; v < size; v++) cls[v] = (int8_t)__builtin_parityll((uint64_t)(v & mask));
        t->cls = cls;
    }
    t->size = size;
    return 0;
}

static void table_free(table *t) {
    free(t->seen);
    free(t->cls);
}

/* x mod 2^31 - 1 without a division (the hash loops do one per heap). */
static inline uint64_t reduce(uint64_t x) {
    x = (x & MOD) + (x >> 31);
    x = (x & MOD) + (x >> 31);
    return x >= MOD ? x - MOD : x;
}

static uint64_t power(uint64_t base, int64_t exponent) {
    uint64_t out = 1;
    base = reduce(base);
    while (exponent > 0) {
        if (exponent & 1) out = reduce(out * base);
        base = reduce(base * base);
        exponent >>= 1;
    }
    return out;
}

/* Copy n values of `from` bytes each into `to`-byte slots (to > from): a wider array. */
void widen(const void *src, int64_t from, void *dst, int64_t to, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        uint32_t v = from == 1 ? ((const uint8_t *)src)[i] : ((const uint16_t *)src)[i];
        if (to == 2) ((uint16_t *)dst)[i] = (uint16_t)v;
        else ((uint32_t *)dst)[i] = v;
    }
}

#define VALUE uint8_t
#define VALUE_MAX 255
#define NAME(f) f##_u8
#include "kernels.c" /* this file again, for the next value type */
#undef VALUE
#undef VALUE_MAX
#undef NAME
#define VALUE uint16_t
#define VALUE_MAX 65535
#define NAME(f) f##_u16
#include "kernels.c" /* this file again, for the next value type */
#undef VALUE
#undef VALUE_MAX
#undef NAME
#define VALUE uint32_t
#define VALUE_MAX 4294967295LL
#define NAME(f) f##_u32
#include "kernels.c" /* this file again, for the next value type */

#else /* the kernels, once per value type */

/* The largest of g[0:stop] and floor. */
int64_t NAME(largest)(const VALUE *g, int64_t stop, int64_t floor) {
    int64_t big = floor;
    for (int64_t n = 0; n < stop; n++)
        if (g[n] > big) big = g[n];
    return big;
}

/* Options of heap n from taking the whole heap or leaving one heap. */
static inline void NAME(single_moves)(const VALUE *g, int64_t *seen, int64_t n,
                                      const int64_t *take_all, int64_t na,
                                      const int64_t *take_one, int64_t n1) {
    for (int64_t i = 0; i < na; i++)
        if (take_all[i] == n) seen[0] = n;
    for (int64_t i = 0; i < n1; i++)
        if (n > take_one[i]) seen[g[n - take_one[i]]] = n;
}

/* Fill g[start:stop] by the mex over every move. Returns the heap reached: stop, or the first
 * heap whose value does not fit in VALUE (not written); -1 when memory ran out. */
int64_t NAME(dense_extend)(VALUE *g, int64_t start, int64_t stop,
                           const int64_t *take_all, int64_t na, const int64_t *take_one,
                           int64_t n1, const int64_t *take_two, int64_t n2) {
    table t = {0};
    if (table_grow(&t, 2 * NAME(largest)(g, start, 0) + 1, -1)) return -1;
    for (int64_t n = start; n < stop; n++) {
        int64_t *seen = t.seen;
        NAME(single_moves)(g, seen, n, take_all, na, take_one, n1);
        for (int64_t i = 0; i < n2; i++) {
            int64_t m = n - take_two[i];
            const VALUE *hi = g + m;
            for (int64_t a = 1; a <= m / 2; a++) seen[g[a] ^ hi[-a]] = n;
        }
        int64_t v = 0;
        while (seen[v] == n) v++;
        if (v > VALUE_MAX) {
            stop = n;
            break;
        }
        g[n] = (VALUE)v;
        if (2 * v + 1 >= t.size && table_grow(&t, 2 * v + 1, -1)) {
            table_free(&t);
            return -1;
        }
    }
    table_free(&t);
    return stop;
}

/* Whether some pair (b, m - b), a <= b <= end, has g[b] ^ g[m - b] == w (hi = g + m). */
static inline int NAME(any_pair)(const VALUE *g, const VALUE *hi, int64_t a, int64_t end,
                                 VALUE w) {
    int hit = 0;
    for (int64_t b = a; b <= end; b++) hit |= (VALUE)(g[b] ^ hi[-b]) == w;
    return hit;
}

/* Fill g[start:stop] by the rare/common method (see game/grundy/jit.py for the argument).
 * io[0] is the rare count, in and out; io[1] says why it stopped (DONE, RARE_FULL: `rare`
 * is full, TOO_WIDE: the value of the heap returned does not fit in VALUE). Returns the heap
 * reached, -1 when memory ran out. */
int64_t NAME(rarecommon_extend)(VALUE *g, int64_t start, int64_t stop,
                                const int64_t *take_all, int64_t na, const int64_t *take_one,
                                int64_t n1, const int64_t *take_two, int64_t n2,
                                int64_t mask, int64_t slope, int64_t offset,
                                int64_t *rare, int64_t rare_size, int64_t *io) {
    table t = {0};
    int64_t nrare = io[0];
    int64_t *want = NULL;
    io[1] = DONE;
    /* As in jit.py: room for every XOR of two values and for the search of a value of the
     * wanted class past them, which may have to step over up to 2 * mask values. */
    if (table_grow(&t, 2 * NAME(largest)(g, start, 2 * mask + 1) + 1, mask)) return -1;
    want = malloc((size_t)t.size * sizeof *want);
    if (!want) goto out_of_memory;
    for (int64_t n = start; n < stop; n++) {
        int64_t *seen = t.seen;
        const int8_t *cls = t.cls;
        int8_t target = (int8_t)((slope * n + offset) & 1);
        NAME(single_moves)(g, seen, n, take_all, na, take_one, n1);
        for (int64_t i = 0; i < n2; i++) {
            int64_t m = n - take_two[i];
            for (int64_t j = 0; j < nrare; j++) {
                int64_t r = rare[j];
                if (r >= m) break;
                seen[g[r] ^ g[m - r]] = n;
            }
        }
        int64_t v = 0;
        while (seen[v] == n || cls[v] != target) v++;
        /* The values below v not yet seen are all of the other class, so they come from
         * pairs of common heaps, if at all: look for them a block of pairs at a time, until
         * none is left. While few are wanted, each block's XORs are compared with each of
         * them (loops the compiler vectorises); while many are, the block is stamped and the
         * wanted list filtered. */
        int64_t nwant = 0;
        for (int64_t u = 0; u < v; u++)
            if (seen[u] != n) want[nwant++] = u;
        for (int64_t i = 0; nwant && i < n2; i++) {
            int64_t m = n - take_two[i];
            const VALUE *hi = g + m;
            for (int64_t a = 1; nwant && a <= m / 2; a += BLOCK) {
                int64_t end = a + BLOCK - 1 < m / 2 ? a + BLOCK - 1 : m / 2;
                if (nwant <= FEW) {
                    for (int64_t j = 0; j < nwant;) {
                        if (NAME(any_pair)(g, hi, a, end, (VALUE)want[j])) want[j] = want[--nwant];
                        else j++;
                    }
                    continue;
                }
                for (int64_t b = a; b <= end; b++) seen[g[b] ^ hi[-b]] = n;
                int64_t kept = 0;
                for (int64_t j = 0; j < nwant; j++)
                    if (seen[want[j]] != n) want[kept++] = want[j];
                nwant = kept;
            }
        }
        /* A value still wanted is no option at all: the least of them is the mex (a rare
         * heap), since every smaller value was seen or found. */
        for (int64_t j = 0; j < nwant; j++)
            if (want[j] < v) v = want[j];
        if (v > VALUE_MAX) {
            io[1] = TOO_WIDE;
            stop = n;
            break;
        }
        g[n] = (VALUE)v;
        if (n >= 1 && cls[v] != target) { /* heap 0 is never part of a split */
            if (nrare == rare_size) {
                io[1] = RARE_FULL;
                stop = n + 1;
                break;
            }
            rare[nrare++] = n;
        }
        if (2 * v + 1 >= t.size) {
            if (table_grow(&t, 2 * v + 1, mask)) goto out_of_memory;
            int64_t *bigger = realloc(want, (size_t)t.size * sizeof *want);
            if (!bigger) goto out_of_memory;
            want = bigger;
        }
    }
    io[0] = nrare;
    free(want);
    table_free(&t);
    return stop;
out_of_memory:
    free(want);
    table_free(&t);
    return -1;
}

/* counts[side * top + v]: how many heaps 1..n-1 of parity `side` have value v (< top). */
void NAME(histogram)(const VALUE *g, int64_t n, int64_t *counts, int64_t top) {
    memset(counts, 0, (size_t)(2 * top) * sizeof *counts);
    for (int64_t h = 1; h < n; h++) counts[(h & 1) * top + g[h]]++;
}

/* The heaps 1..n-1 that are rare under (mask, slope, offset), at most `room` of them into
 * `out`; returns how many there are. */
int64_t NAME(rare_heaps)(const VALUE *g, int64_t n, int64_t mask, int64_t slope,
                         int64_t offset, int64_t *out, int64_t room) {
    int64_t count = 0;
    for (int64_t h = 1; h < n; h++) {
        int common = __builtin_parityll((uint64_t)(g[h] & mask)) == ((slope * h + offset) & 1);
        if (!common) {
            if (count < room) out[count] = h;
            count++;
        }
    }
    return count;
}

/* The smallest period p the Guy-Smith criterion proves from g[0:size] (t = max_take), or 0.
 * p is proven when G(n) = G(n - p) for every n >= size - L, L = ceil((size + t) / 2): the
 * last L values occur again p places earlier. The windows are compared by a rolling hash,
 * each match checked with memcmp; out[0] = least preperiod for p, out[1] = heaps needed. */
int64_t NAME(proven_period)(const VALUE *g, int64_t size, int64_t max_take, int64_t *out) {
    int64_t len = (size + max_take + 1) / 2;
    int64_t s = size - len;
    if (s < 1) return 0;
    uint64_t target = 0, top = power(BASE, len);
    for (int64_t k = len - 1; k >= 0; k--) target = reduce(target * BASE + g[s + k]);
    uint64_t h = target;
    for (int64_t p = 1; p <= s; p++) {
        int64_t w = s - p; /* H(w) = x[w] + B H(w + 1) - x[w + len] B^len */
        h = reduce(h * BASE + g[w] + MOD - reduce((uint64_t)g[w + len] * top));
        if (h != target || memcmp(g + w, g + s, (size_t)len * sizeof *g)) continue;
        int64_t n = s - 1;
        while (n - p >= 0 && g[n] == g[n - p]) n--;
        out[0] = n - p + 1;
        out[1] = 2 * out[0] + 2 * p + max_take;
        return p;
    }
    return 0;
}

/* The period worth computing towards: among the p whose last 2p values repeat (G(n) = G(n-p)
 * for the last p heaps), the one whose proof needs the fewest heaps (out[0]), or 0. Each p is
 * tested by rolling hashes of the last p values and the p before them; once a repeating p
 * is found, the ones up to half its periodic stretch are its multiples (each needing more)
 * or do not repeat, so they are skipped. */
int64_t NAME(promising)(const VALUE *g, int64_t size, int64_t max_take, int64_t *out) {
    int64_t best = 0, best_needed = INT64_MAX, skip = 0;
    if (size < 2) return 0;
    uint64_t a = reduce(g[size - 1]), b = reduce(g[size - 2]), pw = 1; /* pw = B^(p-1) */
    for (int64_t p = 1;; p++) {
        if (a == b && p > skip &&
            !memcmp(g + size - 2 * p, g + size - p, (size_t)p * sizeof *g)) {
            int64_t n = size - p - 1;
            while (n - p >= 0 && g[n] == g[n - p]) n--;
            int64_t z = size - 1 - n;
            int64_t needed = 2 * size - 2 * z + max_take;
            if (needed < best_needed) {
                best = p;
                best_needed = needed;
            }
            skip = (z + p) / 2;
        }
        if (2 * (p + 1) > size) break;
        /* Next p: the last block gains g[size-p-1]; the block before it loses that value and
         * gains g[size-2p-2] and g[size-2p-1]. */
        a = reduce(a * BASE + g[size - p - 1]);
        b = reduce(b + MOD - reduce((uint64_t)g[size - p - 1] * pw));
        b = reduce(reduce(b * BASE) * BASE + (uint64_t)g[size - 2 * p - 1] * BASE
                   + g[size - 2 * p - 2]);
        pw = reduce(pw * BASE);
    }
    out[0] = best_needed;
    return best;
}

#endif
