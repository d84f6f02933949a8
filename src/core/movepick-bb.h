/* movepick-bb.h -- the bitboard move counter of movepick.c, written once
 * for two word types: included there with BB_T (uint64_t for N <= 5,
 * core_bits for N <= 7), BB_(name) (the names of that copy), BB_LINES (how
 * growths are counted: 1 by struct core_lines, for N <= 5, else by struct
 * core_runs) and BB_POPCNT (1: the copy for processors with a popcount
 * instruction, built with it; then BB_TABLES names the tables of the other
 * copy) defined.  It undefines BB_T, BB_, BB_TABLES and BB_LINES at its
 * end, so the next copy defines its own.
 *
 * Two layouts: forward, cell c at bit c, and reversed, cell c at bit
 * ncells - 1 - c.  Directions 0, 1, 2 go up the cell numbers, 3, 4, 5 down,
 * so each ray goes up in one of the layouts, and the nearest stack on it
 * is the lowest set bit there: x & -x finds it with no branch and no bit
 * scan, and (x & -x) - 1 is the cells before it (every bit if none).
 */

#if !BB_POPCNT
struct BB_(tables) {
	/* Cells seen from c on an empty board: d < 3 forward, else reversed. */
	BB_T ray[sizeof(BB_T) * 8][CORE_DIRECTIONS];
	BB_T far[2][CORE_BB_MAX_SIZE + 1];         /* [layout][m]: dist >= m */
};

static void BB_(tables_build)(struct BB_(tables) *b, const struct core_geom *g)
{
	int n = g->ncells;

	memset(b, 0, sizeof(*b));
	for (int c = 0; c < n; c++) {
		for (int d = 0; d < CORE_DIRECTIONS; d++) {
			const int16_t *ray = g->ray_cells + g->ray_start[c][d];
			for (int t; (t = *ray++) >= 0;)
				b->ray[c][d] |= (BB_T)1 << (d < 3 ? t :
							    n - 1 - t);
		}
		for (int m = 0; m <= g->dist[c]; m++) {
			b->far[0][m] |= (BB_T)1 << c;
			b->far[1][m] |= (BB_T)1 << (n - 1 - c);
		}
	}
}

#define BB_TABLES BB_(tables)
#endif

static inline BB_ATTR int BB_(count2)(BB_T a, BB_T b)
{
#if BB_POPCNT
	return __builtin_popcountll((uint64_t)a) +
	       __builtin_popcountll((uint64_t)((core_bits)a >> 64)) +
	       __builtin_popcountll((uint64_t)b) +
	       __builtin_popcountll((uint64_t)((core_bits)b >> 64));
#else
	return core_bits_count2((core_bits)a, (core_bits)b);
#endif
}

static inline BB_ATTR int BB_(lowest)(BB_T v)
{
	if (sizeof(BB_T) == sizeof(uint64_t))
		return __builtin_ctzll((uint64_t)v);
	return core_bits_lowest((core_bits)v);
}

/* The empty cells seen from c, forward and reversed, and (if the
 * pointers are not NULL) the first stack on each ray, forward (rays 0, 1,
 * 2) and reversed (3, 4, 5). */
