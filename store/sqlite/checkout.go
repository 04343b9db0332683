package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

// CreateBooking inserts b, a pending booking (an empty Status is set to
// pending), and sets its ID, and its CreatedAt and UpdatedAt to c.Now when
// zero. In one BEGIN IMMEDIATE transaction, so that no other writer can
// slip in between a check and the insert, it:
//   - records the idempotency key (when c.Idempotency.Key is set), after
//     forgetting a record of that key older than the idempotency window;
//     the key is checked first, so that a retry of a request whose booking
//     holds the dates learns of that booking rather than of the dates;
//   - checks that no block of the whole property and no block nor booking
//     holding dates at c.Now of a linked property overlaps the stay
//     widened by the preparation days (c.Guarded), and chooses the unit
//     the stay holds: b.UnitID, or the best fit (booking.BestUnit) among
//     the units on which no block and no booking holding dates overlaps
//     it;
//   - checks that no night of the stay is closed (c.ClosedNight over the
//     calendar days stored): a host closing nights (ApplyCalendar) writes
//     under the same lock, so of the two only the first can succeed;
//   - checks that fewer than c.MaxRedemptions bookings hold the coupon at
//     c.Now (when b.CouponID is set and c.MaxRedemptions > 0);
//   - inserts the booking, its terms (c.Terms) and its payment account
//     (c.PaymentAccount).
//
// Checkouts that arrive while another commits are committed together,
// each in its savepoint (sqlflow.Group): one refused rolls back alone.
//
// Nothing is written when a check fails. Errors: CodeInvalid (not pending,
// or check-out not after check-in), CodeNotFound (property of another
// organisation or unknown, or b.UnitID no active unit of it), CodeConflict (key recorded, with
// *booking.IdempotencyConflict as Err), CodeUnavailable, coupon_exhausted.
func (db *DB) CreateBooking(ctx context.Context, b *booking.Booking, c booking.CreateOptions) error {
	nb, key, err := booking.PrepareCreate(*b, c)
	if err != nil {
		return err
	}
	// Encoded before the write lock, which only the unit waits for: the
	// quote's JSON is the costliest part of the row.
	args, err := bookingArgs(&nb)
	if err != nil {
		return err
	}
	var terms []byte
	if c.Terms != nil {
		if terms, err = json.Marshal(c.Terms); err != nil {
			return fmt.Errorf("encode terms: %w", err)
		}
	}
	err = db.checkouts.Tx(ctx, "create booking", func(ctx context.Context, q querier) error {
		found, err := sqlflow.Exists(ctx, q, qPropertyOfOrg, nb.PropertyID, nb.OrgID)
		switch {
		case err != nil:
			return err
		case !found:
			return booking.Errorf(booking.CodeNotFound, "Property not found.")
		}
		if key.Key != "" {
			existing, err := claimKey(ctx, q, key, c.Now.Add(-idempotencyWindow))
			if err != nil {
				return err
			}
			if existing != nil {
				return keyConflict(*existing)
			}
		}
		if nb.UnitID, err = claimUnit(ctx, q, nb.PropertyID, b.UnitID, nb.Range(), c.Guarded(nb.Range()), c.Now, 0, c.Units); err != nil {
			return err
		}
		if closed, err := closedNight(ctx, q, nb.PropertyID, nb.Range(), c.DateGuard); err != nil || closed {
			return unavailableIf(closed, err)
		}
		if nb.CouponID != 0 && c.MaxRedemptions > 0 {
			n, err := couponHolders(ctx, q, nb.CouponID, c.Now)
			if err != nil {
				return err
			}
			if n >= c.MaxRedemptions {
				return booking.Errorf(coupon.CodeExhausted, "This coupon has been used as many times as it can be.")
			}
		}
		rowmap.SetBookingArgsUnit(args, nb.UnitID)
		if nb.ID, err = sqlflow.Value[int64](ctx, q, nil, qInsertBooking, args...); err != nil {
			return err
		}
		if key.Key != "" {
			key.BookingID = nb.ID
			if err := insertKey(ctx, q, key); err != nil {
				return err
			}
		}
		if terms != nil {
			if err := sqlflow.Exec(ctx, q, nil, qInsertTerms, nb.ID, string(terms)); err != nil {
				return err
			}
		}
		if c.PaymentAccount != "" {
			return sqlflow.Exec(ctx, q, nil, qInsertBookingAccount, nb.ID, c.PaymentAccount)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.ID, b.UnitID, b.Status, b.CreatedAt, b.UpdatedAt = nb.ID, nb.UnitID, nb.Status, nb.CreatedAt, nb.UpdatedAt
	if c.Terms != nil {
		c.Terms.BookingID, c.Terms.Version = nb.ID, 1
	}
	return nil
}

// closedNight reports whether a night of stay is closed, by the calendar
// days stored on the property (read through q, in the transaction) or by
// g.RuleClosed where no day is stored.
func closedNight(ctx context.Context, q querier, propertyID int64, stay civil.Range, g booking.DateGuard) (bool, error) {
	days, err := sqlflow.All(ctx, q, rowmap.ScanClosedDay, qClosedOfStay, propertyID, stay.Start.String(), stay.End.String())
	if err != nil {
		return false, err
	}
	return g.ClosedNight(stay, days), nil
}

// DeleteBooking removes a pending booking, and with it (by cascade) its
// idempotency record, so that a checkout the payment provider refused
// leaves nothing behind. Errors: CodeNotFound, CodeConflict (not pending).
func (db *DB) DeleteBooking(ctx context.Context, id int64) error {
	return db.tx(ctx, "delete booking", func(q querier) error {
		if n, err := q.Exec(ctx, `DELETE FROM bookings WHERE id = ? AND status = 'pending'`, id); err != nil || n == 1 {
			return err
		}
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings WHERE id = ?`, id)
		switch {
		case err != nil:
			return err
		case !found:
			return bookingNotFound()
		}
		return booking.Errorf(booking.CodeConflict, "Only a pending booking can be deleted.")
	})
}
