/* mcts.c -- Monte Carlo tree search (UCT) over the rules core, with a
 * light solver: a position with a move that wins at once is proven won,
 * one whose every move is proven lost is proven lost, so short forced
 * wins are found exactly instead of estimated.
 *
 * The tree keeps no positions (one is ~2 KB): each iteration replays the
 * moves from the root.  Nodes live in one array that grows by doubling up
 * to a bound set by the playout bound (and AI_MAX_NODES); a full tree
 * stops growing and keeps sampling from its leaves.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai-int.h"

/* Most nodes a tree may hold (~56 MB); a search bounded by time alone
 * stops growing its tree here. */
#define AI_MAX_NODES (1L << 20)
/* Deepest path an iteration walks down the tree. */
#define MCTS_MAX_DEPTH 1024
/* Iterations between two looks at the clock. */
#define MCTS_CLOCK_EVERY 16
/* Visits a move a node needs before the search tries its moves that pay
 * tax (see struct mcts_node). */
#define MCTS_TAX_VISITS 4

struct mcts_node {
	struct core_move move;  /* the move that led here */
	int32_t first_child;    /* -1: none; siblings chain by next_sibling */
	int32_t next_sibling;
	int32_t nmoves;         /* legal moves here; -1 until first reached */
	int32_t nchildren;
	/* Untried moves come in a random order kept in two words: step k
	 * of it is move number (offset + k * stride) % nmoves of the
	 * generator.  The order is walked twice (cursor 0 .. 2 nmoves - 1):
	 * first for the moves that pay no tax, then for those that do, so
	 * the search looks at the likely moves first.  The second walk waits
	 * until the node has MCTS_TAX_VISITS visits a move, unless no move
	 * is free of tax: a move that pays tax is rarely the best. */
	uint32_t offset, stride, cursor;
	uint8_t mover;          /* the colour that played move */
	uint8_t to_move;        /* the side to move here */
	uint8_t proven;         /* enum core_result; CORE_ONGOING: not known */
	long visits;
	double wins;            /* sum of rewards for mover */
};

struct mcts_tree {
	struct mcts_node *nodes;
	long n, cap, max;
	const struct ai_search *search;
	struct ai_rng *rng;
	struct ai_scratch *scratch;
};

/* A new node (the array may move: callers hold indices, not pointers);
 * -1 when the tree is at its bound or memory ran out. */
static int32_t mcts_new(struct mcts_tree *t)
{
	struct mcts_node *nd;

	if (t->n >= t->max)
		return -1;
	if (t->n == t->cap) {
		long cap = t->cap * 2 < t->max ? t->cap * 2 : t->max;
		struct mcts_node *nodes = realloc(t->nodes,
						  (size_t)cap * sizeof(*nodes));

		if (nodes == NULL)
			return -1;
		t->nodes = nodes;
		t->cap = cap;
	}
	nd = &t->nodes[t->n];
	memset(nd, 0, sizeof(*nd));
	nd->first_child = nd->next_sibling = -1;
	nd->nmoves = -1;
	return (int32_t)t->n++;
}

/* Hang a new child with `move` (played by `mover`) under parent; its
 * index or -1. */
static int32_t mcts_add_child(struct mcts_tree *t, int32_t parent,
			      const struct core_move *move, int mover)
{
	int32_t c = mcts_new(t);

	if (c < 0)
		return -1;
	t->nodes[c].move = *move;
	t->nodes[c].mover = (uint8_t)mover;
	t->nodes[c].next_sibling = t->nodes[parent].first_child;
	t->nodes[parent].first_child = c;
	t->nodes[parent].nchildren++;
	return c;
}

/* First reach of node i, whose position is pos: count its moves, fix the
 * order to try them in, and prove it if the game is over or a move wins
 * at once. */
