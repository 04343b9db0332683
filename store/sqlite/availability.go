package sqlite

import (
	"context"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// holdsDates is the SQL form of booking.Booking.HoldsDates, with one
// parameter, now in unix milliseconds: requested and confirmed bookings hold
// their dates, pending ones until they expire. An expired pending hold stops
// blocking at once, whether or not a sweeper has marked it expired.
const holdsDates = `(status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > ?))`

// holdsDatesAt4 and holdsDatesAt5 are holdsDates with now as the numbered
// parameter ?4 or ?5; orgHoldsDatesAt4 and orgHoldsDatesAt5 are the same of
// the bookings b.
const (
	holdsDatesAt4    = `(status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > ?4))`
	holdsDatesAt5    = `(status IN ('requested', 'confirmed') OR (status = 'pending' AND expires_at > ?5))`
	orgHoldsDatesAt4 = `(b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > ?4))`
	orgHoldsDatesAt5 = `(b.status IN ('requested', 'confirmed') OR (b.status = 'pending' AND b.expires_at > ?5))`
)

// Stays are half-open [check_in, check_out): [a, b) and [c, d) overlap when
// a < d AND c < b, so a check-out day is free for the next check-in. Dates
// are 'YYYY-MM-DD' text, which orders like the dates.

// bookingOverlaps reports whether a booking of the property other than
// except holds dates at now overlapping r: on the unit unitID, or on any
// unit when unitID is 0.
func bookingOverlaps(ctx context.Context, q querier, propertyID, unitID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, qBookingOverlaps, propertyID, r.End.String(), r.Start.String(), except, now.UnixMilli(), unitID)
}

// linkedOverlaps reports whether a booking holding dates at now (other
// than except) of a property linked to propertyID overlaps r: what a
// block of the property must not take.
func linkedOverlaps(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	return sqlflow.Exists(ctx, q, qLinkedBookingOverlaps, propertyID, r.End.String(), r.Start.String(), except, now.UnixMilli())
}

// wholeTaken reports whether r is taken on every unit of the property at
// now: by a block of the whole property, or by a block or a booking
// holding dates (other than except) of a linked property.
func wholeTaken(ctx context.Context, q querier, propertyID int64, r civil.Range, now time.Time, except int64) (bool, error) {
	end, start := r.End.String(), r.Start.String()
	if blocked, err := sqlflow.Exists(ctx, q, qWholeBlocked, propertyID, end, start); err != nil || blocked {
		return blocked, err
	}
	if linked, err := sqlflow.Exists(ctx, q, qHasLinks, propertyID); err != nil || !linked {
		return false, err
	}
	return sqlflow.Exists(ctx, q, qLinkedTaken, propertyID, end, start, except, now.UnixMilli())
}

// chooseUnit returns the unit a stay of the property holds at now, in q (a
// write transaction): want when it is free, else (want 0) the best fit
// among the active units (booking.BestUnit), over the holds of the units
// (bookings other than except, unit blocks) near the stay. ok is false
// when no unit is free; blocks of the whole property and linked
// properties are wholeTaken's. allowed, when not nil, are the only units
// the stay may hold (booking.DateGuard.Units). Errors: CodeNotFound when
// want is no active unit of the property.
func chooseUnit(ctx context.Context, q querier, propertyID, want int64, stay, guarded civil.Range, now time.Time, except int64, allowed []int64) (unit int64, ok bool, err error) {
	units, err := activeUnits(ctx, q, propertyID, want)
	if err != nil {
		return 0, false, err
	}
	if want != 0 && len(units) == 0 {
		return 0, false, rowmap.UnitNotFound()
	}
	if allowed != nil {
		units = slices.DeleteFunc(units, func(u booking.Unit) bool { return !slices.Contains(allowed, u.ID) })
		if len(units) == 0 {
			return 0, false, nil
		}
	}
	from, to := guarded.Start.AddDays(-booking.BestFitReach), guarded.End.AddDays(booking.BestFitReach)
	if len(units) == 1 {
		// One unit (the property has no other, or want): no fit to
		// weigh, only whether it is free, which the holds overlapping
		// guarded tell — not the year of stays around it.
		from, to = guarded.Start, guarded.End
	}
	holds, err := sqlflow.All(ctx, q, rowmap.ScanHold, qUnitHolds, propertyID, to.String(), from.String(), except, now.UnixMilli())
	if err != nil {
		return 0, false, err
	}
	unit, ok = booking.BestUnit(units, holds, stay, guarded)
	return unit, ok, nil
}

// activeUnits returns the active units of a property (want 0), or the
// unit want when it is one of them.
func activeUnits(ctx context.Context, q querier, propertyID, want int64) ([]booking.Unit, error) {
	if want == 0 {
		return sqlflow.All(ctx, q, rowmap.ScanUnit, qActiveUnits, propertyID)
	}
	return sqlflow.All(ctx, q, rowmap.ScanUnit, qActiveUnit, propertyID, want)
}

// claimUnit returns the unit a stay of the property can hold at now, as
// CreateBooking and a transition claiming dates decide: nothing of the
// whole property overlaps guarded (wholeTaken), and a unit is free for
// it (chooseUnit, among allowed when not nil). Errors: CodeUnavailable,
// CodeNotFound (want).
func claimUnit(ctx context.Context, q querier, propertyID, want int64, stay, guarded civil.Range, now time.Time, except int64, allowed []int64) (int64, error) {
	if taken, err := wholeTaken(ctx, q, propertyID, guarded, now, except); err != nil || taken {
		return 0, unavailableIf(taken, err)
	}
	unit, ok, err := chooseUnit(ctx, q, propertyID, want, stay, guarded, now, except, allowed)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, unavailable()
	}
	return unit, nil
}

// unavailable is the error for dates that are taken.
func unavailable() error {
	return booking.Errorf(booking.CodeUnavailable, "These dates are not available.")
}

// unavailableIf is err, or unavailable when the dates are taken.
func unavailableIf(taken bool, err error) error {
	if err == nil && taken {
		return unavailable()
	}
	return err
}

// Occupied returns the holds of the property's blocks and of its bookings
// holding dates at now that share a night with [from, to), and those of
// the properties linked to it (on every unit), by start. The ranges are
// whole, not clipped to [from, to).
func (db *DB) Occupied(ctx context.Context, propertyID int64, from, to civil.Date, now time.Time) ([]booking.Hold, error) {
	return sqlflow.Get(ctx, db.hotRun, "occupied", func(q querier) ([]booking.Hold, error) {
		return sqlflow.All(ctx, q, rowmap.ScanHold, qOccupied, propertyID, to.String(), from.String(), now.UnixMilli())
	})
}
