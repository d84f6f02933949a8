/* settings.h -- the config, translated into the settings structs of the
 * layers the mail loop drives (mail source, SMTP sender, inbound parser,
 * game server), so neither the mail loop nor `ashes` (which opens the
 * service over the same store) repeats the mapping.
 *
 * Every string in a filled struct points into cfg: valid until cfg is
 * freed or replaced (i.e. until the next reload).  Nothing is allocated
 * but what settings_server_done() frees.
 */
#ifndef ASHES_CONFIG_SETTINGS_H
#define ASHES_CONFIG_SETTINGS_H

#include "config/club_config.h"
#include "mail/inbound.h"
#include "mail/smtp.h"
#include "mail/source.h"
#include "server/server.h"

/* The mailbox source: backend "imap" or "dir" as [source] type says.
 * [imap] starttls = optional maps to required: the IMAP client has no
 * opportunistic mode, and the stricter choice is the safe one. */
void settings_mail_source(const struct config *cfg,
			  struct mail_source_settings *set_r);

/* The SMTP sender.  Only meaningful when cfg->smtp.server.url is set. */
void settings_smtp(const struct config *cfg, struct smtp_settings *set_r);

/* The club's domain, as archives and exports name it: that of our
 * Message-IDs ([smtp] domain), else of [smtp] from; "" if neither. */
void settings_site(const struct config *cfg, char *site, size_t len);

/* The inbound parser's limits and our own addresses.  our_addrs is the
 * caller's array of at least 2 slots, filled and NULL-terminated; now,
 * pgp and import_keys are left for the caller. */
void settings_inbound(const struct config *cfg, const char **our_addrs,
		      struct inbound_options *opts_r);

/* The fields of a server config that the daemon's config decides (the
 * clocks' -- [game] clock and weekends, [clock] -- and the club's
 * competitions and ratings -- [ladder NAME], [league NAME], [ratings] --
 * included); the caller starts from server_config_default() and sets
 * templates.  The competitions' arrays are allocated (free them with
 * settings_server_done() once server_new() copied them); their strings
 * stay cfg's, which must outlive the server. */
void settings_server(const struct config *cfg, struct server_config *set);

/* Free what settings_server() allocated in set. */
void settings_server_done(struct server_config *set);

#endif
