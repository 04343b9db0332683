package sqlite

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
		if err := sqlflow.Exec(ctx, q, bookingNotFound(), `UPDATE bookings SET guest_name = ?, guest_email = ?,
			guest_phone = ?, message = ?, updated_at = ? WHERE id = ?`,
			e.Name, e.Email, e.Phone, e.Message, millis(e.At), bookingID); err != nil {
			return err
		}
		// What may name the guest goes: the host's notes, the guest's
		// review, the guests' identity data of the check-in and the
		// messages between the guest and the host.
		for _, table := range []string{"booking_notes", "reviews", "booking_checkins", "booking_messages"} {
			if err := sqlflow.Exec(ctx, q, nil, `DELETE FROM `+table+` WHERE booking_id = ?`, bookingID); err != nil {
				return err
			}
		}
		// The host API's kept answers that may show the guest are
		// erased; a retry of their requests is refused, not replayed.
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE host_requests SET body = NULL, erased = 1 WHERE booking_id = ?`,
			bookingID); err != nil {
			return err
		}
		// The host's words when they declined a change of dates may name
		// the guest: gone from the change and from its event's data (a
		// webhook replayed later carries what the event keeps).
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE date_changes SET reason = '' WHERE booking_id = ? AND status = 'declined'`,
			bookingID); err != nil {
			return err
		}
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE outbox_events SET data = json_remove(data, '$.host_reason')
			WHERE booking_id = ? AND data LIKE '%"host_reason":%'`, bookingID); err != nil {
			return err
		}
		// Invoices keep their numbers and amounts; their buyer is erased.
		if err := sqlflow.Exec(ctx, q, nil, `UPDATE invoices SET buyer_name = ?, buyer_address = '' WHERE booking_id = ?`,
			e.Name, bookingID); err != nil {
			return err
		}
		return sqlflow.Exec(ctx, q, nil, `UPDATE outbox_deliveries SET status = ?, last_error = ?, updated_at = ?
			WHERE status = ? AND channel = ? AND recipient = ?
			AND event_id IN (SELECT id FROM outbox_events WHERE booking_id = ?)`,
			string(outbox.StatusFailed), privacy.ErasedDeliveryError, millis(e.At),
			string(outbox.StatusPending), string(outbox.ChannelMail), outbox.ToGuest, bookingID)
	})
}
