/* Grundy kernels in C: the same three loops as game/grundy/jit.py (numba), built once per
 * machine by game/grundy/native.py and loaded with ctypes, so a run pays neither numba's
 * import nor its first-call set-up (about 0.6 s together, more than the work of most runs).
 *
 * Values are int32; `seen` is stamped with the heap number instead of cleared, and kept at
 * least twice the largest value so that any XOR of two values, and the mex, fit in it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Pairs stamped between two looks at the values still wanted. */
#define BLOCK 64

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

static int32_t largest(const int32_t *g, int64_t stop, int64_t floor) {
    int64_t big = floor;
    for (int64_t n = 0; n < stop; n++)
        if (g[n] > big) big = g[n];
    return (int32_t)big;
}

/* Options of heap n from taking the whole heap or leaving one heap. */
static inline void single_moves(const int32_t *g, int64_t *seen, int64_t n,
                                const int64_t *take_all, int64_t na,
                                const int64_t *take_one, int64_t n1) {
    for (int64_t i = 0; i < na; i++)
        if (take_all[i] == n) seen[0] = n;
    for (int64_t i = 0; i < n1; i++)
        if (n > take_one[i]) seen[g[n - take_one[i]]] = n;
}

/* Fill g[start:stop] by the mex over every move; 0, or -1 when memory ran out. */
int dense_extend(int32_t *g, int64_t start, int64_t stop,
                 const int64_t *take_all, int64_t na, const int64_t *take_one, int64_t n1,
                 const int64_t *take_two, int64_t n2) {
    table t = {0};
    if (table_grow(&t, 2 * (int64_t)largest(g, start, 0) + 1, -1)) return -1;
    for (int64_t n = start; n < stop; n++) {
        int64_t *seen = t.seen;
        single_moves(g, seen, n, take_all, na, take_one, n1);
        for (int64_t i = 0; i < n2; i++) {
            int64_t m = n - take_two[i];
            const int32_t *hi = g + m;
            for (int64_t a = 1; a <= m / 2; a++) seen[g[a] ^ hi[-a]] = n;
        }
        int32_t v = 0;
        while (seen[v] == n) v++;
        g[n] = v;
        if (2 * (int64_t)v + 1 >= t.size && table_grow(&t, 2 * (int64_t)v + 1, -1)) {
            table_free(&t);
            return -1;
        }
    }
    table_free(&t);
    return 0;
}

/* Fill g[start:stop] by the rare/common method (see game/grundy/jit.py for the argument);
 * returns the heap reached (stop, or earlier when `rare` is full), -1 when memory ran out. */
int64_t rarecommon_extend(int32_t *g, int64_t start, int64_t stop,
                          const int64_t *take_all, int64_t na, const int64_t *take_one,
                          int64_t n1, const int64_t *take_two, int64_t n2,
                          int64_t mask, int64_t slope, int64_t offset,
                          int64_t *rare, int64_t rare_size, int64_t *nrare_io) {
    table t = {0};
    int64_t nrare = *nrare_io;
    int64_t *want = NULL;
    /* As in jit.py: room for every XOR of two values and for the search of a value of the
     * wanted class past them, which may have to step over up to 2 * mask values. */
    if (table_grow(&t, 2 * (int64_t)largest(g, start, 2 * mask + 1) + 1, mask)) return -1;
    want = malloc((size_t)t.size * sizeof *want);
    if (!want) goto out_of_memory;
    for (int64_t n = start; n < stop; n++) {
        int64_t *seen = t.seen;
        const int8_t *cls = t.cls;
        int8_t target = (int8_t)((slope * n + offset) & 1);
        single_moves(g, seen, n, take_all, na, take_one, n1);
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
         * pairs of common heaps: stamp pairs a block at a time (no branch per pair) and
         * drop the wanted values a block has found, until none is left. */
        int64_t nwant = 0;
        for (int64_t u = 0; u < v; u++)
            if (seen[u] != n) want[nwant++] = u;
        for (int64_t i = 0; nwant && i < n2; i++) {
            int64_t m = n - take_two[i];
            const int32_t *hi = g + m;
            for (int64_t a = 1; nwant && a <= m / 2; a += BLOCK) {
                int64_t end = a + BLOCK - 1 < m / 2 ? a + BLOCK - 1 : m / 2;
                for (int64_t b = a; b <= end; b++) seen[g[b] ^ hi[-b]] = n;
                int64_t kept = 0;
                for (int64_t j = 0; j < nwant; j++)
                    if (seen[want[j]] != n) want[kept++] = want[j];
                nwant = kept;
            }
        }
        if (nwant) { /* every pair is stamped: the value is rare after all */
            int64_t u = 0;
            while (seen[u] == n) u++;
            v = u;
        }
        g[n] = (int32_t)v;
        if (n >= 1 && cls[v] != target) { /* heap 0 is never part of a split */
            if (nrare == rare_size) {
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
    *nrare_io = nrare;
    free(want);
    table_free(&t);
    return stop;
out_of_memory:
    free(want);
    table_free(&t);
    return -1;
}

/* z[i] = length of the longest common prefix of s and s[i:] (z[0] = n). */
void z_function(const int32_t *s, int64_t n, int64_t *z) {
    if (n == 0) return;
    memset(z, 0, (size_t)n * sizeof *z);
    z[0] = n;
    int64_t left = 0, right = 0;
    for (int64_t i = 1; i < n; i++) {
        if (i < right) z[i] = right - i < z[i - left] ? right - i : z[i - left];
        while (i + z[i] < n && s[z[i]] == s[i + z[i]]) z[i]++;
        if (i + z[i] > right) {
            left = i;
            right = i + z[i];
        }
    }
}
