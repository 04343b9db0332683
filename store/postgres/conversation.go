package postgres

import (
	"cmp"
	"context"

	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/outbox"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ conversation.Store = (*DB)(nil)

// AddMessage stores a message of a booking's thread and its outbox event
// in one transaction (conversation.Store). It locks the booking's row
// first (FOR NO KEY UPDATE), as an erasure's UPDATE of the guest does: the
// messages of one booking are added one at a time, so the limits are
// counted on what is committed, and an erasure either comes first (the
// message is refused) or waits for the message and deletes it.
func (db *DB) AddMessage(ctx context.Context, m *conversation.Message) (bool, error) {
	created := false
	err := db.tx(ctx, "add message", func(q querier) error {
		found, err := sqlflow.Exists(ctx, q, `SELECT 1 FROM bookings WHERE id = $1 FOR NO KEY UPDATE`, m.BookingID)
		if err != nil || !found {
			return cmp.Or(err, bookingNotFound())
		}
		st, err := sqlflow.One(ctx, q, rowmap.ScanThreadState, bookingNotFound(), `SELECT b.org_id,
			b.guest_name = $1 AND b.guest_email = '' AND b.guest_phone = '',
			(SELECT COUNT(*) FROM booking_messages WHERE booking_id = b.id),
			(SELECT COUNT(*) FROM booking_messages WHERE booking_id = b.id AND sender = 'guest' AND id >
				COALESCE((SELECT MAX(id) FROM booking_messages WHERE booking_id = b.id AND sender = 'host'), 0))
			FROM bookings b WHERE b.id = $2`, privacy.ErasedName, m.BookingID)
		if err != nil {
			return err
		}
		if m.Key != "" && !st.Erased {
			stored, err := sqlflow.One(ctx, q, rowmap.ScanMessage, nil, `SELECT `+rowmap.MessageColumns+`
				FROM booking_messages m JOIN bookings b ON b.id = m.booking_id WHERE m.booking_id = $1 AND m.idem_key = $2`,
				m.BookingID, m.Key)
			if err != nil {
				return err
			}
			if stored != nil {
				if !rowmap.SameMessage(stored, m) {
					return conversation.ErrKeyReused()
				}
				*m = *stored
				return nil
			}
		}
		if err := rowmap.CheckAddMessage(st, m); err != nil {
			return err
		}
		id, err := sqlflow.Value[int64](ctx, q, sqlflow.ErrNoRow, `INSERT INTO booking_messages
			(booking_id, sender, author, body, idem_key, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			m.BookingID, m.From, m.Author, m.Body, m.Key, instant(m.CreatedAt))
		if err != nil {
			return err
		}
		m.ID, m.OrgID = id, st.OrgID
		events, err := outbox.PrepareEvents([]outbox.Event{conversation.Event(m)}, 0, m.CreatedAt)
		if err != nil {
			return err
		}
		created = true
		return recordOutbox(ctx, q, events)
	})
	if err != nil {
		return false, err
	}
	return created, nil
}

// BookingMessages lists a booking's messages, oldest first
// (conversation.Store).
func (db *DB) BookingMessages(ctx context.Context, bookingID int64) ([]conversation.Message, error) {
	return sqlflow.Get(ctx, db.run, "booking messages", func(q querier) ([]conversation.Message, error) {
		return sqlflow.All(ctx, q, rowmap.ScanMessage, `SELECT `+rowmap.MessageColumns+`
			FROM booking_messages m JOIN bookings b ON b.id = m.booking_id WHERE m.booking_id = $1 ORDER BY m.id LIMIT $2`,
			bookingID, conversation.MaxThread)
	})
}

// Message finds a message (conversation.Store).
func (db *DB) Message(ctx context.Context, id int64) (*conversation.Message, error) {
	return sqlflow.Get(ctx, db.run, "message", func(q querier) (*conversation.Message, error) {
		return sqlflow.One(ctx, q, rowmap.ScanMessage, conversation.ErrNotFound(), `SELECT `+rowmap.MessageColumns+`
			FROM booking_messages m JOIN bookings b ON b.id = m.booking_id WHERE m.id = $1`, id)
	})
}
