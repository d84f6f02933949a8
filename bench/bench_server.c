/* bench_server.c -- moves per second through server_handle() against a
 * database file, no mail servers: once with 1,000 games in progress, once
 * more after 100,000 finished games were added to the same kind of
 * database.  Prints both rates, their ratio and the database sizes.
 *
 * usage: bench_server [MESSAGES [FINISHED_GAMES [BATCH]]]
 *        (default 4000 100000 100)
 * Also runs MESSAGES/10 moves one per transaction, for the fsync-bound
 * figure.
 * Each message is a signed `move GAME PLY MOVE` by the player to move; the
 * moves are worked out before the clock starts (a deterministic playout
 * per game), so the figure is the service's own cost: transaction,
 * idempotence and replay checks, replaying the game, the rules, the
 * templates of the reply and of the opponent's "your move" mail, and the
 * outbox rows.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/core.h"
#include "core/notation.h"
#include "core/record.h"
#include "render/template.h"
#include "server/server.h"
#include "store/store.h"

/* digest(): the stand-in for sha256 the service's tests use too. */
#include "../tests/server/digest_test.h"

#define ACTIVE_GAMES 1000
#define PLAYERS 200
/* Plies stored per finished game, and played in each active game before
 * the clock starts (so moves are measured in mid-game positions, with
 * replays of realistic length). */
#define FINISHED_PLIES 12
#define ACTIVE_PLIES 24

static int64_t now = 1767434400;

static void die(const char *what, const char *error)
{
	fprintf(stderr, "bench_server: %s: %s\n", what, error ? error : "?");
	exit(1);
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long file_size(const char *path)
{
	struct stat sb;
	char wal[PATH_MAX + 8];
	long long n = 0;

	if (stat(path, &sb) == 0)
		n += sb.st_size;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (stat(wal, &sb) == 0)
		n += sb.st_size;
	return n;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct planned {
	int64_t game;
	int ply;
	int player; /* index into the fingerprints */
	char move[CORE_MOVE_TEXT_MAX];
};

static char fps[PLAYERS][41];
static int64_t player_ids[PLAYERS];

/* Players p0..p199 with keys and addresses. */
static void add_players(struct store *st)
{
	const char *error;

	for (int i = 0; i < PLAYERS; i++) {
		char name[16], addr[64];
		snprintf(fps[i], sizeof(fps[i]), "%040X", i + 1);
		snprintf(name, sizeof(name), "p%d", i);
		snprintf(addr, sizeof(addr), "p%d@bench.example", i);
		if (store_player_add(st, name, addr, fps[i], now, &player_ids[i],
				     &error) != 0)
			die("adding a player", error);
	}
}

/* Play up to `plies` random legal plies of rec and store them for game id
 * (forced passes with no player, as the service stores them). */
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
		int64_t who = rec->pos.to_move == CORE_WHITE ? white_id :
							       black_id;
		if (n == 0)
			break;
		if (n > 1024)
			n = 1024;
		if (record_play(rec, &moves[next_random() % n], &err) < 0)
			die("playing", core_error_name(err));
		for (size_t k = before; k < rec->nplies; k++)
			if (store_move_append(st, id, (int)k + 1,
					      notation_format_move(
						      rec->pos.geom,
						      &rec->plies[k], text),
					      k == before ? who : 0, now, 0,
					      &error) != 0)
				die("appending a move", error);
	}
}

/* `count` games between players i and i+1 (mod PLAYERS), white = i, each
 * with `plies` random plies played.  Finished games are then resigned;
 * active ones hand back their records (recs, ids, white, black). */
static void add_games(struct store *st, int count,
		      enum store_game_status status, int plies,
		      struct core_record *recs, int64_t *ids, int *white,
		      int *black)
{
	struct core_variant v;
	struct store_game row;
	char vtext[64];
	const char *error;
	enum core_error err;

	core_variant_default(&v);
	notation_format_variant(&v, vtext, sizeof(vtext));
	for (int i = 0; i < count; i++) {
		int w = i % PLAYERS, b = (i + 1 + i / PLAYERS) % PLAYERS;
		struct core_record rec;
		int64_t id;

		if (b == w)
			b = (b + 1) % PLAYERS;
		memset(&row, 0, sizeof(row));
		row.variant = vtext;
		row.challenger_id = player_ids[w];
		row.white_id = player_ids[w];
		row.black_id = player_ids[b];
		row.status = STORE_GAME_ACTIVE;
		if (store_game_create(st, &row, now, &id, &error) < 0)
			die("creating a game", error);
		record_init(&rec, &v, &err);
		play_random(st, id, row.white_id, row.black_id, &rec, plies);
		if (status == STORE_GAME_FINISHED) {
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
		} else {
			recs[i] = rec;
			ids[i] = id;
			white[i] = w;
			black[i] = b;
		}
	}
}