static inline __attribute__((always_inline)) BB_ATTR
void BB_(seen)(const struct BB_TABLES *b, int c, BB_T occ, BB_T occ_rev,
	       BB_T *fwd_r, BB_T *rev_r, BB_T *block_fwd_r, BB_T *block_rev_r)
{
	const BB_T *ray = b->ray[c];

	if (sizeof(BB_T) > sizeof(uint64_t)) {
		/* Two words by hand: as 128-bit values, six rays need more
		 * registers than there are and the compiler spills them. */
		uint64_t olo = (uint64_t)occ, ohi = (uint64_t)((core_bits)occ >> 64);
		uint64_t rlo = (uint64_t)occ_rev;
		uint64_t rhi = (uint64_t)((core_bits)occ_rev >> 64);
		uint64_t f0 = 0, f1 = 0, r0 = 0, r1 = 0;
		uint64_t bf0 = 0, bf1 = 0, br0 = 0, br1 = 0;
/* The low word first: a stack there hides the whole high word. */
#define BB_RAY2(d, o0, o1, s0, s1, b0, b1) do { \
	uint64_t w0_ = (uint64_t)ray[d]; \
	uint64_t w1_ = (uint64_t)((core_bits)ray[d] >> 64); \
	uint64_t l0_ = w0_ & (o0), l1_ = w1_ & (o1); \
	l0_ &= -l0_; \
	uint64_t open_ = (uint64_t)(l0_ != 0) - 1; \
	l1_ &= -l1_; \
	l1_ &= open_; \
	s0 |= w0_ & (l0_ - 1); \
	s1 |= w1_ & (l1_ - 1) & open_; \
	b0 |= l0_; \
	b1 |= l1_; \
} while (0)
		BB_RAY2(0, olo, ohi, f0, f1, bf0, bf1);
		BB_RAY2(1, olo, ohi, f0, f1, bf0, bf1);
		BB_RAY2(2, olo, ohi, f0, f1, bf0, bf1);
		BB_RAY2(3, rlo, rhi, r0, r1, br0, br1);
		BB_RAY2(4, rlo, rhi, r0, r1, br0, br1);
		BB_RAY2(5, rlo, rhi, r0, r1, br0, br1);
#undef BB_RAY2
		*fwd_r = (BB_T)((core_bits)f1 << 64 | f0);
		*rev_r = (BB_T)((core_bits)r1 << 64 | r0);
		if (block_fwd_r != NULL) {
			*block_fwd_r = (BB_T)((core_bits)bf1 << 64 | bf0);
			*block_rev_r = (BB_T)((core_bits)br1 << 64 | br0);
		}
		return;
	}
	/* Spelt out: the compiler does not unroll this at -O2. */
	BB_T l0 = ray[0] & occ, l1 = ray[1] & occ, l2 = ray[2] & occ;
	BB_T l3 = ray[3] & occ_rev, l4 = ray[4] & occ_rev;
	BB_T l5 = ray[5] & occ_rev;

	l0 &= -l0;
	l1 &= -l1;
	l2 &= -l2;
	l3 &= -l3;
	l4 &= -l4;
	l5 &= -l5;
	*fwd_r = (ray[0] & (l0 - 1)) | (ray[1] & (l1 - 1)) |
		(ray[2] & (l2 - 1));
	*rev_r = (ray[3] & (l3 - 1)) | (ray[4] & (l4 - 1)) |
		(ray[5] & (l5 - 1));
	if (block_fwd_r != NULL) {
		*block_fwd_r = l0 | l1 | l2;
		*block_rev_r = l3 | l4 | l5;
	}
}

/* Moves of the stack of size s onto the stack on cell c that ends one of
 * its rays; m: the least distance a whole-stack move of it may reach. */
static inline __attribute__((always_inline)) BB_ATTR
size_t BB_(blocker)(const struct core_geom *g, const int32_t *st, int c,
		    int32_t s, int m, int32_t sign, int32_t tax)
{
	int32_t t = st[c] * sign, at = t < 0 ? -t : t;
	/* A split lands k >= at; onto the opponent's, k > tax too.  As
	 * selects, not branches: which way they go is a coin toss. */
	int32_t least = at > tax + 1 ? at : tax + 1;
	int32_t lo = t > 0 ? at : least;

	return (size_t)((at <= s) & (g->dist[c] >= m)) +
		(size_t)(s > lo ? s - lo : 0);
}


/* The count of core_legal_moves() in pos (quiet: of the quiet ones only),
 * and the moves of each source in t_r.  Growth sources and stacks in two
 * loops, so that no branch guesses which kind the next source is. */
static BB_ATTR
size_t BB_(count)(const struct core_position *pos, const struct BB_TABLES *b,
		  struct core_pick_state *ps, struct tally *t_r, bool quiet)
{
	const struct core_geom *g = pos->geom;
	const int32_t *st = pos->stack;
	int me = pos->to_move, n = g->ncells;
	int32_t sign = core_sign(me), tax = pos->tax[me];
	int max_growth_ds = g->radius - 1 - tax;
	size_t total = core_swap_available(pos) ? 1 : 0;
	size_t *counts = t_r != NULL ? t_r->count : NULL;
	core_bits occ_wide = (core_bits)ps->occ[1] << 64 | ps->occ[0];
	core_bits own_wide = (core_bits)ps->white[1] << 64 | ps->white[0];

