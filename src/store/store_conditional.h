/* store_conditional.h -- what the store keeps of conditional moves
 * (sql/013): each player's tree for a game, set by one signed mail, its
 * lines, and the plies played from a tree.  The service decides what a
 * tree holds and when it applies (server/conditional.c); the store keeps
 * the rows as given.  Conventions as store.h: 0 / -1 with *error_r, 1
 * for "found" where a row may be missing. */
#ifndef ASHES_STORE_CONDITIONAL_H
#define ASHES_STORE_CONDITIONAL_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* One line of a tree: the canonical moves from the tree's base ply on,
 * apart by one blank (THEIRS MINE [THEIRS MINE]...). */
struct store_cond_line {
	int seq;
	char *moves;
};

/* A player's tree in a game. */
struct store_cond_tree {
	int64_t game_id;
	int64_t player_id;
	int64_t inbound_id;  /* the mail that set it */
	char sha256[65];     /* of that mail's signed part, or "" */
	int64_t received;    /* when the mailbox received that mail */
	int base_ply;        /* the plies the game had then */
	int played;          /* replies played from it so far */
	struct store_cond_line *lines; /* by seq */
	size_t nlines;
};
/* Free what a tree owns (it may be zeroed). */
void store_cond_tree_clear(struct store_cond_tree *t);

/* Player player_id's tree in game_id into *t_r (clear it after): 1, or 0
 * when there is none (t_r zeroed). */
int store_cond_tree_get(struct store *store, int64_t game_id,
			int64_t player_id, struct store_cond_tree *t_r,
			const char **error_r);
/* Every tree of game_id, by player (free each with store_cond_tree_clear
 * and the array with free()). */
int store_cond_trees(struct store *store, int64_t game_id,
		     struct store_cond_tree **trees_r, size_t *count_r,
		     const char **error_r);
/* A new, empty tree of t's game and player from t's mail, receipt and
 * base ply (played 0), replacing the one there with its lines. */
int store_cond_tree_set(struct store *store, const struct store_cond_tree *t,
			const char **error_r);
/* Add a line (seq: one past the tree's last).  -1 with
 * STORE_ERROR_USAGE when there is no such tree. */
int store_cond_line_add(struct store *store, int64_t game_id,
			int64_t player_id, const char *moves,
			const char **error_r);
/* Remove line seq of a tree. */
int store_cond_line_delete(struct store *store, int64_t game_id,
			   int64_t player_id, int seq, const char **error_r);
/* The tree moved down: `played` replies are played from it now. */
int store_cond_tree_played(struct store *store, int64_t game_id,
			   int64_t player_id, int played,
			   const char **error_r);
/* Remove player_id's tree of game_id (0: every tree of the game): 1 one
 * went, 0 there was none. */
int store_cond_tree_delete(struct store *store, int64_t game_id,
			   int64_t player_id, const char **error_r);

/* A ply played from a tree. */
struct store_cond_ply {
	int ply;
	int base_ply; /* the tree's */
};
/* Record that ply `ply` of game_id (stored) came from a tree set after
 * base_ply plies. */
int store_cond_ply_add(struct store *store, int64_t game_id, int ply,
		       int base_ply, const char **error_r);
/* game_id's conditional plies, by ply; free() *plies_r. */
int store_cond_plies(struct store *store, int64_t game_id,
		     struct store_cond_ply **plies_r, size_t *count_r,
		     const char **error_r);

#endif
