/* movepick-kept.h -- what a core_pick_state kept across the moves of a
 * playout holds for N = 6 and 7, and how the counter of movepick-bb.h
 * uses it: each line's growths (one copy a tax) and each line's stacks,
 * worked out again only for the lines a move changed (state_cell() marks
 * them).  At N = 7 a move changes at most 6 of 39 lines, so a random
 * playout's count costs about half of working every line out afresh.
 * Included once by movepick.c (it needs struct tally); a state used for
 * one call only (kept false) is counted without keeping anything.
 */

/* Line l's growths for the side with tax `tax` (sources at distance <= ds)
 * and the line's stacks p, place by place into row[], run by run of
 * empty cells: each cell of a run sees the run, and the prefix sums give
 * how many of it are far enough out.  Returns their sum. */
static unsigned growth_line(const struct core_runs *ru, int l, uint32_t p,
			    int ds, int32_t tax, uint8_t *row)
{
	const int w = CORE_BB_MAX_SIZE + 1;
	uint32_t stop = p | 1u << ru->len[l];
	uint32_t e = ~p & ru->inner[l][ds];
	const uint8_t *need = ru->need[l];
	const uint8_t *far = ru->far + ru->base[l] + tax;
	unsigned total = 0;

	memset(row, 0, 16);
	while (e != 0) {
		/* Sources lo .. to-1 in the run start .. hi-1. */
		int lo = __builtin_ctz(e);
		int hi = __builtin_ctz(stop >> lo) + lo;
		int to = __builtin_ctz(~(e >> lo)) + lo;
		int start = 31 - __builtin_clz((p << 1 | 1) &
					      ((2u << lo) - 1));
		const uint8_t *flo = far + start * w;
		const uint8_t *fhi = far + hi * w;
		for (int i = lo; i < to; i++) {
			unsigned k = (unsigned)(fhi[need[i]] - flo[need[i]]);
			row[i] = (uint8_t)k;
			total += k;
		}
		e &= ~0u << to;
	}
	return total;
}

/* The stacks of line l (N = 6, 7), each one's moves along it as far as
 * they do not depend on the tax (see stack_moves()), into ps.  A split
 * onto the opponent's stack of size at needs a part above both at and
 * the tax: s - max(at, tax + 1) of them, that is min(s - at, s - 1 - tax),
 * so d = s - at is kept for each. */
static void stack_line(struct core_pick_state *ps,
		       const struct core_position *pos,
		       const struct core_runs *ru, int l)
{
	const struct core_geom *g = pos->geom;
	const int32_t *st = pos->stack;
	const int w = CORE_BB_MAX_SIZE + 1;
	uint32_t p = ps->pat[l];
	int len = ru->len[l];

	for (uint32_t x = p; x != 0; x &= x - 1) {
		int i = __builtin_ctz(x), c = ru->cell[l][i];
		int32_t v = st[c], s = v < 0 ? -v : v;
		int ds = g->dist[c], m = ds - s + 1 > 0 ? ds - s + 1 : 0;
		/* Empty places lo .. i-1 and i+1 .. hi-1 are seen. */
		int hi = i + 1 + __builtin_ctz((p | 1u << len) >> (i + 1));
		int lo = 31 - __builtin_clz((p << 1 | 1) &
					   ((1u << (i + 1)) - 1));
		const uint8_t *far = ru->far + ru->base[l] + m;
		struct core_pick_stack *k = &ps->stacks[l][i];
		int ends[2] = { lo > 0 ? ru->cellx[l][lo] : -1,
				hi < len ? ru->cellx[l][hi + 1] : -1 };

		k->whole = (uint32_t)(far[hi * w] - far[(i + 1) * w] +
				      far[i * w] - far[lo * w]);
		k->empty = (uint8_t)(hi - lo - 1);
		for (int e = 0; e < 2; e++) {
			int b = ends[e];
			int32_t t, at;
			k->d[e] = INT32_MIN; /* none: adds nothing */
			if (b < 0)
				continue;
			t = v < 0 ? -st[b] : st[b];
			at = t < 0 ? -t : t;
			k->whole += (uint32_t)((at <= s) & (g->dist[b] >= m));
			if (t > 0)
				k->whole += (uint32_t)(s > at ? s - at : 0);
			else
				k->d[e] = s - at;
		}
	}
}

/* The moves of the stack of size s on cell c for a mover with tax `tax`
 * (N = 6, 7), from what stack_line() kept of its three lines. */