static void mcts_init(struct mcts_tree *t, int32_t i,
		      const struct core_position *pos)
{
	struct mcts_node *nd = &t->nodes[i];
	struct core_move win;
	size_t n;

	nd->to_move = pos->to_move;
	nd->nmoves = 0;
	if (pos->result != CORE_ONGOING) {
		nd->proven = pos->result;
		return;
	}
	n = core_legal_moves_from(pos, 0, NULL, 0);
	if (n == 0) {
		nd->proven = CORE_RESULT_DRAW; /* cannot happen after a move */
		return;
	}
	nd->nmoves = n > INT32_MAX ? INT32_MAX : (int32_t)n;
	nd->offset = (uint32_t)ai_rng_below(t->rng, (size_t)nd->nmoves);
	nd->stride = 1 + (uint32_t)ai_rng_below(t->rng, (size_t)nd->nmoves);
	while (ai_gcd(nd->stride, (size_t)nd->nmoves) != 1)
		nd->stride = nd->stride % (uint32_t)nd->nmoves + 1;
	if (ai_winning_move(pos, t->scratch, &win)) {
		int32_t c = mcts_add_child(t, i, &win, pos->to_move);

		nd = &t->nodes[i];
		if (c >= 0) {
			t->nodes[c].proven = ai_win_of(pos->to_move);
			t->nodes[c].to_move = pos->to_move ^ 1;
			t->nodes[c].nmoves = 0;
		}
		nd->proven = ai_win_of(pos->to_move);
	}
}

/* The next untried move of nd, by the order of its cursor: true and
 * *move_r, or false if the moves left pay tax and it is too soon for
 * them. */
static bool mcts_next_untried(struct mcts_node *nd,
			      const struct core_position *pos,
			      struct core_move *move_r)
{
	uint64_t n = (uint64_t)nd->nmoves;

	while (nd->cursor < 2 * n) {
		if (nd->cursor == n && nd->nchildren > 0 &&
		    nd->visits < MCTS_TAX_VISITS * nd->nmoves)
			return false;
		uint64_t k = nd->cursor++;
		bool second = k >= n;
		uint64_t r = (nd->offset + (k % n) * nd->stride) % n;

		core_legal_moves_from(pos, (size_t)r, move_r, 1);
		if (core_move_quiet(pos, move_r) != second)
			return true;
	}
	return false;
}

/* Re-examine node i after a child of it was proven: proven won if a child
 * wins for the side to move, proven when every move is proven (the best
 * of them for the side to move). */
static void mcts_prove(struct mcts_tree *t, int32_t i)
{
	struct mcts_node *nd = &t->nodes[i];
	enum core_result mine = ai_win_of(nd->to_move);
	enum core_result best = ai_win_of(nd->to_move ^ 1);
	bool all = nd->nchildren == nd->nmoves;
	int32_t c;

	if (nd->proven != CORE_ONGOING)
		return;
	for (c = nd->first_child; c >= 0; c = t->nodes[c].next_sibling) {
		uint8_t p = t->nodes[c].proven;

		if (p == mine) {
			nd->proven = mine;
			return;
		}
		if (p == CORE_ONGOING)
			all = false;
		else if (p == CORE_RESULT_DRAW)
			best = CORE_RESULT_DRAW;
	}
	if (all)
		nd->proven = best;
}

/* ln x for x >= 1, and the square root of x >= 0, to far better than
 * the exploration term needs: no libm, so that whatever links the search
 * needs nothing but libc and the core. */
static double mcts_ln(double x)
{
	double y, y2;
	int e = 0;

	while (x >= 2.0) {
		x *= 0.5;
		e++;
	}
	/* x in [1, 2): ln x = 2 atanh((x - 1) / (x + 1)), |y| < 1/3. */
	y = (x - 1.0) / (x + 1.0);
	y2 = y * y;
	return e * 0.69314718055994531 +
		2.0 * y * (1.0 + y2 * (1.0 / 3 + y2 * (1.0 / 5 + y2 *
		(1.0 / 7 + y2 * (1.0 / 9 + y2 / 11)))));
}

