/* settings.c -- config -> layer settings; see settings.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "config/settings.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void settings_clock(const struct config *cfg,
			   struct server_clock_config *set);
static void settings_clubs(const struct config *cfg, struct server_config *set);

/* The layers below take unsigned int milliseconds. */
static unsigned int settings_ms(uint64_t ms)
{
	return ms > UINT_MAX ? UINT_MAX : (unsigned int)ms;
}

void settings_mail_source(const struct config *cfg,
			  struct mail_source_settings *set_r)
{
	const struct config_server *srv = &cfg->imap.server;

	memset(set_r, 0, sizeof(*set_r));
	set_r->poll_ms = settings_ms(cfg->imap.poll_interval_ms);
	set_r->backoff_max_ms = settings_ms(cfg->imap.reconnect_max_ms);
	set_r->no_idle = !cfg->imap.idle;
	if (cfg->source.type == CONFIG_SOURCE_MAILDIR) {
		set_r->backend = "dir";
		set_r->path = cfg->source.maildir;
		return;
	}
	set_r->backend = "imap";
	set_r->host = srv->host;
	set_r->port = srv->port;
	if (srv->implicit_tls)
		set_r->tls = MAIL_TLS_IMPLICIT;
	else if (srv->starttls == CONFIG_STARTTLS_NO)
		set_r->tls = MAIL_TLS_NONE;
	else
		set_r->tls = MAIL_TLS_STARTTLS;
	set_r->ca_file = srv->ca_file;
	set_r->tls_no_verify = !srv->tls_verify;
	set_r->auth = cfg->imap.auth == CONFIG_IMAP_AUTH_PLAIN
		? MAIL_SOURCE_AUTH_PLAIN : MAIL_SOURCE_AUTH_LOGIN;
	set_r->user = srv->user;
	set_r->password = srv->password;
	set_r->mailbox = cfg->imap.mailbox;
	set_r->archive = cfg->imap.archive_folder;
	set_r->quarantine = cfg->imap.quarantine_folder;
	set_r->timeout_ms = settings_ms(srv->timeout_ms);
}

void settings_smtp(const struct config *cfg, struct smtp_settings *set_r)
{
	const struct config_server *srv = &cfg->smtp.server;

	memset(set_r, 0, sizeof(*set_r));
	set_r->host = srv->host;
	set_r->port = srv->port;
	if (srv->implicit_tls)
		set_r->security = SMTP_IMPLICIT_TLS;
	else if (srv->starttls == CONFIG_STARTTLS_NO)
		set_r->security = SMTP_PLAIN;
	else if (srv->starttls == CONFIG_STARTTLS_OPTIONAL)
		set_r->security = SMTP_STARTTLS_OPTIONAL;
	else
		set_r->security = SMTP_STARTTLS_REQUIRED;
	set_r->ca_file = srv->ca_file;
	set_r->tls_no_verify = !srv->tls_verify;
	set_r->user = srv->user;
	set_r->password = srv->user != NULL ? srv->password : NULL;
	set_r->helo_name = cfg->smtp.helo_name;
	set_r->timeout_ms = settings_ms(srv->timeout_ms);
}

void settings_inbound(const struct config *cfg, const char **our_addrs,
		      struct inbound_options *opts_r)
{
	memset(opts_r, 0, sizeof(*opts_r));
	our_addrs[0] = cfg->smtp.from;
	our_addrs[1] = NULL;
	opts_r->our_addrs = our_addrs;
	opts_r->max_size = (size_t)cfg->limits.max_message_size;
	opts_r->max_age = (long)(cfg->gpg.max_signature_age_ms / 1000);
	/* 0 means "the default" to the parser: a configured 0 must stay 0,
	 * so ask for the smallest non-zero window instead. */
	opts_r->max_future = cfg->gpg.max_future_skew_ms >= 1000
		? (long)(cfg->gpg.max_future_skew_ms / 1000) : 1;
}

void settings_server(const struct config *cfg, struct server_config *set)
{
	set->domain = cfg->smtp.domain;
	set->default_variant = cfg->game.variant;
	set->max_listed_moves = cfg->game.max_listed_moves;
	/* The mail parser stops at COMMAND_MAX lines whatever this says. */
	set->max_commands = cfg->limits.max_commands;
	set->sender_rate_limit = cfg->limits.sender_rate_limit;
	set->registrations_per_hour = cfg->limits.registrations_per_hour;
	set->our_address = cfg->smtp.from;
	set->require_signature = cfg->gpg.require_signature;
	settings_clock(cfg, &set->clock);
	settings_clubs(cfg, set);
	/* [bot]: its strings stay the config's, as the clubs' do. */
	set->bot.enabled = cfg->bot.enabled;
	set->bot.name = cfg->bot.name;
	set->bot.levels = cfg->bot.levels;
	set->bot.max_games = cfg->bot.max_games;
	set->bot.rated = cfg->bot.rated;
	set->bot.delay = (int64_t)(cfg->bot.delay_ms / 1000);
	set->bot.think_ms = (int64_t)cfg->bot.think_ms;
	set->bot.max_games_per_player = cfg->bot.max_games_per_player;
	set->bot.clock = cfg->bot.clock;
	set->limits.mails_per_hour = cfg->limits.mails_per_hour;
	set->limits.bytes_per_hour = cfg->limits.bytes_per_hour;
	set->limits.hints_per_hour = cfg->limits.hints_per_hour;
	set->limits.challenges_per_day = cfg->limits.challenges_per_day;
	set->limits.open_challenges = cfg->limits.open_challenges;
}

