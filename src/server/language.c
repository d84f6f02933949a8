/* language.c -- which language a mail is written in.  Every mail is
 * rendered for one reader: the handle's template set (h->ts) is that
 * reader's language, and server_render() and the renderers the service
 * calls all take it from there.  A reader's language is their `set
 * language` (stored by the store, offered by the templates: the
 * sub-folders the daemon found), else the club's default ([templates]
 * language).  A sender still unknown is answered in the language their
 * mail's Content-Language asks for, if the club has it; a `register`
 * keeps that choice.  The header is unsigned, anyone on the way can
 * change it: it picks only the language of the words, never what a
 * command does (commands are the same English words in every language),
 * so a forged one costs the reader nothing but a reply they cannot read,
 * which they mend with `set language`. */
#include "server/server_private.h"

#include <string.h>

struct template_set *server_lang_set(const struct server *srv,
				     const char *lang)
{
	struct template_set *ts = NULL;

	if (lang != NULL && lang[0] != '\0')
		ts = template_set_language(srv->cfg.templates, lang);
	if (ts == NULL)
		ts = template_set_language(srv->cfg.templates,
					   srv->cfg.language);
	return ts != NULL ? ts : srv->cfg.templates;
}

int server_write_to(struct handle *h, int64_t player_id)
{
	struct store_settings s;

	if (player_id == 0) {
		h->ts = server_lang_set(h->srv, NULL);
		return 0;
	}
	if (server_recipient_settings(h, player_id, &s) < 0)
		return -1;
	h->ts = server_lang_set(h->srv, s.language);
	return 0;
}

const char *server_lang_of_mail(const struct handle *h)
{
	if (h->msg == NULL || h->msg->content_language == NULL)
		return NULL;
	return template_set_pick_language(h->srv->cfg.templates,
					  h->msg->content_language);
}

void server_lang_choices(const struct server *srv, struct buf *out)
{
	const char *langs[TEMPLATE_LANGUAGES_MAX];
	size_t n = template_set_languages(srv->cfg.templates, langs,
					  TEMPLATE_LANGUAGES_MAX);

	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(out, '|');
		buf_puts(out, langs[i]);
	}
}
