/* cli_help.c -- `ashes help` and the template helpers every subcommand
 * uses for text people read. */
#include <stdio.h>

#include "cli/cli.h"
#include "util/buf.h"
#include "util/escape.h"

struct template_set *cli_templates(void)
{
	return template_set_new(cli_template_dir, NULL);
}

int cli_render(struct template_set *set, const char *name,
	       const struct template_ctx *ctx)
{
	struct buf out = BUF_INIT;
	const char *error;
	int rc = template_render(set, name, ctx, &out, &error);

	struct buf safe = BUF_INIT;

	if (rc < 0) {
		fprintf(stderr, "ashes: %s\n", error);
	} else {
		/* A listing may show what players wrote (names in `games`):
		 * nothing of it acts on the terminal (util/escape.h). */
		escape_append(&safe, buf_str(&out), out.len,
			      ESCAPE_KEEP_LINES);
		fputs(buf_str(&safe), stdout);
	}
	buf_free(&out);
	buf_free(&safe);
	return rc;
}

int cli_help(int argc, char **argv)
{
	struct template_set *set = cli_templates();
	struct template_ctx *ctx = template_ctx_new();
	const struct cli_command *c;
	int rc;

	/* The command list comes from the table, so commands added later
	 * show up without touching the template. */
	template_ctx_list(ctx, "commands");
	for (c = cli_commands; c->name != NULL; c++) {
		struct template_ctx *item = template_ctx_add(ctx, "commands");

		template_ctx_setf(item, "name", "%-8s", c->name);
		template_ctx_set(item, "summary", c->summary);
	}
	template_ctx_set(ctx, "templates", template_set_default_dir(set));
	if (cli_template_dir != NULL && *cli_template_dir != '\0')
		template_ctx_set(ctx, "override", cli_template_dir);
	rc = cli_render(set, "help-cli.txt", ctx) < 0 ? CLI_EXIT_FAILURE :
		CLI_EXIT_OK;
	template_ctx_free(&ctx);
	template_set_free(&set);
	return rc;
}