/* A competition's common part: its strings stay the config's. */
static void settings_club(const struct config_club *c, const char *where,
			  struct server_club *set)
{
	set->name = c->name;
	set->where = where;
	set->members = (const char *const *)c->members.names;
	set->nmembers = c->members.count;
	set->open = c->open;
	set->variant = c->variant;
	set->clock = c->clock;
	set->weekends_off = !c->weekends;
	set->rated = c->rated;
}

static int64_t settings_seconds(uint64_t ms)
{
	return (int64_t)(ms / 1000);
}

/* [tournament NAME] sections: the event's rules as tournament.h has
 * them. */
static void settings_tournaments(const struct config *cfg,
				 struct server_config *set)
{
	struct server_tournament *list = NULL;

	if (cfg->ntournaments > 0)
		list = xzalloc(cfg->ntournaments * sizeof(*list));
	for (size_t i = 0; i < cfg->ntournaments; i++) {
		const struct config_tournament *c = &cfg->tournaments[i];
		struct server_tournament *t = &list[i];

		settings_club(&c->club, c->club.file, &t->club);
		tournament_rules_default((enum tournament_format)c->format,
					 &t->rules);
		t->rules.rounds = (int)c->rounds;
		t->rules.twice = c->twice;
		t->rules.bye_points = c->bye_points;
		for (size_t k = 0; k < c->ntiebreaks; k++)
			t->rules.tiebreaks[k] =
				(enum tournament_tiebreak)c->tiebreaks[k];
		t->rules.ntiebreaks = c->ntiebreaks;
		t->start = c->start;
		t->signup_until = c->signup_until != 0 ? c->signup_until
						       : c->start;
		t->max_players = c->max_players;
		t->round_deadline = settings_seconds(c->round_deadline_ms);
		t->standings_mail = c->standings_mail;
	}
	set->tournaments = list;
	set->ntournaments = cfg->ntournaments;
}

static void settings_clubs(const struct config *cfg, struct server_config *set)
{
	struct server_ladder *ladders = NULL;
	struct server_league *leagues = NULL;

	set->rating.tau = cfg->ratings.tau;
	set->rating.period_days = (double)cfg->ratings.period_ms / 86400000.0;
	if (cfg->nladders > 0)
		ladders = xzalloc(cfg->nladders * sizeof(*ladders));
	for (size_t i = 0; i < cfg->nladders; i++) {
		const struct config_ladder *c = &cfg->ladders[i];
		struct server_ladder *l = &ladders[i];

		settings_club(&c->club, c->club.file, &l->club);
		ladder_rules_default(&l->rules);
		l->rules.challenge_range = (int)c->challenge_range.n;
		l->rules.range_percent = c->challenge_range.percent;
		l->rules.max_out = (int)c->max_out;
		l->rules.max_in = (int)c->max_in;
		l->rules.rematch_wait = settings_seconds(c->rematch_wait_ms);
		l->rules.accept_within = settings_seconds(c->accept_within_ms);
		l->rules.time_loss_drop = (int)c->time_loss_drop;
		l->rules.absence_withdraw =
			settings_seconds(c->absence_withdraw_ms);
		l->standings_mail = c->standings_mail;
	}
	if (cfg->nleagues > 0)
		leagues = xzalloc(cfg->nleagues * sizeof(*leagues));
	for (size_t i = 0; i < cfg->nleagues; i++) {
		const struct config_league *c = &cfg->leagues[i];
		struct server_league *l = &leagues[i];

		settings_club(&c->club, c->club.file, &l->club);
		league_rules_default(&l->rules);
		l->rules.group_size = (int)c->group_size;
		l->rules.promote = (int)c->promote;
		l->rules.relegate = (int)c->relegate;
		l->rules.season_start = c->season_start;
		l->rules.season_length = settings_seconds(c->season_length_ms);
	}
	settings_tournaments(cfg, set);
	set->ladders = ladders;
	set->nladders = cfg->nladders;
	set->leagues = leagues;
	set->nleagues = cfg->nleagues;
}

void settings_server_done(struct server_config *set)
{
	free((void *)set->ladders);
	free((void *)set->leagues);
	free((void *)set->tournaments);
	set->ladders = NULL;
	set->leagues = NULL;
	set->tournaments = NULL;
	set->nladders = set->nleagues = set->ntournaments = 0;
}

_Static_assert(CONFIG_REMINDERS_MAX <= SERVER_REMINDERS_MAX,
	       "the config allows more reminders than the service holds");

static void settings_clock(const struct config *cfg,
			   struct server_clock_config *set)
{
	const struct config_clock *c = &cfg->clock;

	set->default_clock = cfg->game.clock;
	set->default_weekends_off = !cfg->game.weekends;
	memset(set->reminder_hours, 0, sizeof(set->reminder_hours));
	for (unsigned i = 0; i < c->reminders.count; i++)
		set->reminder_hours[i] = (int)c->reminders.hours[i];
	set->nreminders = c->reminders.count;
	set->vacation.start_days = (int)c->vacation_start;
	set->vacation.earn_per_year = (int)c->vacation_earn;
	set->vacation.cap_days = (int)c->vacation_cap;
	set->auto_vacation = c->auto_vacation;
	set->manual_claim = c->timeout_claim == CONFIG_TIMEOUT_CLAIM_MANUAL;
	set->outage_grace = (int64_t)(c->outage_grace_ms / 1000);
}
