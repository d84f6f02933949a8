/* language.c -- which language a mail is written in.  Every mail is
 * rendered for one reader: the handle's template set (h->ts) is that
 * reader's language, and server_render() and the renderers the service
 * calls all take it from there.  A reader's language is their `set
 * language` (stored by the store, offered by the templates: the
 * sub-folders the daemon found), else the club's default ([templates]
 * language).  A sender still unknown is answered in the language their
 * mail's Content-Language asks for, if the club has it, else in that of
 * the player at the mail's From: address (a player whose mail is refused
 * as a whole, so not identified); a `register` keeps that choice.  The header is unsigned, anyone on the way can
 * change it: it picks only the language of the words, never what a
 * command does (commands are the same English words in every language),
 * so a forged one costs the reader nothing but a reply they cannot read,
 * which they mend with `set language`.  Dates in words are the reader's
 * calendar's (server_set_local()). */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "render/render.h"
#include "server/clock.h"

struct template_set *server_lang_set(const struct server *srv,
				     const char *lang)
{
	struct template_set *ts = NULL;

	if (lang != NULL && lang[0] != '\0')
		ts = template_set_language(srv->cfg.templates, lang);
	return ts != NULL ? ts : server_default_set(srv);
}

int server_write_to(struct handle *h, int64_t player_id)
{
	struct store_settings s;
	const char *error;

	if (player_id == 0) {
		h->ts = server_lang_set(h->srv, NULL);
		return 0;
	}
	if (store_settings_get(h->srv->store, player_id, &s, &error) < 0)
		return server_store_fail(h, error);
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

int server_write_to_sender(struct handle *h)
{
	const char *lang = server_lang_of_mail(h);
	struct store_player *p = NULL;
	const char *error;
	int r;

	/* The From: is not verified, but a reply goes to it whatever its
	 * language: the address's player reads their own words (a mail
	 * of theirs refused as a whole, unsigned or unreadable), and a
	 * forger gains nothing by it. */
	if (lang != NULL || h->msg == NULL || h->msg->from_address == NULL) {
		h->ts = server_lang_set(h->srv, lang);
		return 0;
	}
	r = store_player_by_address(h->srv->store, h->msg->from_address, &p,
				    &error);
	if (r < 0)
		return server_store_fail(h, error);
	r = server_write_to(h, r == 1 ? p->id : 0);
	store_player_free(&p);
	return r;
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

int server_set_local(struct handle *h, struct template_ctx *ctx,
		     const char *key, int64_t t, const char *zone)
{
	struct render_date d;
	struct tm tm;
	char abbr[16], when[80], long_key[64];
	struct buf words = BUF_INIT;
	const char *error;

	if (clock_format_local(t, zone, when, sizeof(when)) < 0 ||
	    clock_local_parts(t, zone, &tm, abbr, sizeof(abbr)) < 0)
		return 0; /* no such time: the mail says nothing of it */
	template_ctx_set(ctx, key, when);
	d.year = tm.tm_year + 1900;
	d.month = tm.tm_mon + 1;
	d.day = tm.tm_mday;
	d.weekday = tm.tm_wday == 0 ? 7 : tm.tm_wday;
	d.hour = tm.tm_hour;
	d.minute = tm.tm_min;
	d.zone = abbr;
	if (render_date(h->ts, &d, &words, &error) < 0) {
		snprintf(h->srv->errbuf, sizeof(h->srv->errbuf), "%s", error);
		h->error = h->srv->errbuf;
		buf_free(&words);
		return -1;
	}
	snprintf(long_key, sizeof(long_key), "%s_long", key);
	template_ctx_set(ctx, long_key, buf_str(&words));
	buf_free(&words);
	return 0;
}