static double mcts_sqrt(double x)
{
	double r = 1.0;
	int k;

	if (x <= 0.0)
		return 0.0;
	while (r * r < x)
		r *= 2.0;
	while (r * r > 4.0 * x)
		r *= 0.5;
	/* Newton's steps from within a factor of 2 of the root. */
	for (k = 0; k < 6; k++)
		r = 0.5 * (r + x / r);
	return r;
}

/* The child of i to walk down to, by UCT; a child proven lost for the
 * side to move only if there is nothing else. */
static int32_t mcts_select(const struct mcts_tree *t, int32_t i)
{
	const struct mcts_node *nd = &t->nodes[i];
	enum core_result lost = ai_win_of(nd->to_move ^ 1);
	double logn = mcts_ln((double)(nd->visits > 0 ? nd->visits : 1));
	double best = -1.0;
	int32_t c, pick = nd->first_child;

	for (c = nd->first_child; c >= 0; c = t->nodes[c].next_sibling) {
		const struct mcts_node *ch = &t->nodes[c];
		double q, u;

		if (ch->proven == lost)
			continue;
		if (ch->visits == 0)
			return c;
		q = ch->proven == CORE_RESULT_DRAW ? 0.5 :
			ch->wins / (double)ch->visits;
		u = q + t->search->explore *
			mcts_sqrt(logn / (double)ch->visits);
		if (u > best) {
			best = u;
			pick = c;
		}
	}
	return pick;
}

/* One iteration: down the tree from the root, one new node, a playout,
 * and the result back up. */
static void mcts_iterate(struct mcts_tree *t, const struct core_position *root)
{
	struct core_position pos;
	int32_t path[MCTS_MAX_DEPTH];
	enum core_result result;
	int d = 0, k;
	int32_t i = 0;

	memcpy(&pos, root, sizeof(pos));
	path[d++] = 0;
	for (;;) {
		struct mcts_node *nd = &t->nodes[i];

		if (nd->proven != CORE_ONGOING) {
			result = (enum core_result)nd->proven;
			break;
		}
		if (nd->nchildren < nd->nmoves && d < MCTS_MAX_DEPTH &&
		    t->n + 2 <= t->max) {
			struct core_move m;
			int32_t c;

			if (!mcts_next_untried(nd, &pos, &m))
				goto select;
			c = mcts_add_child(t, i, &m, pos.to_move);
			if (c < 0) {
				result = ai_playout(&pos, t->search->policy,
						    t->rng, t->scratch);
				break;
			}
			core_play_unchecked(&pos, &m, NULL);
			mcts_init(t, c, &pos);
			path[d++] = c;
			if (t->nodes[c].proven != CORE_ONGOING)
				result = (enum core_result)t->nodes[c].proven;
			else
				result = ai_playout(&pos, t->search->policy,
						    t->rng, t->scratch);
			break;
		}
select:
		if (nd->nchildren == 0 || d >= MCTS_MAX_DEPTH) {
			/* The tree is full here: sample from the leaf. */
			result = ai_playout(&pos, t->search->policy, t->rng,
					    t->scratch);
			break;
		}
		i = mcts_select(t, i);
		core_play_unchecked(&pos, &t->nodes[i].move, NULL);
		path[d++] = i;
	}
	for (k = d - 1; k >= 0; k--) {
		struct mcts_node *nd = &t->nodes[path[k]];

		nd->visits++;
		nd->wins += ai_reward(result, nd->mover);
	}
	/* A proof travels up as far as it changes something. */
	for (k = d - 2; k >= 0; k--) {
		if (t->nodes[path[k + 1]].proven == CORE_ONGOING)
			break;
		mcts_prove(t, path[k]);
	}
}

static int64_t mcts_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One root child as the ranking sees it. */
struct mcts_rank {
	int kind;     /* 2 proven won, 1 open, 0 proven lost */
	long visits;
	double value; /* for the side to move at the root */
	int32_t node;
};

/* Best first: a proven win, then the most visited, then the best mean, a
 * proven loss last; equal ones in tree order, so the order is fixed. */
