/* cli_game.c -- the position commands: `ashes legal`, `status`, `show`,
 * `perft`, `record`, `export`, and the option / MOVE parsing they share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "core/notation.h"
#include "render/render.h"
#include "util/buf.h"
#include "util/xalloc.h"

static int cli_parse_int(const char *s, long min, long max, long *v_r)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return -1;
	*v_r = v;
	return 0;
}

/* Why err, in the words of the templates, into out: the sentence naming
 * cells (explain.txt) for a move in pos, the rule alone (rule.txt) if move
 * is NULL (pos may then be NULL).  If the templates fail, the error's code
 * word and the template error, so the reason is never lost. */
static const char *cli_why(const struct core_position *pos,
			   const struct core_move *move, enum core_error err,
			   struct buf *out)
{
	struct template_set *set = cli_templates();
	const char *error;
	int rc;

	if (move != NULL)
		rc = render_explain(set, pos, move, err, out, &error);
	else
		rc = render_rule(set, err, out, &error);
	if (rc < 0) {
		buf_reset(out);
		buf_printf(out, "%s (%s)", core_error_name(err), error);
	}
	template_set_free(&set);
	return buf_str(out);
}

/* Drop the newlines a one-line template ends with. */
static void cli_chomp(struct buf *b, size_t start)
{
	while (b->len > start && b->data[b->len - 1] == '\n')
		b->data[--b->len] = '\0';
}

/* Why a record does not load, in the words of record-error.txt (with the
 * rule from rule.txt and, for a refused ply, the sentence from
 * explain.txt), one line into out.  If the templates fail, the fault's
 * code word and the template error, as cli_why(). */
static const char *cli_record_why(const struct record_fault_info *f,
				  struct buf *out)
{
	struct template_set *set = cli_templates();
	struct template_ctx *ctx = template_ctx_new();
	struct buf words = BUF_INIT;
	const char *fault = record_fault_name(f->fault), *error;
	int rc;

	template_ctx_set(ctx, "fault", fault);
	template_ctx_set_bool(ctx, fault, true);
	template_ctx_setf(ctx, "ply", "%zu", f->ply);
	template_ctx_setf(ctx, "numbered", "%zu", f->numbered);
	template_ctx_set(ctx, "first_line", RECORD_MAGIC);
	if (f->text != NULL) {
		buf_append(&words, f->text, f->text_len);
		template_ctx_set(ctx, "text", buf_str(&words));
		buf_reset(&words);
	}
	template_ctx_set(ctx, "result", core_result_name(f->result));
	template_ctx_set(ctx, "end_reason",
			 core_end_reason_name(f->end_reason));
	template_ctx_set(ctx, "played_result",
			 core_result_name(f->played_result));
	template_ctx_set(ctx, "played_end_reason",
			 core_end_reason_name(f->played_end_reason));
	rc = render_rule(set, f->err, &words, &error);
	if (rc == 0)
		template_ctx_set(ctx, "rule", buf_str(&words));
	if (rc == 0 && f->geom != NULL) {
		/* A ply the rules refused: explain.txt with its numbers. */
		struct template_ctx *check = template_ctx_new();

		render_check_ctx(f->geom, &f->check, check);
		buf_reset(&words);
		rc = template_render(set, "explain.txt", check, &words, &error);
		template_ctx_free(&check);
		cli_chomp(&words, 0);
		template_ctx_set(ctx, "explain", buf_str(&words));
		template_ctx_set(ctx, "move", f->move_text);
		template_ctx_set(ctx, "player", core_color_name(f->check.mover));
	}
	if (rc == 0) {
		size_t start = out->len;

		rc = template_render(set, "record-error.txt", ctx, out, &error);
		cli_chomp(out, start);
	}
	if (rc < 0) {
		buf_reset(out);
		buf_printf(out, "%s (%s)", fault, error);
	}
	buf_free(&words);
	template_ctx_free(&ctx);
	template_set_free(&set);
	return buf_str(out);
}

