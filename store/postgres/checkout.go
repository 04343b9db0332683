package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// CreateBooking inserts b, a pending booking (an empty Status is set to
// pending), and sets its ID, and its CreatedAt and UpdatedAt to c.Now when
// zero, and its UnitID. In one call of the function staykit_create_booking
// (migrations 0024, 0031, 0043 and 0044), sent with the calls that wait
// with it in one round trip and transaction (db.checkouts, a pipeline),
// which first locks the property's row and its linked properties'
// (staykit_lock_property), so that the writers of the property and of its
// linked ones, on any replica, take turns, it:
//   - records the idempotency key (when c.Idempotency.Key is set), after
//     forgetting a record of that key older than the idempotency window;
//     the key is checked first, so that a retry of a request whose booking
//     holds the dates learns of that booking rather than of the dates;
//   - checks that no block of the whole property and no block nor booking
//     holding dates at c.Now of a linked property overlaps the stay
//     widened by the preparation days (c.Guarded), chooses the unit the
//     stay holds (staykit_best_unit): b.UnitID, or the best fit among the
//     units on which no block and no booking holding dates at c.Now
//     overlaps it (booking.BestUnit), and releases the claim of that
//     unit's lapsed pending holds on the stay's nights; each of these
//     reads is a lookup in the index bookings_holds (migration 0044);
//   - checks that no night of the stay is closed (as c.ClosedNight does,
//     over the calendar days stored);
//   - locks the coupon's row and checks that fewer than c.MaxRedemptions
//     bookings hold it at c.Now (when b.CouponID is set and
//     c.MaxRedemptions > 0);
//   - inserts the booking on that unit (with its payment intent, when b
//     has one), claiming its nights (blocking) when it holds them at
//     c.Now; the exclusion constraint, per unit, refuses an overlap the
//     checks would have missed;
//   - stores its terms (c.Terms) and its payment account
//     (c.PaymentAccount).
//
// The exclusion constraint covers overlapping stays of one unit only; the
// choice of the unit, blocks, preparation days, closed nights and linked
// properties are covered by the row locks alone.
// Every write that could make them fail takes that lock first: checkouts,
// transitions that claim dates, blocks (AddBlock, feed imports), and the
// host calendar (ApplyCalendar, SetCalendarDays). Under READ COMMITTED,
// each statement of the function after the lock sees what the previous
// holder committed.
//
// Nothing is written when a check fails. Errors: CodeInvalid (not pending,
// or check-out not after check-in), CodeNotFound (property of another
// organisation or unknown, or b.UnitID no active unit of it), CodeConflict
// (key recorded, with *booking.IdempotencyConflict as Err),
// CodeUnavailable, coupon_exhausted.
func (db *DB) CreateBooking(ctx context.Context, b *booking.Booking, c booking.CreateOptions) error {
	nb, key, err := booking.PrepareCreate(*b, c)
	if err != nil {
		return err
	}
	args, err := bookingArgs(&nb)
	if err != nil {
		return err
	}
	var terms any
	if c.Terms != nil {
		enc, err := json.Marshal(c.Terms)
		if err != nil {
			return fmt.Errorf("encode terms: %w", err)
		}
		terms = string(enc)
	}
	guarded := c.Guarded(nb.Range())
	var ruleClosed []time.Time
	for _, d := range c.DateGuard.RuleClosed {
		if nb.Range().Contains(d) {
			ruleClosed = append(ruleClosed, d.In(time.UTC))
		}
	}
	maxRedemptions := 0
	if nb.CouponID != 0 {
		maxRedemptions = c.MaxRedemptions
	}
	// A hold that has lapsed already holds nothing, and claims nothing.
	head := []any{key.Key, key.Scope, key.RequestHash, key.CreatedAt, c.Now.Add(-idempotencyWindow),
		c.Now, rowmap.Date(guarded.Start), rowmap.Date(guarded.End), ruleClosed, maxRedemptions,
		terms, c.PaymentAccount, nb.HoldsDates(c.Now)}
	var res createResult
	all := append(append(head, args...), c.Units)
	err = db.run(ctx, "create booking", func(q querier) error {
		if !db.flow.InUnit(ctx) {
			return db.checkouts.write(ctx, nb.PropertyID, qCreateBooking, all, func(row pgx.Row) error {
				r, err := scanCreateResult(codec{}, row)
				if err == nil {
					res = *r
				}
				return err
			})
		}
		r, err := sqlflow.One(ctx, q, scanCreateResult, nil, qCreateBooking, all...)
		if err != nil {
			return err
		}
		res = *r
		return nil
	})
	if err != nil {
		return err
	}
	switch res.outcome {
	case "created":
	case "key_conflict":
		key.BookingID, key.RequestHash, key.CreatedAt = res.keyBookingID, res.keyRequestHash, res.keyCreatedAt
		return keyConflict(key)
	case "unavailable":
		return unavailable()
	case "coupon_exhausted":
		return booking.Errorf(coupon.CodeExhausted, "This coupon has been used as many times as it can be.")
	case "coupon_not_found":
		return rowmap.CouponNotFound()
	case "property_not_found":
		return rowmap.PropertyNotFound()
	case "unit_not_found":
		return rowmap.UnitNotFound()
	default:
		return fmt.Errorf("postgres: create booking: %s", res.outcome)
	}
	b.ID, b.UnitID, b.Status, b.CreatedAt, b.UpdatedAt = res.bookingID, res.unitID, nb.Status, nb.CreatedAt, nb.UpdatedAt
	if c.Terms != nil {
		c.Terms.BookingID, c.Terms.Version = res.bookingID, 1
	}
	return nil
}