static int mcts_rank_cmp(const void *pa, const void *pb)
{
	const struct mcts_rank *a = pa, *b = pb;

	if (a->kind != b->kind)
		return b->kind - a->kind;
	if (a->visits != b->visits)
		return a->visits > b->visits ? -1 : 1;
	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* The value a candidate shows: exact when proven. */
static double mcts_value(const struct mcts_node *nd)
{
	if (nd->proven != CORE_ONGOING)
		return ai_reward((enum core_result)nd->proven, nd->mover);
	return nd->visits > 0 ? nd->wins / (double)nd->visits : 0.5;
}

int ai_mcts(const struct core_position *pos, const struct ai_search *search,
	    struct ai_rng *rng, struct core_move *move_r,
	    struct ai_candidate *top, size_t top_cap, size_t *ntop_r,
	    long *playouts_r, double *value_r, enum core_error *err_r)
{
	struct mcts_tree t = { .search = search, .rng = rng };
	enum core_result win = ai_win_of(pos->to_move);
	enum core_result loss = ai_win_of(pos->to_move ^ 1);
	int64_t deadline = search->time_ms > 0 ?
		mcts_now_ms() + search->time_ms : 0;
	struct mcts_rank *ranks = NULL;
	long iter = 0;
	size_t nranks = 0, k;
	int32_t c;
	int rc = -1;

	t.max = search->max_playouts < (AI_MAX_NODES - 1) / 2 ?
		2 * search->max_playouts + 1 : AI_MAX_NODES;
	t.cap = t.max < 4096 ? t.max : 4096;
	t.nodes = malloc((size_t)t.cap * sizeof(*t.nodes));
	t.scratch = malloc(sizeof(*t.scratch));
	if (t.nodes == NULL || t.scratch == NULL || mcts_new(&t) != 0) {
		*err_r = CORE_ERR_NO_MEMORY;
		goto out;
	}
	t.nodes[0].mover = pos->to_move ^ 1;
	mcts_init(&t, 0, pos);
	while (iter < search->max_playouts &&
	       t.nodes[0].proven == CORE_ONGOING) {
		mcts_iterate(&t, pos);
		iter++;
		if (deadline != 0 && iter % MCTS_CLOCK_EVERY == 0 &&
		    iter >= search->min_playouts && mcts_now_ms() >= deadline)
			break;
	}
	ranks = malloc(((size_t)t.nodes[0].nchildren + 1) * sizeof(*ranks));
	if (ranks == NULL) {
		*err_r = CORE_ERR_NO_MEMORY;
		goto out;
	}
	for (c = t.nodes[0].first_child; c >= 0; c = t.nodes[c].next_sibling) {
		const struct mcts_node *nd = &t.nodes[c];
		struct mcts_rank *r = &ranks[nranks++];

		r->kind = nd->proven == win ? 2 : nd->proven == loss ? 0 : 1;
		r->visits = nd->visits;
		r->value = mcts_value(nd);
		r->node = c;
	}
	qsort(ranks, nranks, sizeof(*ranks), mcts_rank_cmp);
	for (k = 0; k < nranks && k < top_cap; k++) {
		top[k].move = t.nodes[ranks[k].node].move;
		top[k].visits = ranks[k].visits;
		top[k].value = ranks[k].value;
	}
	if (nranks > 0) {
		*move_r = t.nodes[ranks[0].node].move;
	} else {
		/* No iteration ran (a bound of 0): any legal move. */
		core_legal_moves_from(pos, 0, move_r, 1);
	}
	if (ntop_r != NULL)
		*ntop_r = nranks < top_cap ? nranks : top_cap;
	if (playouts_r != NULL)
		*playouts_r = iter;
	/* The root's wins are its mover's, the side that moved into pos. */
	if (value_r != NULL)
		*value_r = t.nodes[0].proven != CORE_ONGOING ?
			ai_reward((enum core_result)t.nodes[0].proven,
				  pos->to_move) :
			t.nodes[0].visits > 0 ?
			1.0 - t.nodes[0].wins / (double)t.nodes[0].visits : 0.5;
	rc = 0;
out:
	free(ranks);
	free(t.nodes);
	free(t.scratch);
	return rc;
}
