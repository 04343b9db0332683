package postgres

import (
	"context"

	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ privacy.Store = (*DB)(nil)

// EraseGuest replaces a booking's guest details and fails the pending
// mail deliveries to its guest, deletes its notes, review, check-in and
// messages, erases the host API's kept answers about it, the host's
// reasons for declining its changes of dates and the buyer of its
// invoices (privacy.Store).
func (db *DB) EraseGuest(ctx context.Context, bookingID int64, e privacy.Erasure) error {
	return db.tx(ctx, "erase guest", func(q querier) error {
		if err := sqlflow.Exec(ctx, q, bookingNotFound(), `UPDATE bookings SET guest_name = $1, guest_email = $2,
			guest_phone = $3, message = $4, updated_at = $5 WHERE id = $6`,
			e.Name, e.Email, e.Phone, e.Message, instant(e.At), bookingID); err != nil {
			return err
		}
		// What may name the guest goes: the host's notes, the guest's
		// review, the guests' identity data of the check-in and the
		// messages between the guest and the host.
		for _, table := range []string{"booking_notes", "reviews", "booking_checkins", "booking_messages"} {
			if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM `+table+` WHERE booking_id = $1`, bookingID); err != nil {
				return err
			}
		}
		// The host API's kept answers that may show the guest are
		// erased; a retry of their requests is refused, not replayed.
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE host_requests SET body = NULL, erased = true WHERE booking_id = $1`,
			bookingID); err != nil {
			return err
		}
		// The host's words when they declined a change of dates may name
		// the guest: gone from the change and from its event's data (a
		// webhook replayed later carries what the event keeps).
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE date_changes SET reason = '' WHERE booking_id = $1 AND status = 'declined'`,
			bookingID); err != nil {
			return err
		}
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE outbox_events SET data = (data::jsonb - 'host_reason')::text
			WHERE booking_id = $1 AND data LIKE '%"host_reason":%'`, bookingID); err != nil {
			return err
		}
		// Invoices keep their numbers and amounts; their buyer is erased.
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE invoices SET buyer_name = $1, buyer_address = '' WHERE booking_id = $2`,
			e.Name, bookingID); err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, nil, `UPDATE outbox_deliveries SET status = $1, last_error = $2, updated_at = $3
			WHERE status = $4 AND channel = $5 AND recipient = $6
			AND event_id IN (SELECT id FROM outbox_events WHERE booking_id = $7)`,
			string(outbox.StatusFailed), privacy.ErasedDeliveryError, instant(e.At),
			string(outbox.StatusPending), string(outbox.ChannelMail), outbox.ToGuest, bookingID)
	})
}
