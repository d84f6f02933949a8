/* settings.c -- config -> layer settings; see settings.h. */
#include <config.h> /* autoconf's: _GNU_SOURCE */

#include "daemon/settings.h"

#include <limits.h>
#include <string.h>

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
}
