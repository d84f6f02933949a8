/* store_health.h -- what the store keeps of the daemon's own health
 * (sql/NNN-daemon-health.sql) and reads for `ashes status`: the row the
 * mail loop writes at the end of every turn (its pid, heartbeat, last
 * mailbox contact, mails waiting), and the counts other tables already
 * hold (replies unsent and failed, mails set aside in the quarantine).  Conventions as store.h:
 * 0 / -1 with *error_r, 1 for "found" where a row may be missing. */
#ifndef ASHES_STORE_HEALTH_H
#define ASHES_STORE_HEALTH_H

#include <stdint.h>

#include "store/store.h"

/* The outcome the daemon records for a mail it set aside after it failed
 * too often (daemon/loop_batch.c writes it after the service's
 * "ignored: "): how the quarantined mails are counted. */
#define STORE_HEALTH_QUARANTINED "quarantined after"

/* The daemon's row.  mailbox_contact 0: no contact yet; mailbox_waiting
 * -1: not looked yet.  pid 0: it stopped cleanly (heartbeat: when). */
struct store_health {
	int64_t pid;
	int64_t started;
	int64_t heartbeat;
	int64_t mailbox_contact;
	int64_t mailbox_waiting;
};

/* Write the row (one UPSERT: insert or replace).  -1 with
 * STORE_ERROR_USAGE for a negative pid. */
int store_health_set(struct store *store, const struct store_health *h,
		     const char **error_r);
/* The row: 1 and *h_r, or 0 when no daemon wrote it yet (*h_r zeroed,
 * mailbox_waiting -1). */
int store_health_get(struct store *store, struct store_health *h_r,
		     const char **error_r);

/* What the other tables say, counted since `since` (epoch seconds). */
struct store_health_counts {
	int64_t unsent;          /* replies queued, not sent, not failed */
	int64_t oldest_unsent;   /* the oldest one's created; 0: none */
	int64_t failed;          /* replies that failed for good since */
	int64_t quarantined;     /* mails set aside since (received) */
};
/* 0 and *c_r, or -1. */
int store_health_counts(struct store *store, int64_t since,
			struct store_health_counts *c_r, const char **error_r);

#endif