// A checkout's batch: at most checkoutBatch calls of
// staykit_create_booking per round trip and transaction, and
// checkoutLanes batches at once (see pipeline); the read model's messages
// likewise (Publish).
const (
	checkoutBatch = 32
	checkoutLanes = 2
	noticeBatch   = 64
	noticeLanes   = 2
)

// qCreateBooking calls staykit_create_booking with the arguments of
// CreateBooking: 13 of its own, then the booking's columns in
// bookingDataColumns order, then the units the stay may hold
// (booking.DateGuard.Units, NULL for any).
var qCreateBooking = `SELECT outcome, booking_id, key_request_hash, key_booking_id, key_created_at, chosen_unit
	FROM staykit_create_booking(` + params(1, 13+strings.Count(bookingDataColumns, ",")+2) + `)`

// createResult is the row staykit_create_booking returns: the booking
// created, or the idempotency record that holds the key.
type createResult struct {
	outcome        string
	bookingID      int64
	keyRequestHash string
	keyBookingID   int64
	keyCreatedAt   time.Time
	unitID         int64
}

func scanCreateResult(c rowmap.Codec, s rowmap.Scanner) (*createResult, error) {
	var r createResult
	var hash *string
	if err := rowmap.Scan(s, &r.outcome, c.NullInt64(&r.bookingID), &hash, c.NullInt64(&r.keyBookingID), c.Instant(&r.keyCreatedAt),
		c.NullInt64(&r.unitID)); err != nil {
		return nil, err
	}
	if hash != nil {
		r.keyRequestHash = *hash
	}
	return &r, nil
}

// closedNight reports whether a night of stay is closed, by the calendar
// days stored on the property (read through q, in the transaction) or by
// g.RuleClosed where no day is stored.
func closedNight(ctx context.Context, q querier, propertyID int64, stay civil.Range, g booking.DateGuard) (bool, error) {
	days, err := sqlflow.All(ctx, q, rowmap.ScanClosedDay, `SELECT day, closed FROM calendar_days
		WHERE property_id = $1 AND day >= $2 AND day < $3`, propertyID, rowmap.Date(stay.Start), rowmap.Date(stay.End))
	if err != nil {
		return false, err
	}
	return g.ClosedNight(stay, days), nil
}

// DeleteBooking removes a pending booking, and with it (by cascade) its
// idempotency record, so that a checkout the payment provider refused
// leaves nothing behind. Errors: CodeNotFound, CodeConflict (not pending).
func (db *DB) DeleteBooking(ctx context.Context, id int64) error {
	return db.run(ctx, "delete booking", func(q querier) error {
		if n, err := q.Exec(ctx, `DELETE FROM bookings WHERE id = $1 AND status = 'pending'`, id); err != nil || n == 1 {
			return err
		}
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings WHERE id = $1`, id)
		switch {
		case err != nil:
			return err
		case !found:
			return bookingNotFound()
		}
		return booking.Errorf(booking.CodeConflict, "Only a pending booking can be deleted.")
	})
}