/* Plan `n` moves round-robin over the active games by playing them out in
 * memory; a game that ends drops out. */
static size_t plan_moves(struct core_record *recs, int64_t *ids, int *white,
			 int *black, int ngames, struct planned *plan, size_t n)
{
	enum core_error err;
	struct core_move moves[1024];
	size_t count = 0;
	int live = ngames;

	for (int round = 0; count < n && live > 0; round++) {
		live = 0;
		for (int i = 0; i < ngames && count < n; i++) {
			struct core_record *r = &recs[i];
			size_t k;
			if (r->pos.result != CORE_ONGOING)
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
			record_play(r, &moves[k], &err);
			count++;
		}
	}
	return count;
}

static double last_cpu_rate;

/* Build a database (1,000 active games + `finished` finished ones), then
 * time `nmsg` moves through the service in batches of `batch`.  Returns
 * the wall-clock rate; last_cpu_rate gets the CPU-time rate. */
static double run(const char *dir, const char *label, int finished,
		  size_t nmsg, size_t batch, struct template_set *ts)
{
	char path[PATH_MAX];
	struct store *st = NULL;
	struct server *srv = NULL;
	struct server_config cfg;
	const char *error;
	int64_t *ids = calloc(ACTIVE_GAMES, sizeof(*ids));
	int *white = calloc(ACTIVE_GAMES, sizeof(int));
	int *black = calloc(ACTIVE_GAMES, sizeof(int));
	struct core_record *recs = calloc(ACTIVE_GAMES, sizeof(*recs));
	struct planned *plan = calloc(nmsg, sizeof(*plan));
	size_t planned, handled = 0;
	double t0, t1, c0, c1, build;
	long long size_before;

	snprintf(path, sizeof(path), "%s/%s.db", dir, label);
	if (store_open(path, NULL, &st, &error) < 0)
		die("opening the database", error);
	t0 = seconds();
	if (store_begin(st, &error) < 0)
		die("begin", error);
	add_players(st);
	if (finished > 0)
		add_games(st, finished, STORE_GAME_FINISHED, FINISHED_PLIES,
			  NULL, NULL, NULL, NULL);
	add_games(st, ACTIVE_GAMES, STORE_GAME_ACTIVE, ACTIVE_PLIES, recs, ids,
		  white, black);
	if (store_commit(st, &error) < 0)
		die("commit", error);
	build = seconds() - t0;
	size_before = file_size(path);

	planned = plan_moves(recs, ids, white, black, ACTIVE_GAMES, plan, nmsg);
	for (int i = 0; i < ACTIVE_GAMES; i++)
		record_free(&recs[i]);
	free(recs);
	server_config_default(&cfg);
	cfg.domain = "bench.example";
	cfg.templates = ts;
	if (server_new(st, &cfg, &srv, &error) < 0)
		die("server", error);

	t0 = seconds();
	c0 = cpu_seconds();
	for (size_t first = 0; first < planned; first += batch) {
		size_t n = planned - first < batch ? planned - first : batch;
		struct server_inbound in[n];
		struct server_outcome out[n];
		struct {
			char body[128], subject[64], msgid[64], raw[1200],
				sha[65], ssha[65], from[64];
		} *t = calloc(n, sizeof(*t));

		now++;
		for (size_t j = 0; j < n; j++) {
			const struct planned *p = &plan[first + j];
			int len;

			snprintf(t[j].body, sizeof(t[j].body),
				 "move %" PRId64 " %d %s\n", p->game, p->ply,
				 p->move);
			snprintf(t[j].subject, sizeof(t[j].subject),
				 "Re: [ashes #%" PRId64 "] move", p->game);
			snprintf(t[j].msgid, sizeof(t[j].msgid),
				 "%s.%zu@client.example", label, first + j);
			snprintf(t[j].from, sizeof(t[j].from),
				 "p%d@bench.example", p->player);
			/* About the size of a small signed mail. */
			len = snprintf(t[j].raw, sizeof(t[j].raw),
				       "Message-ID: <%s>\nFrom: %s\n"
				       "Subject: %s\n\n%s\n"
				       "-----BEGIN PGP SIGNATURE-----\n%0*d\n"
				       "-----END PGP SIGNATURE-----\n",
				       t[j].msgid, t[j].from, t[j].subject,
				       t[j].body, 700, 0);
			digest(t[j].raw, (size_t)len, t[j].sha);
			digest(t[j].body, strlen(t[j].body), t[j].ssha);
			memset(&in[j], 0, sizeof(in[j]));
			in[j].fingerprint = fps[p->player];
			in[j].from_address = t[j].from;
			in[j].message_id = t[j].msgid;
			in[j].raw = t[j].raw;
			in[j].raw_len = (size_t)len;
			in[j].raw_sha256 = t[j].sha;
			in[j].signed_sha256 = t[j].ssha;
			in[j].signature_time = now - 2;
			in[j].subject = t[j].subject;
			in[j].body = t[j].body;
			in[j].body_len = strlen(t[j].body);
		}
		if (server_handle_batch(srv, in, n, now, out, &error) < 0)
			die("server_handle_batch", error);
		for (size_t j = 0; j < n; j++) {
			if (out[j].status != SERVER_OK) {
				fprintf(stderr, "bench_server: %s: %s\n",
					t[j].body, out[j].outcome);
				exit(1);
			}
			handled++;
		}
		free(t);
	}
	t1 = seconds();
	c1 = cpu_seconds();
	/* Wall-clock rate, and the rate one free core would give (CPU time:
	 * steadier on a machine shared with other work). */
	printf("%-20s batch %3zu: %5zu moves %6.2f s %6.0f moves/s "
	       "(cpu %6.0f/s); db %5.1f MB -> %5.1f MB\n",
	       label, batch, handled, t1 - t0, (double)handled / (t1 - t0),
	       (double)handled / (c1 - c0), (double)size_before / 1e6,
	       (double)file_size(path) / 1e6);
	last_cpu_rate = (double)handled / (c1 - c0);
	if (build > 1)
		printf("%20s (database built in %.1f s)\n", "", build);
	server_free(&srv);
	store_close(&st);
	free(ids);
	free(white);
	free(black);
	free(plan);
	return (double)handled / (t1 - t0);
}