static inline size_t stack_moves(const struct core_pick_state *ps,
				 const struct core_runs *ru, int c, int32_t s,
				 int32_t tax)
{
	int32_t sp = s - 1 - tax;        /* splits onto an empty cell */
	size_t splits = sp > 0 ? (size_t)sp : 0, k = 0;

	for (int o = 0; o < 3; o++) {
		const struct core_pick_stack *x =
			&ps->stacks[ru->lid[c][o]][ru->lpos[c][o]];
		int32_t d0 = x->d[0] < sp ? x->d[0] : sp;
		int32_t d1 = x->d[1] < sp ? x->d[1] : sp;
		k += x->whole + x->empty * splits +
			(size_t)(d0 > 0 ? d0 : 0) + (size_t)(d1 > 0 ? d1 : 0);
	}
	return k;
}

/* Bring the stacks of the lines a move changed up to date (N = 6, 7). */
static inline void stack_lines(struct core_pick_state *ps,
			       const struct core_position *pos,
			       const struct core_runs *ru)
{
	for (uint64_t x = ps->sdirty; x != 0; x &= x - 1)
		stack_line(ps, pos, ru, __builtin_ctzll(x));
	ps->sdirty = 0;
}

/* growth_lines() for a state used once (not kept): the same, with
 * nothing kept. */
static size_t growth_direct(const struct core_pick_state *ps,
			    const struct core_runs *ru, int ds, int32_t tax,
			    struct tally *t_r)
{
	size_t total = 0;

	if (t_r != NULL)
		memset(t_r->gown, 0, sizeof(t_r->gown));
	for (int l = 0; l < ru->nlines; l++) {
		uint8_t row[16];
		total += growth_line(ru, l, ps->pat[l], ds, tax, row);
		if (t_r == NULL)
			continue;
		for (int i = 0; i < ru->len[l]; i++) {
			t_r->gown[ru->cell[l][i]] += row[i];
			t_r->rows[ru->row[l][i]] += row[i];
		}
	}
	if (t_r != NULL)
		t_r->gcell = t_r->gown;
	return total;
}

/* The growths of the side to move (N = 6, 7), line by line: kept in ps
 * for the stacks of each line and the mover's tax, so only the lines the
 * moves since changed are worked out again.  Growths depend on the tax,
 * not on the side, so both sides share a tax's copy, and a tax rising
 * (a third of the moves of a random game) finds the copy the other side
 * left at that tax.  t_r->gcell gets each cell's growths. */
static size_t growth_lines(struct core_pick_state *ps,
			   const struct core_runs *ru, int ds, int32_t tax,
			   struct tally *t_r)
{
	struct core_pick_growths *gr = &ps->growths[tax];

	if (!(ps->gvalid & 1u << tax)) {
		memset(gr, 0, sizeof(*gr));
		gr->dirty = ~UINT64_C(0) >> (64 - ru->nlines);
		ps->gvalid |= (uint8_t)(1u << tax);
	}
	for (uint64_t x = gr->dirty; x != 0; x &= x - 1) {
		int l = __builtin_ctzll(x);
		uint8_t row[16], *old = gr->line[l];
		uint64_t w[2], o[2];
		unsigned sum = growth_line(ru, l, ps->pat[l], ds, tax, row);

		gr->total += sum - gr->sum[l];
		gr->sum[l] = (uint16_t)sum;
		/* Each cell's sum over its three lines, and each row's,
		 * follow: only at the places that changed. */
		memcpy(w, row, sizeof(w));
		memcpy(o, old, sizeof(o));
		for (int h = 0; h < 2; h++) {
			for (uint64_t d = w[h] ^ o[h]; d != 0;) {
				int i = h * 8 + __builtin_ctzll(d) / 8;
				uint8_t delta = (uint8_t)(row[i] - old[i]);
				gr->cell[ru->cell[l][i]] += delta;
				gr->rows[ru->row[l][i]] += (uint16_t)(int8_t)delta;
				d &= ~(UINT64_C(0xff) << (i % 8 * 8));
			}
		}
		memcpy(old, row, sizeof(row));
	}
	gr->dirty = 0;
	if (t_r != NULL) {
		t_r->gcell = gr->cell;
		for (int j = 0; j < ru->orient1 - ru->orient0; j++)
			t_r->rows[j] += gr->rows[j];
	}
	return gr->total;
}