int cli_game_play(struct cli_game *g, const char *text, char *buf,
		  size_t len)
{
	struct core_position before = g->rec.pos;
	enum core_error err;
	struct core_move move;
	struct buf why = BUF_INIT;
	size_t n = strlen(text);
	bool explain;

	if (record_play_text(&g->rec, text, n, &g->pending_passes, &err) == 0)
		return 0;
	/* A sentence naming cells where the move could at least be read;
	 * the rule alone otherwise. */
	explain = strcasecmp(text, "pass") != 0 &&
		strcasecmp(text, "swap") != 0 && err != CORE_ERR_GAME_OVER &&
		notation_parse_move(&before, text, n, &move, &err) == 0 &&
		core_check_move(&before, &move, &err) < 0;
	snprintf(buf, len, "ply %d: %s: %s", before.ply + 1, text,
		 cli_why(&before, explain ? &move : NULL, err, &why));
	buf_free(&why);
	return -1;
}

/* The usage line of a position command taking opts. */
static void cli_game_usage(const char *name, unsigned opts)
{
	fprintf(stderr, "usage: ashes %s%s [--size N] [--variant OPT]...%s "
		"[MOVE]...\n", name,
		(opts & CLI_OPT_PICTURE) != 0 ? " [--svg] [--png FILE]" : "",
		(opts & CLI_OPT_DEPTH) != 0 ? " --depth D" : "");
}

/* Does opt (maybe `--name=value`) name the option `name`? */
static bool cli_opt_is(const char *opt, const char *name)
{
	size_t n = strlen(name);

	return strncmp(opt, name, n) == 0 &&
		(opt[n] == '\0' || opt[n] == '=');
}

/* Is opt an option with a value that a command taking opts knows? */
static bool cli_game_known(const char *opt, unsigned opts)
{
	return cli_opt_is(opt, "--size") || cli_opt_is(opt, "--variant") ||
		((opts & CLI_OPT_DEPTH) != 0 && cli_opt_is(opt, "--depth")) ||
		((opts & CLI_OPT_PICTURE) != 0 && cli_opt_is(opt, "--png"));
}

/* One option of a position command (cli_game_known), with its value: 0,
 * or -1 after saying why on stderr. */
static int cli_game_option(struct cli_game *g, struct core_variant *v,
			   const char *cmd, const char *opt, const char *val,
			   unsigned opts)
{
	struct buf why = BUF_INIT; /* the reason of a refused option */
	enum core_error err;
	long n;
	int rc = -1;

	if (cli_opt_is(opt, "--size")) {
		if (cli_parse_int(val, CORE_MIN_SIZE, CORE_MAX_SIZE, &n) < 0) {
			fprintf(stderr, "ashes %s: --size %s: %s\n", cmd, val,
				cli_why(NULL, NULL, CORE_ERR_BAD_SIZE, &why));
			goto out;
		}
		v->size = (int)n;
	} else if (cli_opt_is(opt, "--variant")) {
		if (notation_parse_variant_option(v, val, &err) < 0) {
			fprintf(stderr, "ashes %s: --variant %s: %s\n", cmd, val,
				cli_why(NULL, NULL, err, &why));
			goto out;
		}
	} else if ((opts & CLI_OPT_DEPTH) != 0 && cli_opt_is(opt, "--depth")) {
		if (cli_parse_int(val, 0, 64, &n) < 0) {
			fprintf(stderr, "ashes %s: --depth %s: not a depth\n",
				cmd, val);
			goto out;
		}
		g->depth = (int)n;
	} else if ((opts & CLI_OPT_PICTURE) != 0 && cli_opt_is(opt, "--png")) {
		g->png = val;
	}
	rc = 0;
out:
	buf_free(&why);
	return rc;
}