int main(int argc, char **argv)
{
	size_t nmsg = argc > 1 ? strtoul(argv[1], NULL, 10) : 4000;
	int finished = argc > 2 ? atoi(argv[2]) : 100000;
	size_t batch = argc > 3 ? strtoul(argv[3], NULL, 10) : 100;
	const char *src = getenv("ASHES_SRCDIR");
	char dir[] = "/tmp/ashes-bench-server-XXXXXX", tdir[PATH_MAX],
	     cmd[PATH_MAX + 16];
	struct template_set *ts;
	double a, b, ca, cb;

	if (src == NULL)
		src = ASHES_SRCDIR_DEFAULT;
	snprintf(tdir, sizeof(tdir), "%s/templates", src);
	ts = template_set_new(NULL, tdir);
	if (mkdtemp(dir) == NULL)
		die("mkdtemp", "failed");
	/* One message per transaction: bound by one fsync per commit. */
	run(dir, "1000-active-single", 0, nmsg / 10, 1, ts);
	/* Group commit, as the mail-in layer hands over a poll's worth. */
	a = run(dir, "1000-active", 0, nmsg, batch, ts);
	ca = last_cpu_rate;
	{
		char label[64];
		snprintf(label, sizeof(label), "%d-finished", finished);
		b = run(dir, label, finished, nmsg, batch, ts);
		cb = last_cpu_rate;
	}
	printf("rate with %d finished games / without: %.2f wall, %.2f cpu "
	       "(must stay above 0.50)\n", finished, b / a, cb / ca);
	printf("target 2000 moves/s: %s\n",
	       a >= 2000 && b >= 2000 ? "met" :
	       ca >= 2000 && cb >= 2000 ? "met on CPU time; wall clock below "
					  "(machine busy or slow fsync)" :
	       "NOT met");
	template_set_free(&ts);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return b / a < 0.5 && cb / ca < 0.5;
}
