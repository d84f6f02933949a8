/* imap_replay.c -- the "imap" source reading a folder back by date: the
 * replay after a restore (the archive folder's messages received since
 * the backup, handed out once, left in place) and the search the Sent
 * folder's check uses (imap_sent.c).
 *
 * IMAP's SEARCH SINCE takes a day, in the server's zone: the search asks
 * from the day before, and the INTERNALDATE of each message found is then
 * compared to the second.  Bounded: a replay hands out at most replay_max
 * messages (the first ones by UID; the rest are counted, not read).
 */
#include "config.h"

#include "mail/imap_private.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int imap_uids_since(struct imap_source *is, int64_t since, uint32_t **uids_r,
		    size_t *n_r, const char **error_r)
{
	struct mailimap_search_key *key;
	struct mailimap_fetch_type *ft;
	struct mailimap_set *set;
	clist *found = NULL, *result = NULL;
	uint32_t *uids = NULL;
	size_t n = 0, cap = 0;
	time_t day = (time_t)(since - 86400);
	struct tm tm;
	clistiter *it;
	int r;

	*uids_r = NULL;
	*n_r = 0;
	if (gmtime_r(&day, &tm) == NULL) {
		*error_r = mail_source_error(&is->src, "bad replay time");
		return -1;
	}
	key = mailimap_search_key_new_since(
		mailimap_date_new(tm.tm_mday, tm.tm_mon + 1,
				  tm.tm_year + 1900));
	r = mailimap_uid_search(is->imap, NULL, key, &found);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID SEARCH SINCE", r, error_r);
		return -1;
	}
	if (clist_begin(found) == NULL) {
		mailimap_search_result_free(found);
		return 0;
	}
	set = mailimap_set_new_empty();
	for (it = clist_begin(found); it != NULL; it = clist_next(it))
		mailimap_set_add_single(set, *(uint32_t *)clist_content(it));
	mailimap_search_result_free(found);
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(ft,
						   mailimap_fetch_att_new_uid());
	mailimap_fetch_type_new_fetch_att_list_add(
		ft, mailimap_fetch_att_new_internaldate());
	r = mailimap_uid_fetch(is->imap, set, ft, &result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		imap_failed(is, "UID FETCH INTERNALDATE", r, error_r);
		return -1;
	}
	for (it = clist_begin(result); it != NULL; it = clist_next(it)) {
		struct mailimap_msg_att_static *st =
			imap_msg_static(clist_content(it), MAILIMAP_MSG_ATT_UID);
		int64_t when = imap_msg_received(clist_content(it));

		/* a date the server cannot tell: read it (a duplicate
		 * changes nothing) rather than lose it */
		if (st != NULL && (when == 0 || when >= since))
			imap_uid_push(&uids, &n, &cap, st->att_data.att_uid);
	}
	mailimap_fetch_list_free(result);
	if (n > 1)
		qsort(uids, n, sizeof(*uids), imap_uid_cmp);
	*uids_r = uids;
	*n_r = n;
	return 0;
}

int imap_replay_scan(struct imap_source *is, const char **error_r)
{
	is->n_pending = 0;
	if (!is->replay_scanned) {
		uint32_t *uids = NULL;
		size_t n = 0;

		if (imap_uids_since(is, is->replay_since, &uids, &n,
				    error_r) < 0)
			return -1;
		is->replay_scanned = true;
		if (n > is->replay_max) {
			is->replay_cut = n - is->replay_max;
			n = is->replay_max;
		}
		is->replay_uids = uids;
		is->n_replay = n;
	}
	/* Again after a wait: what was handed out but not handled. */
	for (size_t i = 0; i < is->n_replay; i++)
		if (is->replay_uids[i] > is->cursor)
			imap_uid_push(&is->pending, &is->n_pending,
				      &is->cap_pending, is->replay_uids[i]);
	return 0;
}

bool mail_source_replay_status(const struct mail_source *src, size_t *left_r,
			       size_t *cut_r)
{
	const struct imap_source *is = (const struct imap_source *)src;
	size_t left = 0;

	*left_r = 0;
	*cut_r = 0;
	if (src == NULL || src->v != &mail_source_imap || !is->replay_scanned)
		return false;
	for (size_t i = 0; i < is->n_replay; i++)
		if (is->replay_uids[i] > src->state.last_uid)
			left++;
	*left_r = left;
	*cut_r = is->replay_cut;
	return true;
}
