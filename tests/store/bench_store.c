/* bench_store.c -- how many "one inbound move mail" transactions per
 * second the store sustains (the store's share of the server's work:
 * lookups, the archive of the raw mail, the signature record, the move,
 * two queued replies), with 1,000 active games and again with 100,000
 * finished games added, and the database size.  Usage:
 * bench_store [messages [full|normal [finished-games]]]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

#define PLAYERS 2000
#define ACTIVE_GAMES 1000

static const char *err;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_store: %s: %s\n", what, err ? err : "?");
	exit(1);
}

static void hex(char *out, int digits, unsigned long long n, bool upper)
{
	static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
	int i;

	for (i = digits - 1; i >= 0; i--) {
		/* mix so that neighbours differ in every digit */
		n = n * 6364136223846793005ULL + 1442695040888963407ULL;
		out[i] = (upper ? up : lo)[(n >> 60) & 15];
	}
	out[digits] = '\0';
}

static void fpr_of(char out[41], int player)
{
	hex(out, 40, (unsigned long long)player + 1, true);
}

static void populate(struct store *s, int64_t *games)
{
	struct store_game g = { 0 };
	char fpr[41], addr[64], name[32];
	int i;

	if (store_begin(s, &err) < 0)
		die("begin");
	for (i = 0; i < PLAYERS; i++) {
		fpr_of(fpr, i);
		snprintf(name, sizeof(name), "player%d", i);
		snprintf(addr, sizeof(addr), "player%d@example.org", i);
		if (store_player_add(s, name, addr, fpr, 1, NULL, &err) != 0)
			die("player");
	}
	g.variant = "size=5 tax=removed";
	g.status = STORE_GAME_ACTIVE;
	for (i = 0; i < ACTIVE_GAMES; i++) {
		g.white_id = 1 + (2 * i) % PLAYERS;
		g.black_id = 2 + (2 * i) % PLAYERS;
		g.challenger_id = g.white_id;
		if (store_game_create(s, &g, 2, &games[i], &err) < 0)
			die("game");
	}
	if (store_commit(s, &err) < 0)
		die("commit");
}

static void add_finished(struct store *s, int count)
{
	struct store_game g = { 0 };
	int i, k;

	g.variant = "size=5 tax=removed";
	g.status = STORE_GAME_FINISHED;
	g.result = "1-0";
	g.end_reason = "elimination";
	for (i = 0; i < count; i += 1000) {
		if (store_begin(s, &err) < 0)
			die("begin");
		for (k = i; k < i + 1000 && k < count; k++) {
			int64_t id;
			int ply;

			g.white_id = 1 + k % PLAYERS;
			g.black_id = 1 + (k + 1) % PLAYERS;
			g.challenger_id = g.white_id;
			if (store_game_create(s, &g, 3, &id, &err) < 0)
				die("finished game");
			for (ply = 1; ply <= 10; ply++)
				if (store_move_append(s, id, ply, "c3-d4", 0,
						      4, 0, &err) != 0)
					die("finished move");
		}
		if (store_commit(s, &err) < 0)
			die("commit");
	}
}