	if (me != CORE_WHITE)
		own_wide = occ_wide & ~own_wide;
	BB_T occ = (BB_T)occ_wide, own = (BB_T)own_wide, grow = 0;
	BB_T occ_rev = (BB_T)(core_bits_reverse(occ_wide) >> (128 - n));
	if (max_growth_ds >= 0)
		grow = ~occ & ~b->far[0][max_growth_ds + 1] & b->far[0][0];
#if BB_LINES == 1
	/* By line: see struct core_lines.  The sum over each line is tabled
	 * too, so the count needs no source by source; locate() works out
	 * the growths of the sources it passes from the lines' rows (kept in
	 * t_r->packs). */
	const struct core_lines *ln = core_lines_get(g);
	if (grow != 0) {
		const uint16_t *sum = ln->total[tax];
		const uint64_t *pack = ln->pack[tax];
		for (int l = 0; l < ln->nlines; l++) {
			uint32_t row = core_line_row(&ln->line[l],
						     (uint64_t)occ);
			total += sum[row];
			if (t_r != NULL)
				t_r->packs[l] = pack[row];
		}
	}
#else
	/* By runs along lines, kept line by line in ps: see
	 * growth_lines(). */
	const struct core_runs *ru = core_runs_get(g);
	const uint32_t *pat = ps->pat;
	if (t_r != NULL) {
		t_r->gcell = NULL;
		memset(t_r->rows, 0, sizeof(t_r->rows));
	}
	if (grow != 0)
		total += ps->kept ?
			growth_lines(ps, ru, max_growth_ds, tax, t_r) :
			growth_direct(ps, ru, max_growth_ds, tax, t_r);
#endif
#if BB_LINES == 2
	/* Stacks by line too: along each of its three lines a stack sees
	 * up to the next stack either side.  All moves, in a state kept
	 * across moves: from what it keeps of each line. */
	bool memo = !quiet && ps->kept;
	if (memo) {
		stack_lines(ps, pos, ru);
		for (BB_T src = own; src != 0; src &= src - 1) {
			int from = BB_(lowest)(src);
			size_t k = stack_moves(ps, ru, from,
					       st[from] * sign, tax);
			total += k;
			if (counts != NULL) {
				counts[from] = k;
				t_r->rows[ru->lid[from][1] - ru->orient0] += k;
			}
		}
	}
	for (BB_T src = memo ? 0 : own; src != 0; src &= src - 1) {
		int from = BB_(lowest)(src), ds = g->dist[from];
		int32_t s = st[from] * sign;
		int m = quiet_least(ds, s, quiet);
		size_t nsplit = split_count(s, tax + 1), k = 0;
		for (int o = 0; o < 3; o++) {
			int l = ru->lid[from][o], i = ru->lpos[from][o];
			int len = ru->len[l];
			uint32_t p = pat[l];
			/* Empty places lo .. i-1 and i+1 .. hi-1 are seen. */
			int hi = i + 1 +
				__builtin_ctz((p | 1u << len) >> (i + 1));
			int lo = 31 - __builtin_clz((p << 1 | 1) &
						   ((1u << (i + 1)) - 1));
			const uint8_t *far = ru->far + ru->base[l] + m;
			const int w = CORE_BB_MAX_SIZE + 1;
			k += (size_t)(far[hi * w] - far[(i + 1) * w] +
				      far[i * w] - far[lo * w]) +
				(size_t)(hi - lo - 1) * nsplit;
			/* The stacks at places lo - 1 and hi, if any: the
			 * line's ends have stand-in cells, counted and
			 * then dropped, so no branch. */
			size_t kb = BB_(blocker)(g, st, ru->cellx[l][lo], s, m,
						 sign, tax);
			size_t ka = BB_(blocker)(g, st, ru->cellx[l][hi + 1], s,
						 m, sign, tax);
			k += ((kb & -(size_t)(lo > 0)) +
			      (ka & -(size_t)(hi < len))) & -(size_t)!quiet;
		}
		total += k;
		if (counts != NULL) {
			counts[from] = k;
			t_r->rows[ru->lid[from][1] - ru->orient0] += k;
		}
	}
	(void)occ_rev;
	(void)n;
#else
	for (BB_T src = own; src != 0; src &= src - 1) {
		int from = BB_(lowest)(src), ds = g->dist[from];
		int32_t s = st[from] * sign;
		int m = quiet_least(ds, s, quiet);
		BB_T fwd, rev, bf, br;
		BB_(seen)(b, from, occ, occ_rev, &fwd, &rev, &bf, &br);
		size_t k = (size_t)BB_(count2)(fwd & b->far[0][m],
					       rev & b->far[1][m]) +
			(size_t)BB_(count2)(fwd, rev) *
			split_count(s, tax + 1);
		if (quiet)
			bf = br = 0;
		for (; bf != 0; bf &= bf - 1)
			k += BB_(blocker)(g, st, BB_(lowest)(bf), s, m, sign,
					  tax);
		for (; br != 0; br &= br - 1)
			k += BB_(blocker)(g, st, n - 1 - BB_(lowest)(br), s, m,
					  sign, tax);
		total += k;
		if (counts != NULL)
			counts[from] = k;
	}
#endif
	if (t_r != NULL) {
		t_r->src = (core_bits)(grow | own);
		t_r->occ = occ_wide;
	}
	return total;
}

#undef BB_T
#undef BB_
#undef BB_TABLES
#undef BB_LINES
