/* settings.c -- the commands about what a player chose: `set KEY VALUE`
 * (confirm on|off, pictures png|svg|none, moves full|short|none, digest
 * on|off, reminders on|off, timezone ZONE, standings on|off, summary
 * off|daily HH:MM, language en|de|...) and `settings`, which lists
 * them.  The keys and words are the
 * store's (store_setting_*); the mails honour them in recipient.c. */
#include "server/server_private.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The flag naming key's value in s ("now_confirm_off"), for the
 * template to say what the setting does now. */
static void settings_flag(const struct store_settings *s,
			  enum store_setting_key key, const char *prefix,
			  struct template_ctx *ctx)
{
	char flag[64];

	/* A summary's word has its time: the flag is now_summary_daily or
	 * now_summary_off, and summary_time the time. */
	if (key == STORE_SETTING_SUMMARY) {
		snprintf(flag, sizeof(flag), "%ssummary_%s", prefix,
			 s->summary_at < 0 ? "off" : "daily");
		if (s->summary_at >= 0)
			template_ctx_setf(ctx, "summary_time", "%02d:%02d",
					  s->summary_at / 60,
					  s->summary_at % 60);
	} else if (key == STORE_SETTING_TIMEZONE ||
		   key == STORE_SETTING_LANGUAGE)
		snprintf(flag, sizeof(flag), "%s%s", prefix,
			 store_setting_name(key));
	else
		snprintf(flag, sizeof(flag), "%s%s_%s", prefix,
			 store_setting_name(key), store_setting_word(s, key));
	template_ctx_set_bool(ctx, flag, true);
}

int settings_set(struct handle *h, const struct command *c, struct game *g,
		 struct template_ctx *out)
{
	const struct command_option *o = &c->options[0];
	struct store_settings s;
	enum store_setting_key key;
	const char *error;
	char was[STORE_TIMEZONE_MAX + sizeof("daily 00:00")];

	(void)g;
	if (store_setting_parse_key(o->key, &key) < 0) {
		server_refuse(h, "unknown_setting");
		template_ctx_set(h->refusal, "key", o->key);
		return REFUSED;
	}
	/* A zone is a name of the tz database: one that does not exist is
	 * refused, not stored to be read as UTC. */
	if (key == STORE_SETTING_TIMEZONE && strcasecmp(o->value, "utc") != 0 &&
	    clock_zone_check(o->value, NULL) < 0) {
		server_refuse(h, "bad_timezone");
		template_ctx_set(h->refusal, "value", o->value);
		return REFUSED;
	}
	/* A language is one the club has templates for. */
	if (key == STORE_SETTING_LANGUAGE &&
	    strcasecmp(o->value, "default") != 0 &&
	    template_set_language(h->srv->cfg.templates, o->value) == NULL) {
		struct buf choices = BUF_INIT;

		server_lang_choices(h->srv, &choices);
		server_refuse(h, "bad_setting_value");
		template_ctx_set(h->refusal, "key", store_setting_name(key));
		template_ctx_set(h->refusal, "value", o->value);
		template_ctx_set(h->refusal, "choices", buf_str(&choices));
		buf_free(&choices);
		return REFUSED;
	}
	if (server_recipient_settings(h, h->me->id, &s) < 0)
		return -1;
	/* A copy: a zone's or a summary's word points into s. */
	snprintf(was, sizeof(was), "%s", store_setting_word(&s, key));
	/* A summary's time: refused saying what is missing or wrong. */
	if (key == STORE_SETTING_SUMMARY &&
	    store_setting_parse_value(&s, key, o->value) < 0) {
		bool daily = strncasecmp(o->value, "daily ", 6) == 0;

		server_refuse(h, strcasecmp(o->value, "daily") == 0 ?
			      "summary_no_time" : daily ? "bad_summary" :
			      "summary_form");
		template_ctx_set(h->refusal, "value",
				 daily ? o->value + 6 : o->value);
		return REFUSED;
	}
	if (store_setting_parse_value(&s, key, o->value) < 0) {
		server_refuse(h, "bad_setting_value");
		template_ctx_set(h->refusal, "key", store_setting_name(key));
		template_ctx_set(h->refusal, "value", o->value);
		template_ctx_set(h->refusal, "choices",
				 store_setting_choices(key));
		return REFUSED;
	}
	/* Stored even when unchanged: `updated` says when the player last
	 * chose. */
	if (store_settings_set(h->srv->store, h->me->id, &s, h->now,
			       &error) < 0)
		return server_store_fail(h, error);
	/* A new language holds from this line on: its own answer and the
	 * rest of the reply are in the words just chosen. */
	if (key == STORE_SETTING_LANGUAGE && server_write_to(h, h->me->id) < 0)
		return -1;
	template_ctx_set(out, "key", store_setting_name(key));
	template_ctx_set(out, "value", store_setting_word(&s, key));
	template_ctx_set_bool(out, "unchanged",
			      strcmp(was, store_setting_word(&s, key)) == 0);
	settings_flag(&s, key, "now_", out);
	return 0;
}

int settings_show(struct handle *h, const struct command *c, struct game *g,
		  struct template_ctx *out)
{
	struct store_settings s;

	(void)c;
	(void)g;
	if (server_recipient_settings(h, h->me->id, &s) < 0)
		return -1;
	for (int k = 0; k < STORE_SETTING_COUNT; k++) {
		char name[40];

		snprintf(name, sizeof(name), "setting_%s",
			 store_setting_name((enum store_setting_key)k));
		template_ctx_set(out, name,
				 store_setting_word(&s, (enum store_setting_key)k));
		settings_flag(&s, (enum store_setting_key)k, "now_", out);
	}
	return 0;
}
