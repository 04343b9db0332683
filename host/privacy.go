package host

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/privacy"
)

// ReasonLive is the booking.ParamReason of the CodeConflict EraseGuest
// returns while the booking still needs its guest's details (privacy.Live).
const ReasonLive = "booking_live"

// guestAudit is what the audit log keeps of an export or an erasure: the
// fact and the booking, never the guest's details (the log outlives them).
type guestAudit struct {
	Status booking.Status `json:"status"`
	Erased bool           `json:"erased"`
}

// GuestData exports everything staykit keeps about a booking's guest
// (GDPR art. 15 and 20), their check-in and their messages with the host
// included, and audits the export as "guest.export".
// Errors: CodeNotFound.
func (s *Service) GuestData(ctx context.Context, org *booking.Organization, id int64, by Actor) (*privacy.Export, error) {
	b, entries, err := s.Booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	e := privacy.NewExport(*b, entries)
	list, err := s.notes.BookingNotes(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("notes of booking %d: %w", id, err)
	}
	e.AddNotes(list)
	if s.checkin != nil {
		r, err := s.checkin.Checkin(ctx, id)
		if err != nil && booking.ErrorCode(err) != booking.CodeNotFound {
			return nil, fmt.Errorf("check-in of booking %d: %w", id, err)
		}
		if err == nil {
			e.AddCheckin(r)
		}
	}
	if s.thread != nil {
		msgs, err := s.thread.BookingMessages(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("messages of booking %d: %w", id, err)
		}
		for _, m := range msgs {
			e.AddMessage(m.From, m.Body, m.CreatedAt)
		}
	}
	if err := s.audit(ctx, org, by, "guest.export", target("booking", id), nil, guestAudit{b.Status, e.Booking.Erased}); err != nil {
		return nil, err
	}
	return &e, nil
}

// EraseGuest anonymises a booking's guest (GDPR art. 17): their name,
// e-mail address, phone number and message are replaced
// (privacy.Anonymous), and mail still due to them is dropped; the
// amounts, dates, status and payments ledger stay, as the law wants them
// kept. It is audited as "guest.erase" in the same unit of work, with no
// detail of the guest. Erasing an erased guest again changes nothing but
// is audited. Errors: CodeNotFound, CodeConflict (reason ReasonLive: the
// booking is pending, requested or confirmed and its check-out is not
// past).
func (s *Service) EraseGuest(ctx context.Context, org *booking.Organization, id int64, by Actor) (*booking.Booking, error) {
	b, err := s.booking(ctx, org, id)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if privacy.Live(*b, civil.Today(now, org.Location())) {
		return nil, &booking.Error{Code: booking.CodeConflict,
			Message: "This booking is under way: its guest's details can be erased once it has ended or been cancelled.",
			Params:  map[string]string{booking.ParamReason: ReasonLive}}
	}
	before := guestAudit{b.Status, privacy.Erased(*b)}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.records.EraseGuest(ctx, id, privacy.Anonymous(now)); err != nil {
			return notFoundAs(err, "booking", "erase guest")
		}
		return s.audit(ctx, org, by, "guest.erase", target("booking", id), before, guestAudit{b.Status, true})
	})
	if err != nil {
		return nil, err
	}
	return s.booking(ctx, org, id)
}