int cli_game_setup(struct cli_game *g, int argc, char **argv, unsigned opts)
{
	struct core_variant v;
	enum core_error err;
	struct buf why = BUF_INIT;
	/* The MOVEs, in order: options may stand anywhere among them. */
	char **moves = xzalloc(((size_t)argc + 1) * sizeof(*moves));
	size_t nmoves = 0, k;
	bool options = true;
	int i, rc = CLI_EXIT_OK;

	core_variant_default(&v);
	memset(g, 0, sizeof(*g));
	g->depth = -1;
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *val;

		if (!options || strncmp(opt, "--", 2) != 0) {
			moves[nmoves++] = argv[i];
			continue;
		}
		if (strcmp(opt, "--") == 0) {
			options = false; /* only MOVEs from here on */
			continue;
		}
		if ((opts & CLI_OPT_PICTURE) != 0 && strcmp(opt, "--svg") == 0) {
			g->svg = true;
			continue;
		}
		if (!cli_game_known(opt, opts)) {
			fprintf(stderr, "ashes %s: unknown option %s\n", argv[0],
				opt);
			rc = CLI_EXIT_FAILURE;
			break;
		}
		val = strchr(opt, '=');
		if (val != NULL)
			val++;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			fprintf(stderr, "ashes %s: %s needs a value\n", argv[0],
				opt);
			rc = CLI_EXIT_FAILURE;
			break;
		}
		if (cli_game_option(g, &v, argv[0], opt, val, opts) < 0) {
			rc = CLI_EXIT_FAILURE;
			break;
		}
	}
	if (rc != CLI_EXIT_OK) {
		cli_game_usage(argv[0], opts);
		core_variant_default(&v);
	}
	if (record_init(&g->rec, &v, &err) < 0) {
		fprintf(stderr, "ashes %s: %s\n", argv[0],
			cli_why(NULL, NULL, err, &why));
		core_variant_default(&v);
		record_init(&g->rec, &v, &err);
		rc = CLI_EXIT_FAILURE;
	}
	for (k = 0; k < nmoves && rc == CLI_EXIT_OK; k++) {
		char line[384];

		if (cli_game_play(g, moves[k], line, sizeof(line)) < 0) {
			fprintf(stderr, "ashes %s: %s\n", argv[0], line);
			rc = CLI_EXIT_INVALID;
		}
	}
	buf_free(&why);
	free(moves);
	return rc;
}

void cli_print_status(const struct core_position *pos)
{
	printf("turn: %s\n", core_color_name((enum core_color)pos->to_move));
	printf("tax: white=%d black=%d\n", pos->tax[CORE_WHITE],
	       pos->tax[CORE_BLACK]);
	printf("result: %s\n", core_result_name((enum core_result)pos->result));
}

int cli_legal(int argc, char **argv)
{
	struct cli_game g;
	int rc = cli_game_setup(&g, argc, argv, 0);

	if (rc == CLI_EXIT_OK) {
		struct buf out = BUF_INIT;

		/* A finished game has no moves (the generator says 0). */
		render_legal_moves_plain(&g.rec.pos, &out);
		fputs(buf_str(&out), stdout);
		buf_free(&out);
	}
	record_free(&g.rec);
	return rc;
}

int cli_status(int argc, char **argv)
{
	struct cli_game g;
	int rc = cli_game_setup(&g, argc, argv, 0);

	if (rc == CLI_EXIT_OK)
		cli_print_status(&g.rec.pos);
	record_free(&g.rec);
	return rc;
}

/* The last ply a player chose (not a forced pass), or NULL. */
static const struct core_move *cli_last_move(const struct core_record *rec)
{
	size_t i = rec->nplies;

	while (i > 0 && rec->plies[i - 1].kind == CORE_MOVE_PASS)
		i--;
	return i > 0 ? &rec->plies[i - 1] : NULL;
}

/* Write the PNG picture of g to path ("-": stdout).  0, or -1 after
 * saying why on stderr. */
