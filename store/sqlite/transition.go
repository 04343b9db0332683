package sqlite

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// Transition moves a booking from one of t.From to t.To in one BEGIN
// IMMEDIATE transaction ending in one conditional UPDATE (WHERE status IN
// t.From), so that concurrent confirm, webhook and sweeper calls cannot apply
// it twice. With t.ClaimDates it first checks, in the same transaction, that
// no other booking holding dates at t.At and no block overlaps the stay on
// the booking's unit, nor on a linked property. A booking that does not
// hold its dates at t.At (a late payment's re-claim) is checked as
// CreateBooking checks a new stay, under the same lock: the stay widened
// by t's preparation days (t.Guarded) and no night closed
// (t.ClosedNight); it keeps its unit when it is free, else takes the best
// fit of the others (claimDates). It sets UpdatedAt to t.At, ConfirmedAt to t.At
// when t.Confirmed, and ExpiresAt and PaidAmount when given, and returns
// the updated booking. Errors: CodeNotFound; CodeConflict when the status is not in t.From (or,
// with t.OnlyExpired, the hold has not lapsed); CodeUnavailable.
func (db *DB) Transition(ctx context.Context, id int64, t booking.Transition) (*booking.Booking, error) {
	return sqlflow.Get(ctx, db.tx, "transition", func(q querier) (*booking.Booking, error) {
		cur, err := findBooking(ctx, q, `id = ?`, id)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(t.From, cur.Status) || (t.OnlyExpired && (cur.ExpiresAt.IsZero() || cur.ExpiresAt.After(t.At))) {
			return nil, conflict(cur.Status, t.To)
		}
		unit := cur.UnitID
		if t.ClaimDates {
			if unit, err = claimDates(ctx, q, cur, t); err != nil {
				return nil, err
			}
		}

		set := []string{`status = ?`, `updated_at = ?`}
		args := []any{string(t.To), t.At.UnixMilli()}
		if unit != cur.UnitID {
			set, args = append(set, `unit_id = ?`), append(args, unit)
		}
		if t.ExpiresAt != nil {
			set, args = append(set, `expires_at = ?`), append(args, millis(*t.ExpiresAt))
		}
		if t.PaidAmount != nil {
			set, args = append(set, `paid_amount = ?`), append(args, t.PaidAmount.String())
		}
		if t.Confirmed {
			set, args = append(set, `confirmed_at = ?`), append(args, t.At.UnixMilli())
		}
		where := `id = ? AND status IN (` + placeholders(len(t.From)) + `)`
		args = append(append(args, id), statusArgs(t.From)...)
		if t.OnlyExpired {
			where += ` AND expires_at <= ?`
			args = append(args, t.At.UnixMilli())
		}
		// Changing no row is unreachable while this transaction holds the
		// write lock; kept so the update stays conditional whatever the
		// locking.
		if err := sqlflow.Exec(ctx, q, conflict(cur.Status, t.To),
			`UPDATE bookings SET `+strings.Join(set, `, `)+` WHERE `+where, args...); err != nil {
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
		return findBooking(ctx, q, `id = ?`, id)
	})
}

// stayUnit returns the unit booking cur holds stay on at now, in q (a
// write transaction): nothing of the whole property overlaps guarded
// (wholeTaken), and its own unit is free for it, or, when move is set and
// its unit is taken or retired, the best fit of the others — of allowed,
// when not nil (booking.DateGuard.Units). Errors: CodeUnavailable.
func stayUnit(ctx context.Context, q querier, cur *booking.Booking, stay, guarded civil.Range, now time.Time, move bool, allowed []int64) (int64, error) {
	if taken, err := wholeTaken(ctx, q, cur.PropertyID, guarded, now, cur.ID); err != nil || taken {
		return 0, unavailableIf(taken, err)
	}
	unit, ok, err := chooseUnit(ctx, q, cur.PropertyID, cur.UnitID, stay, guarded, now, cur.ID, allowed)
	if booking.ErrorCode(err) == booking.CodeNotFound {
		ok, err = false, nil // its unit was retired
	}
	if err != nil {
		return 0, err
	}
	if !ok && move {
		if unit, ok, err = chooseUnit(ctx, q, cur.PropertyID, 0, stay, guarded, now, cur.ID, allowed); err != nil {
			return 0, err
		}
	}
	if !ok {
		return 0, unavailable()
	}
	return unit, nil
}

// claimDates checks, in q (a write transaction), that cur's stay is free
// for it at t.At on its unit: no other booking holding dates then nor any
// block overlaps it there, nor on a linked property. When cur does not
// hold its dates at t.At (its hold lapsed), it takes them back as a
// checkout would: t.DateGuard applies too, and when its unit is taken
// meanwhile, it takes the best fit of the others. It returns the unit the
// booking holds. Errors: CodeUnavailable.
func claimDates(ctx context.Context, q querier, cur *booking.Booking, t booking.Transition) (int64, error) {
	stay, reclaim := cur.Range(), !cur.HoldsDates(t.At)
	guarded := stay
	if reclaim {
		guarded = t.Guarded(stay)
	}
	// A booking holding its dates keeps its unit, whatever its price.
	var allowed []int64
	if reclaim {
		allowed = t.Units
	}
	unit, err := stayUnit(ctx, q, cur, stay, guarded, t.At, reclaim, allowed)
	if err != nil {
		return 0, err
	}
	if !reclaim {
		return unit, nil
	}
	closed, err := closedNight(ctx, q, cur.PropertyID, stay, t.DateGuard)
	return unit, unavailableIf(closed, err)
}

// conflict is the error for a transition the booking's status does not
// allow (any more).
func conflict(from, to booking.Status) error {
	return booking.Errorf(booking.CodeConflict, "The booking cannot go from %s to %s.", from, to)
}
