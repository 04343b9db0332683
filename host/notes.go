package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notes"
)

// noteAudit is what the audit log keeps of a note: which one and how long,
// never its text (the log outlives an erasure of the guest).
type noteAudit struct {
	NoteID int64 `json:"note_id"`
	Length int   `json:"length"`
}

// AddNote writes the host's note on one of org's bookings, by its author
// (the dashboard user or the API key), audited as "booking.note" in the
// same unit of work. Errors: CodeNotFound, CodeInvalid (field "body",
// notes.Check).
func (s *Service) AddNote(ctx context.Context, org *booking.Organization, bookingID int64, body string, by Actor) (*notes.Note, error) {
	body, err := notes.Check(body)
	if err != nil {
		return nil, err
	}
	if _, err := s.booking(ctx, org, bookingID); err != nil {
		return nil, err
	}
	n := &notes.Note{BookingID: bookingID, Author: by.Name, Body: body, CreatedAt: s.clock.Now()}
	if n.Author == "" {
		n.Author = by.String()
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.notes.AddNote(ctx, n); err != nil {
			return notFoundAs(err, "booking", "add note")
		}
		return s.audit(ctx, org, by, "booking.note", target("booking", bookingID), nil,
			noteAudit{NoteID: n.ID, Length: len([]rune(body))})
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// BookingNotes lists the notes on one of org's bookings, oldest first.
// Errors: CodeNotFound.
func (s *Service) BookingNotes(ctx context.Context, org *booking.Organization, bookingID int64) ([]notes.Note, error) {
	if _, err := s.booking(ctx, org, bookingID); err != nil {
		return nil, err
	}
	list, err := s.notes.BookingNotes(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("notes of booking %d: %w", bookingID, err)
	}
	return list, nil
}
