/* load_fill.c -- the load bench's (bench/e2e-load.sh) database and mails:
 * fills an ashesd database with players, finished and in-progress games
 * through the store API (the rows the daemon itself writes), then plans
 * the next moves of the in-progress games and writes each as a PGP/MIME
 * mail signed by the player to move (pgp_mime_sign, two signing processes
 * at once), ready to be handed to Postfix.
 *
 * usage: load_fill DB GNUPGHOME PLAYERS OUTDIR ACTIVE FINISHED MOVES PHASES
 *   PLAYERS: a file of "name address fingerprint" lines (keys in GNUPGHOME)
 *   writes OUTDIR/PHASE/NNNNN.eml (PHASE 0..PHASES-1, MOVES mails each)
 *   and OUTDIR/plan: "phase index game ply player message-id" lines.
 * Deterministic: the same arguments give the same games and moves (the
 * signatures and Date headers differ).  Within a phase no two moves are
 * in the same game (ACTIVE >= MOVES), so any delivery order is legal. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "mail/pgp.h"
#include "store/store.h"
#include "util/buf.h"

#define MAX_PLAYERS 256
#define FINISHED_PLIES 12
#define ACTIVE_PLIES 16
#define COMMIT_EVERY 5000

struct player {
	char name[64], address[128], fpr[PGP_FPR_MAX + 1];
	int64_t id;
};

struct planned {
	int64_t game;
	int ply;
	int player;
	char move[CORE_MOVE_TEXT_MAX];
};

static struct player players[MAX_PLAYERS];
static int nplayers;
static int64_t now;
static uint64_t rng = 88172645463325252ULL;

static void die(const char *what, const char *error)
{
	fprintf(stderr, "load_fill: %s: %s\n", what, error ? error : "?");
	exit(1);
}

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void read_players(struct store *st, const char *path)
{
	FILE *f = fopen(path, "r");
	const char *error;

	if (f == NULL)
		die(path, "cannot open");
	while (nplayers < MAX_PLAYERS) {
		struct player *p = &players[nplayers];

		if (fscanf(f, "%63s %127s %64s", p->name, p->address, p->fpr) != 3)
			break;
		if (store_player_add(st, p->name, p->address, p->fpr, now, &p->id,
				     &error) != 0)
			die("adding a player", error);
		nplayers++;
	}
	fclose(f);
	if (nplayers < 2)
		die(path, "fewer than two players");
}

/* Play up to `plies` random legal plies and store them (forced passes
 * with no player, as the service stores them). */
static void play_random(struct store *st, int64_t id, int64_t white_id,
			int64_t black_id, struct core_record *rec, int plies)
{
	struct core_move moves[1024];
	char text[CORE_MOVE_TEXT_MAX];
	enum core_error err;
	const char *error;

	for (int p = 0; p < plies && rec->pos.result == CORE_ONGOING; p++) {
		size_t n = core_legal_moves(&rec->pos, moves, 1024);
		size_t before = rec->nplies;
		int64_t who = rec->pos.to_move == CORE_WHITE ? white_id : black_id;

		if (n == 0)
			break;
		if (n > 1024)
			n = 1024;
		if (record_play(rec, &moves[next_random() % n], &err) < 0)
			die("playing", core_error_name(err));
		for (size_t k = before; k < rec->nplies; k++)
			if (store_move_append(st, id, (int)k + 1,
					      notation_format_move(rec->pos.geom,
								   &rec->plies[k], text),
					      k == before ? who : 0, now, 0,
					      &error) != 0)
				die("appending a move", error);
	}
}

/* `count` games, player i%n against another; finished ones are resigned
 * after FINISHED_PLIES, active ones keep their record in recs. */
