/* clock_private.h -- what clock.c and clock_zone.c share.  Not for use
 * outside src/server.
 *
 * The files, each calling only the ones below it:
 *   clock.c       names, faults, time controls, one game's clocks,
 *                 pauses and the vacation bank: all of clock.h but
 *                 clock_zone_check;
 *   clock_zone.c  time zones, local days, weekends and the chargeable
 *                 time of a turn (what clock.c asks of a turn's clock).
 */
#ifndef ASHES_SERVER_CLOCK_PRIVATE_H
#define ASHES_SERVER_CLOCK_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "server/clock.h"

/* Fill *fault_r (if any); always -1, for `return fault(...)`. */
static inline int fault(struct clock_fault *fault_r, enum clock_error error,
			int64_t value, int64_t min, int64_t max)
{
	if (fault_r != NULL) {
		fault_r->error = error;
		fault_r->value = value;
		fault_r->min = min;
		fault_r->max = max;
	}
	return -1;
}

static inline void fault_clear(struct clock_fault *fault_r)
{
	if (fault_r != NULL)
		memset(fault_r, 0, sizeof(*fault_r));
}

/* The zone a computation runs in: TZ set to the zone's file for the
 * length of one public call, then restored.  A "" zone is UTC, done by
 * arithmetic without touching TZ. */
struct zone_scope {
	bool active;
	char *saved; /* TZ before, or NULL if unset */
};

/* What the computations need of one player's turn. */
struct turn_view {
	const struct clock_player *player;
	bool weekends_off;
	struct zone_scope scope;
};

/* Enter the view of side's turn in s: TZ set to the player's zone if
 * weekends are off.  Always to be left with clock_zone_view_leave. */
void clock_zone_view_enter(struct turn_view *v, const struct clock_state *s,
			   enum core_color side);
/* Restore TZ as it was before clock_zone_view_enter. */
void clock_zone_view_leave(struct turn_view *v);
/* Chargeable seconds of the viewed player over [from, to). */
int64_t clock_zone_chargeable(const struct turn_view *v, int64_t from,
			      int64_t to);
/* The first moment at which the viewed player, from start on, has been
 * charged need seconds (start itself if need <= 0); CLOCK_NEVER if an
 * endless pause comes first. */
int64_t clock_zone_charged_by(const struct turn_view *v, int64_t start,
			      int64_t need);

#endif