/* One move mail, as the server would handle it. */
static void one_message(struct store *s, const int64_t *games, long seq,
			const char *raw, const char *body)
{
	struct store_inbound in = { 0 };
	struct store_outbox_msg m = { 0 };
	struct store_player *p = NULL;
	struct store_game *g = NULL;
	char sha[65], sig[65], fpr[41], msgid[64], reply[64];
	char **moves = NULL;
	int64_t inbound, *obs = NULL, game = games[seq % ACTIVE_GAMES];
	size_t nobs;
	long count;

	hex(sha, 64, (unsigned long long)seq * 2 + 1000003, false);
	hex(sig, 64, (unsigned long long)seq * 2 + 1000004, false);
	snprintf(msgid, sizeof(msgid), "m%ld@players.example", seq);
	if (store_begin(s, &err) < 0)
		die("begin");
	if (store_inbound_seen(s, sha, NULL, &err) != 0)
		die("seen");
	if (store_game_load(s, game, &g, &err) != 1)
		die("load");
	fpr_of(fpr, (int)((g->ply % 2 ? g->black_id : g->white_id) - 1));
	if (store_player_by_fingerprint(s, fpr, &p, &err) != 1)
		die("player by key");
	if (store_rate_hit(s, p->addresses[0].address, seq, 3600, &count,
			   &err) < 0)
		die("rate");
	in.message_id = msgid;
	in.sha256 = sha;
	in.raw = (char *)raw;
	in.raw_len = strlen(raw);
	in.received = seq;
	in.sender_fingerprint = fpr;
	in.player_id = p->id;
	if (store_inbound_record(s, &in, &inbound, &err) != 0)
		die("record");
	if (store_signature_record(s, fpr, seq, sig, inbound, seq, &err) != 0)
		die("signature");
	if (store_game_moves(s, game, &moves, NULL, &err) < 0)
		die("moves");
	if (store_move_append(s, game, g->ply + 1, "c3-e5/2", p->id, seq,
			      inbound, &err) != 0)
		die("move");
	if (store_game_update(s, g, seq, &err) < 0)
		die("update");
	if (store_observer_list(s, game, &obs, &nobs, &err) < 0)
		die("observers");
	m.kind = STORE_OUTBOX_KIND_YOUR_MOVE;
	m.subject = "[ashes #1] move";
	m.body = (char *)body;
	m.game_id = game;
	m.inbound_id = inbound;
	m.recipient = p->addresses[0].address;
	snprintf(reply, sizeof(reply), "r%ld.1@ashes.example", seq);
	m.message_id = reply;
	if (store_outbox_enqueue(s, &m, seq, NULL, &err) < 0)
		die("enqueue");
	snprintf(reply, sizeof(reply), "r%ld.2@ashes.example", seq);
	if (store_outbox_enqueue(s, &m, seq, NULL, &err) < 0)
		die("enqueue");
	if (store_inbound_set_outcome(s, inbound, "ok", &err) < 0)
		die("outcome");
	if (store_commit(s, &err) < 0)
		die("commit");
	store_player_free(&p);
	store_game_free(&g);
	store_strings_free(&moves);
	free(obs);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Mails per second of wall time; *cpu_rate_r per second of CPU time (the
 * figure that does not depend on the other loads of a shared machine). */
static double run(struct store *s, const int64_t *games, long from,
		  long n, const char *raw, const char *body,
		  double *cpu_rate_r)
{
	double t0 = now_seconds(), c0 = cpu_seconds();
	long i;

	for (i = 0; i < n; i++)
		one_message(s, games, from + i, raw, body);
	*cpu_rate_r = (double)n / (cpu_seconds() - c0);
	return (double)n / (now_seconds() - t0);
}

static long long file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	int finished = argc > 3 ? atoi(argv[3]) : 100000;
	struct store_options o = { 0 };
	char dir[] = "/tmp/ashes-bench-store-XXXXXX", path[128], wal[160];
	static int64_t games[ACTIVE_GAMES];
	char *raw, *body;
	struct store *s;
	double rate1, rate2, cpu1, cpu2;

	if (argc > 2 && strcmp(argv[2], "normal") == 0)
		o.synchronous_normal = true;
	if (getenv("ASHES_SRCDIR") != NULL) {
		static char sql[512];

		snprintf(sql, sizeof(sql), "%s/sql", getenv("ASHES_SRCDIR"));
		o.sql_dir = sql;
	}
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/bench.db", dir);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (store_open(path, &o, &s, &err) < 0)
		die("open");
	/* a signed mail of ~3 KB and a reply of ~6 KB (board + move list) */
	raw = malloc(3001);
	memset(raw, 'x', 3000);
	raw[3000] = '\0';
	body = malloc(6001);
	memset(body, 'y', 6000);
	body[6000] = '\0';

	populate(s, games);
	rate1 = run(s, games, 1, n, raw, body, &cpu1);
	printf("store: %.0f move mails/s (%.0f per CPU second) with %d "
	       "active games (synchronous=%s, %ld mails), db %.1f MB\n",
	       rate1, cpu1, ACTIVE_GAMES,
	       o.synchronous_normal ? "normal" : "full", n,
	       (double)(file_size(path) + file_size(wal)) / 1e6);
	add_finished(s, finished);
	rate2 = run(s, games, 1 + n, n, raw, body, &cpu2);
	printf("store: %.0f move mails/s (%.0f per CPU second) with %d "
	       "finished games too, db %.1f MB; slowdown %.2fx (CPU %.2fx)\n",
	       rate2, cpu2, finished, (double)(file_size(path) + file_size(wal)) / 1e6,
	       rate1 / rate2, cpu1 / cpu2);
	store_close(&s);
	unlink(path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", path);
	unlink(wal);
	rmdir(dir);
	free(raw);
	free(body);
	return 0;
}