static void add_games(struct store *st, int count, bool finished,
		      struct core_record *recs, int64_t *ids, int *white,
		      int *black)
{
	struct core_variant v;
	char vtext[64];
	const char *error;
	enum core_error err;

	core_variant_default(&v);
	notation_format_variant(&v, vtext, sizeof(vtext));
	for (int i = 0; i < count; i++) {
		int w = i % nplayers, b = (w + 1 + i / nplayers) % nplayers;
		struct store_game row;
		struct core_record rec;
		int64_t id;

		if (b == w)
			b = (b + 1) % nplayers;
		if (i > 0 && i % COMMIT_EVERY == 0 &&
		    (store_commit(st, &error) < 0 || store_begin(st, &error) < 0))
			die("commit", error);
		memset(&row, 0, sizeof(row));
		row.variant = vtext;
		row.challenger_id = players[w].id;
		row.white_id = players[w].id;
		row.black_id = players[b].id;
		row.status = STORE_GAME_ACTIVE;
		if (store_game_create(st, &row, now, &id, &error) < 0)
			die("creating a game", error);
		if (record_init(&rec, &v, &err) < 0)
			die("variant", core_error_name(err));
		play_random(st, id, row.white_id, row.black_id, &rec,
			    finished ? FINISHED_PLIES : ACTIVE_PLIES);
		if (finished || rec.pos.result != CORE_ONGOING) {
			struct store_game *g = NULL;

			if (store_game_load(st, id, &g, &error) != 1)
				die("loading a game", error);
			g->status = STORE_GAME_FINISHED;
			g->result = strdup("1-0");
			g->end_reason = strdup(
				core_end_reason_name(CORE_END_RESIGNATION));
			if (store_game_update(st, g, now, &error) < 0)
				die("finishing a game", error);
			store_game_free(&g);
			record_free(&rec);
			if (!finished)
				ids[i] = 0;
		} else {
			recs[i] = rec;
			ids[i] = id;
			white[i] = w;
			black[i] = b;
		}
	}
}

/* n moves round-robin over the active games, played out in memory; a game
 * that ends drops out.  Returns how many were planned. */
static size_t plan_moves(struct core_record *recs, int64_t *ids, int *white,
			 int *black, int ngames, struct planned *plan, size_t n)
{
	struct core_move moves[1024];
	enum core_error err;
	size_t count = 0;
	int live = ngames;

	for (int round = 0; count < n && live > 0; round++) {
		live = 0;
		for (int i = 0; i < ngames && count < n; i++) {
			struct core_record *r = &recs[i];
			size_t k;

			if (ids[i] == 0 || r->pos.result != CORE_ONGOING)
				continue;
			k = core_legal_moves(&r->pos, moves, 1024);
			if (k == 0)
				continue;
			if (k > 1024)
				k = 1024;
			live++;
			plan[count].game = ids[i];
			plan[count].ply = r->pos.ply + 1;
			plan[count].player = r->pos.to_move == CORE_WHITE ?
						     white[i] : black[i];
			k = next_random() % k;
			notation_format_move(r->pos.geom, &moves[k],
					     plan[count].move);
			if (record_play(r, &moves[k], &err) < 0)
				die("planning", core_error_name(err));
			count++;
		}
	}
	return count;
}

static void write_mail(struct pgp_ctx *ctx, const struct planned *p,
		       size_t phase, size_t index, const char *outdir,
		       const char *domain)
{
	struct buf mail = BUF_INIT;
	const struct player *pl = &players[p->player];
	char path[4096], part[256], date[64];
	const char *error;
	time_t t = time(NULL);
	FILE *f;

	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", gmtime(&t));
	buf_printf(&mail, "From: %s <%s>\r\nTo: ashes@%s\r\n"
		   "Subject: Re: [ashes #%" PRId64 "]\r\nDate: %s\r\n"
		   "Message-ID: <load.%zu.%zu@%s>\r\nMIME-Version: 1.0\r\n",
		   pl->name, pl->address, domain, p->game, date, phase, index,
		   domain);
	snprintf(part, sizeof(part), "Content-Type: text/plain; charset=utf-8\r\n"
		 "\r\nmove %" PRId64 " %d %s\r\n", p->game, p->ply, p->move);
	if (pgp_mime_sign(ctx, pl->fpr, part, strlen(part), &mail, &error) < 0)
		die("signing", error);
	snprintf(path, sizeof(path), "%s/%zu/%05zu.eml", outdir, phase, index);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(mail.data, 1, mail.len, f) != mail.len ||
	    fclose(f) != 0)
		die(path, "cannot write");
	buf_free(&mail);
}

