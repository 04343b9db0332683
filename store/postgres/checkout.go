package postgres

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
// zero. In one transaction that first locks the property's row, so that
// the writers of the property, on any replica, take turns, it:
//   - records the idempotency key (when c.Idempotency.Key is set), after
//     forgetting a record of that key older than the idempotency window;
//     the key is checked first, so that a retry of a request whose booking
//     holds the dates learns of that booking rather than of the dates;
//   - releases the claim of lapsed pending holds on the stay's nights, and
//     checks that no owner block and no booking holding dates at c.Now
//     overlaps the stay widened by the preparation days (c.Guarded);
//   - checks that no night of the stay is closed (c.ClosedNight over the
//     calendar days stored);
//   - locks the coupon's row and checks that fewer than c.MaxRedemptions
//     bookings hold it at c.Now (when b.CouponID is set and
//     c.MaxRedemptions > 0);
//   - inserts the booking, claiming its nights (blocking) when it holds
//     them at c.Now; the exclusion constraint refuses an overlap the checks
//     would have missed;
//   - stores its terms (c.Terms) and its payment account
//     (c.PaymentAccount).
//
// The exclusion constraint covers overlapping stays only; preparation
// days and closed nights are covered by the property's row lock alone.
// Every write that could make them fail takes that lock first: checkouts,
// transitions that claim dates, blocks (AddBlock, feed imports), and the
// host calendar (ApplyCalendar, SetCalendarDays). Under READ COMMITTED,
// each statement after the lock sees what the previous holder committed.
//
// Nothing is written when a check fails. Errors: CodeInvalid (not pending,
// or check-out not after check-in), CodeNotFound (property of another
// organisation or unknown), CodeConflict (key recorded, with
// *booking.IdempotencyConflict as Err), CodeUnavailable, coupon_exhausted.
func (db *DB) CreateBooking(ctx context.Context, b *booking.Booking, c booking.CreateOptions) error {
	nb, key, err := booking.PrepareCreate(*b, c)
	if err != nil {
		return err
	}
	key.BookingID = 0
	err = db.tx(ctx, "create booking", func(q querier) error {
		args, err := bookingArgs(&nb)
		if err != nil {
			return err
		}
		// A hold that has lapsed already holds nothing, and claims nothing.
		args = append(args, nb.HoldsDates(c.Now))
		var terms []byte
		if c.Terms != nil {
			if terms, err = json.Marshal(c.Terms); err != nil {
				return fmt.Errorf("encode terms: %w", err)
			}
		}
		if err := lockProperty(ctx, q, nb.OrgID, nb.PropertyID); err != nil {
			return err
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
		if err := releaseLapsed(ctx, q, nb.PropertyID, nb.Range(), c.Now, 0); err != nil {
			return err
		}
		if taken, err := datesTaken(ctx, q, nb.PropertyID, c.Guarded(nb.Range()), c.Now, 0); err != nil || taken {
			return unavailableIf(taken, err)
		}
		if closed, err := closedNight(ctx, q, nb.PropertyID, nb.Range(), c.DateGuard); err != nil || closed {
			return unavailableIf(closed, err)
		}
		if nb.CouponID != 0 && c.MaxRedemptions > 0 {
			if err := lockCoupon(ctx, q, nb.CouponID); err != nil {
				return err
			}
			n, err := couponHolders(ctx, q, nb.CouponID, c.Now)
			if err != nil {
				return err
			}
			if n >= c.MaxRedemptions {
				return booking.Errorf(coupon.CodeExhausted, "This coupon has been used as many times as it can be.")
			}
		}
		nb.ID, err = sqlflow.Value[int64](ctx, q, nil, `INSERT INTO bookings (`+bookingDataColumns+`, blocking)
			VALUES (`+params(1, len(args))+`) RETURNING id`, args...)
		switch {
		case sqlState(err) == exclusionViolation:
			return unavailable()
		case sqlState(err) == foreignKeyViolation:
			return booking.Errorf(booking.CodeNotFound, "Coupon not found.")
		case err != nil:
			return err
		}
		if key.Key != "" {
			if err := setKeyBooking(ctx, q, key, nb.ID); err != nil {
				return err
			}
		}
		if terms != nil {
			if err := sqlflow.Exec(ctx, q, nil, `INSERT INTO booking_terms (booking_id, version, data) VALUES ($1, 1, $2)`,
				nb.ID, string(terms)); err != nil {
				return err
			}
		}
		if c.PaymentAccount != "" {
			return sqlflow.Exec(ctx, q, nil, `INSERT INTO booking_payment_accounts (booking_id, account_id) VALUES ($1, $2)`,
				nb.ID, c.PaymentAccount)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b.ID, b.Status, b.CreatedAt, b.UpdatedAt = nb.ID, nb.Status, nb.CreatedAt, nb.UpdatedAt
	if c.Terms != nil {
		c.Terms.BookingID, c.Terms.Version = nb.ID, 1
	}
	return nil
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
