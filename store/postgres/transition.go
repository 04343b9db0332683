package postgres

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// current is what Transition reads of a booking before changing it.
type current struct {
	propertyID int64
	unitID     int64
	status     booking.Status
	stay       civil.Range
	expiresAt  time.Time
	blocking   bool
}

// lockBooking reads a booking's current state and locks its row until the
// transaction ends. Errors: CodeNotFound.
func lockBooking(ctx context.Context, q querier, id int64) (*current, error) {
	return sqlflow.One(ctx, q, func(c rowmap.Codec, s rowmap.Scanner) (*current, error) {
		var cur current
		return &cur, rowmap.Scan(s, &cur.propertyID, &cur.unitID, (*string)(&cur.status), c.Day(&cur.stay.Start),
			c.Day(&cur.stay.End), c.Instant(&cur.expiresAt), &cur.blocking)
	}, bookingNotFound(), `SELECT property_id, unit_id, status, check_in, check_out, expires_at, blocking
		FROM bookings WHERE id = $1 FOR NO KEY UPDATE`, id)
}

// claims reports whether a booking going to status to, with expiry
// expires, claims its nights after transition t (the blocking column):
// requested and confirmed always do; pending only while unexpired, and
// only if it had a claim already or t.ClaimDates makes one.
func claims(to booking.Status, expires time.Time, t booking.Transition, had bool) bool {
	switch to {
	case booking.StatusRequested, booking.StatusConfirmed:
		return true
	case booking.StatusPending:
		return (had || t.ClaimDates) && expires.After(t.At)
	}
	return false
}

// Transition moves a booking from one of t.From to t.To in one transaction
// ending in one conditional UPDATE (WHERE status = ANY(t.From)), so that
// concurrent confirm, webhook and sweeper calls, from any replica, cannot
// apply it twice. When the booking goes to a status that holds dates, the
// transaction first locks the property's row, like CreateBooking, and
// releases lapsed pending holds on the stay; with t.ClaimDates it then
// checks that no other booking holding dates at t.At and no block overlaps
// the stay on the booking's unit, nor on a linked property (whose rows
// lockProperty locks too), and, when the booking does not hold its dates
// at t.At (a late payment's re-claim), checks them as CreateBooking checks
// a new stay: the stay widened by t's preparation days (t.Guarded) and no
// night closed (t.ClosedNight), under the property's row lock that every
// write able to make them fail takes; the booking keeps its unit when it
// is free, else takes the best fit of the others (claimDates). The exclusion constraint refuses an overlap in any
// case, also without t.ClaimDates. It sets UpdatedAt to t.At, ConfirmedAt to t.At when
// t.Confirmed, and ExpiresAt and PaidAmount when given, and returns the
// updated booking. Errors: CodeNotFound; CodeConflict when the status is
// not in t.From (or, with t.OnlyExpired, the hold has not lapsed);
// CodeUnavailable.
func (db *DB) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	holding := slices.Contains(booking.HoldingStatuses, t.To)
	return sqlflow.Get(ctx, db.tx, "transition", func(q querier) (*booking.Booking, error) {
		if holding || t.ClaimDates {
			// Property first, then booking: the order CreateBooking takes
			// them in (it locks lapsed holds when it releases them), so
			// the two cannot deadlock.
			propertyID, err := sqlflow.Value[int64](ctx, q, bookingNotFound(), `SELECT property_id FROM bookings WHERE id = $1`, id)
			if err != nil {
				return nil, err
			}
			if err := lockProperty(ctx, q, 0, propertyID); err != nil {
				return nil, err
			}
		}
		cur, err := lockBooking(ctx, q, id)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(t.From, cur.status) || (t.OnlyExpired && (cur.expiresAt.IsZero() || cur.expiresAt.After(t.At))) {
			return nil, conflict(cur.status, t.To)
		}
		expires := cur.expiresAt
		if t.ExpiresAt != nil {
			expires = *t.ExpiresAt
		}
		blocking := claims(t.To, expires, t, cur.blocking)
		if t.ClaimDates || (blocking && !cur.blocking) {
			if err := releaseLapsed(ctx, q, cur.propertyID, cur.stay, t.At, id); err != nil {
				return nil, err
			}
		}
		unit := cur.unitID
		if t.ClaimDates {
			if unit, err = claimDates(ctx, q, id, cur, t); err != nil {
				return nil, err
			}
		}

		set := []string{`status = $1`, `updated_at = $2`, `blocking = $3`}
		args := []any{string(t.To), t.At, blocking}
		add := func(column string, v any) {
			args = append(args, v)
			set = append(set, column+` = $`+strconv.Itoa(len(args)))
		}
		if unit != cur.unitID {
			add(`unit_id`, unit)
		}
		if t.ExpiresAt != nil {
			add(`expires_at`, instant(*t.ExpiresAt))
		}
		if t.PaidAmount != nil {
			add(`paid_amount`, *t.PaidAmount)
		}
		if t.Confirmed {
			add(`confirmed_at`, t.At)
		}
		args = append(args, id, statusNames(t.From))
		where := `id = $` + strconv.Itoa(len(args)-1) + ` AND status = ANY($` + strconv.Itoa(len(args)) + `)`
		if t.OnlyExpired {
			args = append(args, t.At)
			where += ` AND expires_at <= $` + strconv.Itoa(len(args))
		}
		// No row is unreachable while this transaction holds the row lock;
		// kept so the update stays conditional whatever the locking.
		updated, err := sqlflow.One(ctx, q, rowmap.ScanBooking, conflict(cur.status, t.To), `UPDATE bookings SET `+
			strings.Join(set, `, `)+` WHERE `+where+` RETURNING `+bookingColumns, args...)
		if sqlState(err) == exclusionViolation {
			return nil, unavailable()
		}
		if err != nil {
			return nil, err
		}
		if len(t.Record) > 0 {
			entries, err := booking.PrepareLedger(t.Record, id, t.At)
			if err != nil {
				return nil, err
			}
			if err := recordLedger(ctx, q, entries); err != nil {
				return nil, err
			}
		}
		if len(t.Outbox) > 0 {
			events, err := outbox.PrepareEvents(t.Outbox, id, t.At)
			if err != nil {
				return nil, booking.Invalid(err)
			}
			if err := recordOutbox(ctx, q, events); err != nil {
				return nil, err
			}
		}
		return updated, nil
	})
}

