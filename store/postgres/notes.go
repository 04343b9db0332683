package postgres

import (
	"context"

	"github.com/staykit/staykit/notes"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ notes.Store = (*DB)(nil)

// AddNote stores a note on a booking (notes.Store).
func (db *DB) AddNote(ctx context.Context, n *notes.Note) error {
	id, err := sqlflow.Get(ctx, db.run, "add note", func(q querier) (int64, error) {
		return sqlflow.Value[int64](ctx, q, bookingNotFound(), `INSERT INTO booking_notes (booking_id, author, body, created_at)
			SELECT id, $1, $2, $3 FROM bookings WHERE id = $4 RETURNING id`, n.Author, n.Body, instant(n.CreatedAt), n.BookingID)
	})
	if err != nil {
		return err
	}
	n.ID = id
	return nil
}

// BookingNotes lists a booking's notes, oldest first (notes.Store).
func (db *DB) BookingNotes(ctx context.Context, bookingID int64) ([]notes.Note, error) {
	return sqlflow.Get(ctx, db.run, "booking notes", func(q querier) ([]notes.Note, error) {
		return sqlflow.All(ctx, q, rowmap.ScanNote, `SELECT `+rowmap.NoteColumns+`
			FROM booking_notes WHERE booking_id = $1 ORDER BY id`, bookingID)
	})
}