/* Sign every planned mail, `workers` processes at once (gpg-agent does
 * the signing; each process has its own GPGME context). */
static void sign_all(const char *home, const char *outdir, const char *domain,
		     const struct planned *plan, size_t total, size_t moves,
		     int workers)
{
	for (int w = 0; w < workers; w++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork", "failed");
		if (pid == 0) {
			struct pgp_ctx *ctx = NULL;
			const char *error;

			if (pgp_ctx_new(home, &ctx, &error) < 0)
				die("gpgme", error);
			for (size_t i = (size_t)w; i < total; i += (size_t)workers)
				write_mail(ctx, &plan[i], i / moves, i % moves,
					   outdir, domain);
			pgp_ctx_free(&ctx);
			_exit(0);
		}
	}
	for (int w = 0; w < workers; w++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			die("signing", "a signing process failed");
	}
}

int main(int argc, char **argv)
{
	struct store *st = NULL;
	const char *error, *domain;
	struct core_record *recs;
	struct planned *plan;
	int64_t *ids;
	int *white, *black, active, finished;
	size_t moves, phases, planned;
	char path[4096];
	FILE *f;

	if (argc != 9) {
		fprintf(stderr, "usage: load_fill DB GNUPGHOME PLAYERS OUTDIR "
			"ACTIVE FINISHED MOVES PHASES\n");
		return 2;
	}
	active = atoi(argv[5]);
	finished = atoi(argv[6]);
	moves = strtoul(argv[7], NULL, 10);
	phases = strtoul(argv[8], NULL, 10);
	if (active < 1 || finished < 0 || moves < 1 || phases < 1 ||
	    (size_t)active < moves)
		die("arguments", "need ACTIVE >= MOVES >= 1");
	now = (int64_t)time(NULL);
	recs = calloc((size_t)active, sizeof(*recs));
	ids = calloc((size_t)active, sizeof(*ids));
	white = calloc((size_t)active, sizeof(*white));
	black = calloc((size_t)active, sizeof(*black));
	plan = calloc(moves * phases, sizeof(*plan));
	if (recs == NULL || ids == NULL || white == NULL || black == NULL ||
	    plan == NULL)
		die("memory", "out of memory");

	if (store_open(argv[1], NULL, &st, &error) < 0 ||
	    store_begin(st, &error) < 0)
		die(argv[1], error);
	read_players(st, argv[3]);
	add_games(st, finished, true, NULL, NULL, NULL, NULL);
	add_games(st, active, false, recs, ids, white, black);
	if (store_commit(st, &error) < 0)
		die("commit", error);
	store_close(&st);

	/* Each phase in distinct games: a phase is `moves` consecutive
	 * entries of one round-robin pass over `active` >= `moves` games
	 * (a game that ended meanwhile shortens the pass, never repeats). */
	planned = plan_moves(recs, ids, white, black, active, plan,
			     moves * phases);
	if (planned < moves * phases)
		die("planning", "the games ended before enough moves");
	for (int i = 0; i < active; i++)
		if (ids[i] != 0)
			record_free(&recs[i]);
	domain = strchr(players[0].address, '@') + 1;
	for (size_t ph = 0; ph < phases; ph++) {
		snprintf(path, sizeof(path), "%s/%zu", argv[4], ph);
		if (mkdir(path, 0755) < 0)
			die(path, "cannot make the folder");
	}
	snprintf(path, sizeof(path), "%s/plan", argv[4]);
	f = fopen(path, "w");
	if (f == NULL)
		die(path, "cannot write");
	for (size_t i = 0; i < planned; i++)
		fprintf(f, "%zu %zu %" PRId64 " %d %s <load.%zu.%zu@%s>\n",
			i / moves, i % moves, plan[i].game, plan[i].ply,
			players[plan[i].player].name, i / moves, i % moves,
			domain);
	fclose(f);
	fflush(stdout);
	sign_all(argv[2], argv[4], domain, plan, planned, moves, 2);
	free(recs);
	free(ids);
	free(white);
	free(black);
	free(plan);
	return 0;
}