static int cli_write_png(const struct cli_game *g,
			 const struct render_picture *pic, const char *path)
{
	struct buf png = BUF_INIT;
	const char *error;
	FILE *f = NULL;
	int rc = -1;

	if (render_board_png(&g->rec.pos, cli_last_move(&g->rec), pic, &png,
			     &error) < 0) {
		fprintf(stderr, "ashes show: %s\n", error);
		goto out;
	}
	f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (f == NULL || fwrite(png.data, 1, png.len, f) != png.len ||
	    fflush(f) != 0) {
		fprintf(stderr, "ashes show: %s: %s\n", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (f != NULL && f != stdout && fclose(f) != 0 && rc == 0) {
		fprintf(stderr, "ashes show: %s: %s\n", path, strerror(errno));
		rc = -1;
	}
	buf_free(&png);
	return rc;
}

int cli_show(int argc, char **argv)
{
	struct cli_game g;
	struct template_set *set = cli_templates();
	/* The pictures carry the words the mails' pictures carry. */
	struct render_picture pic = { .templates = set, .width = 0 };
	int rc = cli_game_setup(&g, argc, argv, CLI_OPT_PICTURE);

	if (rc == CLI_EXIT_OK && g.svg) {
		struct buf out = BUF_INIT;
		const char *error;

		if (render_picture_svg(&g.rec.pos, cli_last_move(&g.rec), &pic,
				       &out, &error) < 0) {
			fprintf(stderr, "ashes show: %s\n", error);
			rc = CLI_EXIT_FAILURE;
		} else {
			fputs(buf_str(&out), stdout);
		}
		buf_free(&out);
	}
	if (rc == CLI_EXIT_OK && g.png != NULL &&
	    cli_write_png(&g, &pic, g.png) < 0)
		rc = CLI_EXIT_FAILURE;
	if (rc == CLI_EXIT_OK && !g.svg && g.png == NULL) {
		struct template_ctx *ctx = template_ctx_new();

		render_position_ctx(&g.rec.pos, ctx);
		if (cli_render(set, "show.txt", ctx) < 0)
			rc = CLI_EXIT_FAILURE;
		template_ctx_free(&ctx);
	}
	template_set_free(&set);
	record_free(&g.rec);
	return rc;
}

int cli_perft(int argc, char **argv)
{
	struct cli_game g;
	int rc = cli_game_setup(&g, argc, argv, CLI_OPT_DEPTH);

	if (rc == CLI_EXIT_OK && g.depth < 0) {
		fputs("ashes perft: --depth D is required\n", stderr);
		rc = CLI_EXIT_FAILURE;
	}
	if (rc == CLI_EXIT_OK)
		printf("%llu\n", (unsigned long long)core_perft(&g.rec.pos,
								 g.depth));
	record_free(&g.rec);
	return rc;
}

/* Print the record text of rec to stdout. */
static void cli_print_record(const struct core_record *rec)
{
	size_t need = record_format(rec, NULL, 0);
	char *text = malloc(need + 1);

	if (text == NULL) {
		fputs("ashes: out of memory\n", stderr);
		exit(CLI_EXIT_FAILURE);
	}
	record_format(rec, text, need + 1);
	fputs(text, stdout);
	free(text);
}

int cli_export(int argc, char **argv)
{
	struct cli_game g;
	int rc = cli_game_setup(&g, argc, argv, 0);

	if (rc == CLI_EXIT_OK)
		cli_print_record(&g.rec);
	record_free(&g.rec);
	return rc;
}

/* Read all of path ("-" for stdin) into b; -1 with errno. */
static int cli_read_file(const char *path, struct buf *b)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char chunk[4096];
	size_t n;
	int rc = 0;

	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(b, chunk, n);
	if (ferror(f))
		rc = -1;
	if (f != stdin)
		fclose(f);
	buf_append(b, "", 0);
	return rc;
}

int cli_record(int argc, char **argv)
{
	struct core_record rec;
	struct record_fault_info fault;
	struct buf text = BUF_INIT;
	bool print = false;
	const char *path = NULL;
	int i, rc = CLI_EXIT_OK;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--print") == 0) {
			print = true;
		} else if (path == NULL) {
			path = argv[i];
		} else {
			path = NULL; /* one FILE only */
			break;
		}
	}
	if (path == NULL) {
		fputs("usage: ashes record [--print] FILE\n", stderr);
		return CLI_EXIT_FAILURE;
	}
	if (cli_read_file(path, &text) < 0) {
		fprintf(stderr, "ashes record: %s: %s\n", path, strerror(errno));
		buf_free(&text);
		return CLI_EXIT_FAILURE;
	}
	if (record_parse_detail(&rec, buf_str(&text), text.len, &fault) < 0) {
		struct buf why = BUF_INIT;

		fprintf(stderr, "ashes record: %s:%d: %s\n", path, fault.line,
			cli_record_why(&fault, &why));
		buf_free(&why);
		rc = CLI_EXIT_INVALID;
	} else {
		if (print)
			cli_print_record(&rec);
		else
			cli_print_status(&rec.pos);
		record_free(&rec);
	}
	buf_free(&text);
	return rc;
}
