/* mailbox.c -- the service's record of the mailbox it reads: where the
 * loop stopped (UIDVALIDITY and last UID per source), and the failed
 * attempts at a mail, so that one that crashes or fails every time is set
 * aside instead of blocking the others.  The loop keeps no state of its
 * own in the store: it asks the service. */
#include "server/server_private.h"

int server_mailbox_state(struct server *server, const char *source,
			 uint32_t *uidvalidity_r, uint32_t *last_uid_r,
			 const char **error_r)
{
	*uidvalidity_r = 0;
	*last_uid_r = 0;
	return store_mailbox_state_get(server->store, source, uidvalidity_r,
				       last_uid_r, error_r) < 0 ? -1 : 0;
}

int server_mailbox_save(struct server *server, const char *source,
			uint32_t uidvalidity, uint32_t last_uid, int64_t now,
			const char **error_r)
{
	return store_mailbox_state_set(server->store, source, uidvalidity,
				       last_uid, now, error_r);
}

int server_attempt_count(struct server *server, const char *source,
			 uint32_t uidvalidity, uint32_t uid, const char *why,
			 int64_t now, long *attempts_r, const char **error_r)
{
	long attempts = 0;
	int r = store_attempt_hit(server->store, source, uidvalidity, uid, why,
				  now, &attempts, error_r);

	if (attempts_r != NULL)
		*attempts_r = attempts;
	return r < 0 ? -1 : 0;
}

int server_attempts(struct server *server, const char *source,
		    uint32_t uidvalidity, uint32_t uid, long *attempts_r,
		    char **why_r, const char **error_r)
{
	*attempts_r = 0;
	*why_r = NULL;
	return store_attempt_get(server->store, source, uidvalidity, uid,
				 attempts_r, why_r, error_r) < 0 ? -1 : 0;
}

int server_attempts_forget(struct server *server, const char *source,
			   uint32_t uidvalidity, uint32_t uid,
			   const char **error_r)
{
	return store_attempt_clear(server->store, source, uidvalidity, uid,
				   error_r);
}