// stayUnit returns the unit booking id, on unit own, holds stay on at now,
// in q (a transaction holding the property's row lock and its linked
// properties'): nothing of the whole property overlaps guarded, and its
// own unit is free for it, or, when move is set and it is taken or
// retired, the best fit of the others (claimUnit) — of allowed, when not
// nil (booking.DateGuard.Units). Errors: CodeUnavailable.
func stayUnit(ctx context.Context, q querier, propertyID, own int64, stay, guarded civil.Range, now time.Time, id int64, move bool, allowed []int64) (int64, error) {
	unit, ok, err := claimUnit(ctx, q, propertyID, own, stay, guarded, now, id, allowed)
	if err == nil && !ok && move {
		unit, ok, err = claimUnit(ctx, q, propertyID, 0, stay, guarded, now, id, allowed)
	}
	if err != nil || !ok {
		return 0, unavailableIf(!ok, err)
	}
	return unit, nil
}

// claimDates checks, in q (a transaction holding the property's row lock
// and its linked properties'), that the stay of booking id is free for it
// at t.At on its unit: no other booking holding dates then nor any block
// overlaps it there, nor on a linked property. When the booking does not
// hold its dates at t.At (its hold lapsed), it takes them back as a
// checkout would: t.DateGuard applies too, and when its unit is taken
// meanwhile, it takes the best fit of the others. It returns the unit the
// booking holds. Errors: CodeUnavailable.
func claimDates(ctx context.Context, q querier, id int64, cur *current, t booking.Transition) (int64, error) {
	reclaim := !booking.Booking{Status: cur.status, ExpiresAt: cur.expiresAt}.HoldsDates(t.At)
	guarded := cur.stay
	if reclaim {
		guarded = t.Guarded(cur.stay)
	}
	// A booking holding its dates keeps its unit, whatever its price.
	var allowed []int64
	if reclaim {
		allowed = t.Units
	}
	unit, err := stayUnit(ctx, q, cur.propertyID, cur.unitID, cur.stay, guarded, t.At, id, reclaim, allowed)
	if err != nil {
		return 0, err
	}
	if !reclaim {
		return unit, nil
	}
	closed, err := closedNight(ctx, q, cur.propertyID, cur.stay, t.DateGuard)
	return unit, unavailableIf(closed, err)
}

// conflict is the error for a transition the booking's status does not
// allow (any more).
func conflict(from, to booking.Status) error {
	return booking.Errorf(booking.CodeConflict, "The booking cannot go from %s to %s.", from, to)
}
