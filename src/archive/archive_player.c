/* archive_player.c -- a player's export as JSON; see archive_player.h. */
#include <config.h>

#include "archive/archive_player.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mail/pgp.h"
#include "store/store.h"
#include "util/json.h"

/* What the rows of one section write to. */
struct export_ctx {
	struct json_writer *w;
	struct store *store;
	struct pgp_ctx *pgp;
	const char *one;   /* the section is one object, under this key */
	size_t rows;
	const char *error; /* a nested section's failure */
};

static void export_cells(struct json_writer *w,
			 const struct store_account_cell *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct store_account_cell *c = &cells[i];

		switch (c->type) {
		case STORE_CELL_INT:
			json_int(w, c->name, c->i);
			break;
		case STORE_CELL_REAL:
			json_real(w, c->name, c->r);
			break;
		case STORE_CELL_TEXT:
			json_string_len(w, c->name, c->text, c->len);
			break;
		case STORE_CELL_NULL:
			json_null(w, c->name);
			break;
		}
	}
}

/* A cell by name, or NULL. */
static const struct store_account_cell *
export_cell(const struct store_account_cell *cells, size_t n,
	    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(cells[i].name, name) == 0)
			return &cells[i];
	return NULL;
}

/* A plain row: its columns. */
static int export_row(void *vctx, const struct store_account_cell *cells,
		      size_t n)
{
	struct export_ctx *x = vctx;

	if (x->one != NULL && x->rows > 0)
		return 0; /* one row at most, by the key */
	x->rows++;
	json_object_begin(x->w, x->one);
	export_cells(x->w, cells, n);
	json_object_end(x->w);
	return 0;
}

/* A key's row: its columns and its armour from the keyring. */
static int export_key_row(void *vctx, const struct store_account_cell *cells,
			  size_t n)
{
	struct export_ctx *x = vctx;
	const struct store_account_cell *f = export_cell(cells, n,
							 "fingerprint");
	struct buf armored = BUF_INIT;
	const char *e;

	x->rows++;
	json_object_begin(x->w, NULL);
	export_cells(x->w, cells, n);
	if (x->pgp != NULL && f != NULL && f->type == STORE_CELL_TEXT) {
		const char *fprs[2] = { f->text, NULL };

		if (pgp_export_keys(x->pgp, fprs, true, &armored, &e) == 0 &&
		    armored.len > 0)
			json_string_len(x->w, "armored", armored.data,
					armored.len);
		else
			json_null(x->w, "armored");
	} else {
		json_null(x->w, "armored");
	}
	buf_free(&armored);
	json_object_end(x->w);
	return 0;
}

/* A game's row: its columns and its moves. */
static int export_game_row(void *vctx,
			   const struct store_account_cell *cells, size_t n)
{
	struct export_ctx *x = vctx;
	const struct store_account_cell *id = export_cell(cells, n, "id");
	struct export_ctx moves = *x;
	int ret = 0;

	x->rows++;
	json_object_begin(x->w, NULL);
	export_cells(x->w, cells, n);
	json_array_begin(x->w, "moves");
	moves.one = NULL;
	moves.rows = 0;
	if (id != NULL && id->type == STORE_CELL_INT &&
	    store_account_rows(x->store, STORE_ACCOUNT_MOVES, id->i,
			       export_row, &moves, &x->error) < 0)
		ret = -1;
	json_array_end(x->w);
	json_object_end(x->w);
	return ret;
}

/* The sections written as one object (or null), not a list. */
static bool export_one(enum store_account_section s)
{
	return s == STORE_ACCOUNT_PLAYER || s == STORE_ACCOUNT_SETTINGS ||
	       s == STORE_ACCOUNT_RATING || s == STORE_ACCOUNT_VACATION_BANK;
}

/* Section s of player pid under its name.  0 or -1. */
static int export_section(struct export_ctx *x, enum store_account_section s,
			  int64_t pid, const char **error_r)
{
	int (*row)(void *, const struct store_account_cell *, size_t) =
		s == STORE_ACCOUNT_KEYS ? export_key_row :
		s == STORE_ACCOUNT_GAMES ? export_game_row : export_row;
	const char *name = store_account_section_name(s);
	int ret;

	x->one = export_one(s) ? name : NULL;
	x->rows = 0;
	x->error = NULL;
	if (x->one == NULL)
		json_array_begin(x->w, name);
	ret = store_account_rows(x->store, s, pid, row, x, error_r);
	if (ret < 0 && x->error != NULL)
		*error_r = x->error; /* a game's moves failed */
	if (x->one == NULL)
		json_array_end(x->w);
	else if (ret == 0 && x->rows == 0)
		json_null(x->w, name);
	return ret;
}

int archive_player_export(struct store *store, struct pgp_ctx *pgp,
			  int64_t player_id, const char *site, int64_t now,
			  struct buf *json, const char **error_r)
{
	struct json_writer w;
	struct export_ctx x;
	struct buf doc = BUF_INIT;
	struct store_player *p = NULL;
	int found, ret = -1;

	memset(&x, 0, sizeof(x));
	x.w = &w;
	x.store = store;
	x.pgp = pgp;
	/* No transaction: BEGIN takes the write lock, and the keyring is
	 * slow.  A move that lands between two sections shows in the later
	 * one only; the next day's export has it everywhere. */
	found = store_player_load(store, player_id, &p, error_r);
	store_player_free(&p);
	if (found < 0)
		return -1;
	if (found == 0) {
		*error_r = "no such player";
		return -1;
	}
	json_init(&w, &doc);
	json_object_begin(&w, NULL);
	json_int(&w, "schema", ARCHIVE_PLAYER_SCHEMA);
	json_string(&w, "club", site);
	json_int(&w, "exported_at", now);
	for (int s = 0; s < STORE_ACCOUNT_SECTIONS; s++) {
		if (s == STORE_ACCOUNT_MOVES)
			continue; /* within each game */
		if (export_section(&x, (enum store_account_section)s,
				   player_id, error_r) < 0)
			goto out;
	}
	json_object_end(&w);
	if (json_end(&w) < 0) {
		*error_r = "the export is not a whole JSON document";
		goto out;
	}
	buf_append(json, doc.data, doc.len);
	ret = 0;
out:
	buf_free(&doc);
	return ret;
}
