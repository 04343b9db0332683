package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
)

// CreateBooking inserts b, a pending booking (an empty Status is set to
// pending), and sets its ID, and its CreatedAt and UpdatedAt to c.Now when
// zero. In one BEGIN IMMEDIATE transaction, so that no other writer can
// slip in between a check and the insert, it:
//   - records the idempotency key (when c.Idempotency.Key is set), after
//     forgetting a record of that key older than the idempotency window;
//     the key is checked first, so that a retry of a request whose booking
//     holds the dates learns of that booking rather than of the dates;
//   - checks that no owner block and no booking holding dates at c.Now
//     overlaps the stay widened by the preparation days (c.Guarded);
//   - checks that no night of the stay is closed (c.ClosedNight over the
//     calendar days stored): a host closing nights (ApplyCalendar) writes
//     under the same lock, so of the two only the first can succeed;
//   - checks that fewer than c.MaxRedemptions bookings hold the coupon at
//     c.Now (when b.CouponID is set and c.MaxRedemptions > 0);
//   - inserts the booking, its terms (c.Terms) and its payment account
//     (c.PaymentAccount).
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
	args, err := bookingArgs(&nb)
	if err != nil {
		return fmt.Errorf("sqlite: create booking: %w", err)
	}
	var terms []byte
	if c.Terms != nil {
		if terms, err = json.Marshal(c.Terms); err != nil {
			return fmt.Errorf("sqlite: create booking: encode terms: %w", err)
		}
	}

	err = db.inWriteTx(ctx, "create booking", func(tx *sql.Tx) error {
		q := db.writesIn(tx)
		found, err := exists(ctx, q, qPropertyOfOrg, nb.PropertyID, nb.OrgID)
		if err != nil {
			return fmt.Errorf("sqlite: create booking: %w", err)
		}
		if !found {
			return booking.Errorf(booking.CodeNotFound, "Property not found.")
		}
		if key.Key != "" {
			existing, err := claimKey(ctx, q, key, c.Now.Add(-idempotencyWindow))
			if err != nil {
				return fmt.Errorf("sqlite: create booking: %w", err)
			}
			if existing != nil {
				return keyConflict(*existing)
			}
		}
		taken, err := datesTaken(ctx, q, nb.PropertyID, c.Guarded(nb.Range()), c.Now, 0)
		if err != nil {
			return fmt.Errorf("sqlite: create booking: %w", err)
		}
		if taken {
			return unavailable()
		}
		if closed, err := closedNight(ctx, q, nb.PropertyID, nb.Range(), c.DateGuard); err != nil {
			return fmt.Errorf("sqlite: create booking: %w", err)
		} else if closed {
			return unavailable()
		}
		if nb.CouponID != 0 && c.MaxRedemptions > 0 {
			n, err := couponHolders(ctx, q, nb.CouponID, c.Now)
			if err != nil {
				return fmt.Errorf("sqlite: create booking: %w", err)
			}
			if n >= c.MaxRedemptions {
				return booking.Errorf(coupon.CodeExhausted, "This coupon has been used as many times as it can be.")
			}
		}
		if err := q.QueryRowContext(ctx, qInsertBooking, args...).Scan(&nb.ID); err != nil {
			return fmt.Errorf("sqlite: create booking: %w", err)
		}
		if key.Key != "" {
			key.BookingID = nb.ID
			if err := insertKey(ctx, q, key); err != nil {
				return fmt.Errorf("sqlite: create booking: %w", err)
			}
		}
		if terms != nil {
			if _, err := q.ExecContext(ctx, qInsertTerms, nb.ID, string(terms)); err != nil {
				return fmt.Errorf("sqlite: create booking: save terms: %w", err)
			}
		}
		if c.PaymentAccount != "" {
			if _, err := q.ExecContext(ctx, qInsertBookingAccount, nb.ID, c.PaymentAccount); err != nil {
				return fmt.Errorf("sqlite: create booking: save payment account: %w", err)
			}
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
	rows, err := q.QueryContext(ctx, qClosedOfStay, propertyID, stay.Start.String(), stay.End.String())
	if err != nil {
		return false, fmt.Errorf("read closed days: %w", err)
	}
	defer rows.Close()
	var days []booking.CalendarDay
	for rows.Next() {
		var (
			d   booking.CalendarDay
			day string
		)
		if err := rows.Scan(&day, &d.Closed); err != nil {
			return false, fmt.Errorf("read closed days: %w", err)
		}
		if d.Date, err = civil.Parse(day); err != nil {
			return false, fmt.Errorf("read closed days: day %q: %w", day, err)
		}
		days = append(days, d)
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("read closed days: %w", err)
	}
	return g.ClosedNight(stay, days), nil
}

// DeleteBooking removes a pending booking, and with it (by cascade) its
// idempotency record, so that a checkout the payment provider refused
// leaves nothing behind. Errors: CodeNotFound, CodeConflict (not pending).
func (db *DB) DeleteBooking(ctx context.Context, id int64) error {
	return db.inWriteTx(ctx, "delete booking", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM bookings WHERE id = ? AND status = 'pending'`, id)
		if err != nil {
			return fmt.Errorf("sqlite: delete booking: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlite: delete booking: %w", err)
		} else if n == 1 {
			return nil
		}
		found, err := exists(ctx, tx, `SELECT 1 FROM bookings WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("sqlite: delete booking: %w", err)
		}
		if !found {
			return bookingNotFound()
		}
		return booking.Errorf(booking.CodeConflict, "Only a pending booking can be deleted.")
	})
}
