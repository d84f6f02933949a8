/* site.h -- a club's game pages (`ashes site DIR`): the static HTML of
 * an index (every game, the standings, the ratings) and of one page per
 * game (players, clocks, the move list, the notes, the board after every
 * ply), and those boards as SVG files, from facts the caller gathered
 * (from the store and the service), worded by templates/site/ (*.html).
 *
 * No I/O here: the caller writes each page and picture under the names
 * site_*_name() give, relative to the site's folder.  Every link between
 * them is relative and nothing is fetched from elsewhere, so the site
 * opens from the file system in a browser.  A board is shown one at a
 * time by plain links to anchors (#ply-K, CSS :target), with a few lines
 * of script for the arrow keys.
 */
#ifndef ASHES_RENDER_SITE_H
#define ASHES_RENDER_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/template.h"
#include "util/buf.h"

/* The file that marks a folder as a site made by `ashes site` (which
 * rewrites only such a folder, or an empty one), and the index. */
#define SITE_MARKER ".ashes-site"
#define SITE_INDEX "index.html"
/* Where `ashes archive export` is asked to put a game's archive in the
 * site's folder: SITE_ARCHIVE_DIR "/game-N.tar.gz". */
#define SITE_ARCHIVE_DIR "archive"

/* The names, relative to the site's folder, of a game's page
 * ("game-12.html"), the folder of its boards ("game-12"), its board
 * after ply ("game-12/ply-7.svg"; 0: before the first move) and its
 * archive ("archive/game-12.tar.gz"), into buf (len bytes). */
void site_page_name(int64_t game, char *buf, size_t len);
void site_board_dir_name(int64_t game, char *buf, size_t len);
void site_board_name(int64_t game, size_t ply, char *buf, size_t len);
void site_archive_name(int64_t game, char *buf, size_t len);

/* One stored ply. */
struct site_ply {
	const char *move;   /* canonical text: "c3-e5", "swap", "pass" */
	const char *player; /* who played it; NULL for a forced pass */
	int64_t at;
};

/* A note one player sent the other. */
struct site_note {
	int ply;            /* plies the game had when it was sent */
	const char *from;
	const char *text;
	int64_t at;
};

/* What changed a clock other than a move (store_clock.h's events). */
struct site_clock_event {
	int64_t at;
	const char *kind;   /* "adjust", "vacation", "flag", ... */
	const char *player; /* whose clock, or NULL */
	int64_t seconds;    /* added (negative: taken), or 0 */
	const char *note;   /* or NULL */
};

/* One game as the store keeps it.  Strings are borrowed; NULL where the
 * store has nothing. */
struct site_game {
	int64_t id;
	const char *white, *black; /* NULL: not known yet (open challenge) */
	const char *challenger;
	bool swapped;              /* Black used the swap */
	const char *status;        /* store_game_status_name() */
	const char *variant;       /* the stored text: "size=5 tax=removed" */
	int ply;                   /* plies played (the index shows it) */
	const char *result;        /* "1-0", "0-1", "1/2-1/2" */
	const char *end_reason;    /* core_end_reason_name()'s words */
	int64_t created, updated;
	bool ended;                /* updated is when it ended */
	/* Its competition: a ladder, or a league's season and group. */
	const char *ladder;
	const char *league;
	int season, group;
	/* The clock: the time control (NULL: none), each side's seconds
	 * left (the side to move's at the start of its turn), the side to
	 * move (0 white, 1 black) and when its turn began (0: not
	 * started). */
	const char *clock;
	int64_t clock_white, clock_black;
	int clock_side;
	int64_t clock_turn_started;
	/* The game page only (the index needs none of these). */
	const struct site_ply *plies;
	size_t nplies;
	const struct site_note *notes;
	size_t nnotes;
	/* The notes held back (none shown, whatever notes holds): until
	 * the game is over, or for good (the club's [site] notes). */
	bool notes_later, notes_never;
	const struct site_clock_event *clock_events;
	size_t nclock_events;
	bool archived; /* site_archive_name() is in the site's folder */
	/* The full fingerprint of the club's key, which signs its archives
	 * (for the command that checks one), or NULL when not known. */
	const char *club_key;
};

/* A competition's standings as the service words them for the operator
 * (server_ladder_show(), server_league_show()). */
struct site_standing {
	const char *kind; /* "ladder" or "league" */
	const char *name;
	const char *text;
};

/* One round of an event: its pairings as the operator's commands show
 * them (server/tournament_log.h's table). */
struct site_event_round {
	int round;
	const char *pairings;
};

/* An event ([tournament NAME]): its rounds, crosstable and standings as
 * tables of text made by the caller from the event's replayed log. */
struct site_event {
	const char *name;     /* [a-z0-9_-], 1-32 bytes: also its page's */
	const char *format;   /* "swiss", "roundrobin", "knockout" */
	size_t entrants;
	int paired;           /* rounds paired */
	bool ended;
	const struct site_event_round *rounds; /* round 1 first */
	size_t nrounds;
	const char *crosstable;
	const char *standings;
};

struct site_index {
	const struct site_game *games; /* in the order listed: newest first */
	size_t ngames;
	const struct site_standing *standings;
	size_t nstandings;
	const char *ratings; /* server_ratings_show()'s text, or NULL */
	const struct site_event *events; /* linked from the index */
	size_t nevents;
};

/* The name of an event's page ("event-NAME.html") into buf. */
void site_event_page_name(const char *name, char *buf, size_t len);

/* The page of event ev (templates/site/event.html) into out.  -1 with
 * *error_r, as site_index_html. */
int site_event_html(struct template_set *set, const struct site_event *ev,
		    int64_t made, struct buf *out, const char **error_r);

/* The index page (templates/site/index.html) into out; made: when the
 * site was made.  -1 with *error_r (the template's, valid until the next
 * call on set). */
int site_index_html(struct template_set *set, const struct site_index *idx,
		    int64_t made, struct buf *out, const char **error_r);

/* The page of game g (templates/site/game.html) into out: the boards it
 * shows are those site_game_boards() draws.  Same errors. */
int site_game_html(struct template_set *set, const struct site_game *g,
		   int64_t made, struct buf *out, const char **error_r);

/* Called with each board of a game: 0, or -1 with *error_r (the
 * caller's, handed on) to stop. */
typedef int site_board_fn(void *arg, size_t ply, const struct buf *svg,
			  const char **error_r);

/* Replay g's plies from the start of its variant and draw the board
 * before the first ply and after each one (render_picture_svg() with
 * set's picture.txt, the ply marked), the last one with the game's end
 * when its row says it ended by resignation, agreement or time; each
 * handed to put in ply order.  -1 with *error_r for a variant or a ply
 * that does not replay (a sentence naming it, valid until the next call
 * in this thread), a template error or put's. */
int site_game_boards(struct template_set *set, const struct site_game *g,
		     site_board_fn *put, void *arg, const char **error_r);

#endif
