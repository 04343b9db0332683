package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/conversation"
)

// ReasonConversation is the booking.ParamReason of the CodeNotConfigured
// of the thread's use cases on a database that keeps no thread.
const ReasonConversation = "conversation"

// messageAudit is what the audit log keeps of a host's message to a
// guest: which one and how long, never its text (the log outlives an
// erasure of the guest).
type messageAudit struct {
	MessageID int64 `json:"message_id"`
	Length    int   `json:"length"`
}

// threadStore is the thread's store, or CodeNotConfigured.
func (s *Service) threadStore() (conversation.Store, error) {
	if s.thread == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Guest messages are not kept on this server.",
			Params: map[string]string{booking.ParamReason: ReasonConversation}}
	}
	return s.thread, nil
}

// BookingMessages lists the messages between the guest of one of org's
// bookings and the host, oldest first (package conversation). Errors:
// CodeNotFound, CodeNotConfigured.
func (s *Service) BookingMessages(ctx context.Context, org *booking.Organization, bookingID int64) ([]conversation.Message, error) {
	st, err := s.threadStore()
	if err != nil {
		return nil, err
	}
	if _, err := s.booking(ctx, org, bookingID); err != nil {
		return nil, err
	}
	list, err := st.BookingMessages(ctx, bookingID)
	if err != nil {
		return nil, fmt.Errorf("messages of booking %d: %w", bookingID, err)
	}
	return list, nil
}

// MessageGuest writes the host's message to the guest of one of org's
// bookings, by its author (the dashboard user or the API key), and the
// e-mail that takes it to the guest, audited as "booking.message" (its
// id and length, never its text) in the same unit of work. The host may
// write whatever the booking's status. Errors: CodeNotFound,
// CodeNotConfigured, CodeInvalid (field "body", conversation.Check),
// CodeBookingClosed (reason conversation.ReasonGuestErased),
// CodeConflict (reason conversation.ReasonThreadFull).
func (s *Service) MessageGuest(ctx context.Context, org *booking.Organization, bookingID int64, body string, by Actor) (*conversation.Message, error) {
	st, err := s.threadStore()
	if err != nil {
		return nil, err
	}
	body, err = conversation.Check(body)
	if err != nil {
		return nil, err
	}
	if _, err := s.booking(ctx, org, bookingID); err != nil {
		return nil, err
	}
	m := &conversation.Message{BookingID: bookingID, From: conversation.FromHost, Author: by.Name, Body: body, CreatedAt: s.clock.Now()}
	if m.Author == "" {
		m.Author = by.String()
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if _, err := st.AddMessage(ctx, m); err != nil {
			return notFoundAs(err, "booking", "message the guest")
		}
		return s.audit(ctx, org, by, "booking.message", target("booking", bookingID), nil,
			messageAudit{MessageID: m.ID, Length: len([]rune(body))})
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
