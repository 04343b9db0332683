package conversation

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/privacy"
)

// Catalog is what the Service reads of the properties: the database's
// booking store.
type Catalog interface {
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
}

// Options configure a Service; Store and Catalog are required.
type Options struct {
	Store   Store
	Catalog Catalog
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// Service runs the guest's side of the threads (package host runs the
// host's, audited) and renders their e-mails when package notify sends
// them. It is safe for concurrent use.
type Service struct {
	store   Store
	catalog Catalog
	clock   booking.Clock
}

var _ notify.ThreadSource = (*Service)(nil)

// New returns a Service; it panics without Store or Catalog.
func New(o Options) *Service {
	if o.Store == nil || o.Catalog == nil {
		panic("conversation: New needs a Store and a Catalog")
	}
	s := &Service{store: o.Store, catalog: o.Catalog, clock: o.Clock}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	return s
}

// Thread is a booking's thread as its guest sees it.
type Thread struct {
	// Messages, oldest first.
	Messages []Message
	// WriteUntil is the last day the guest may write (WriteUntil); zero
	// when they never may on this booking.
	WriteUntil civil.Date
	// CanWrite: the guest may write now, as far as the booking goes
	// (GuestMayWrite, and not erased); Unanswered may still hold them
	// back.
	CanWrite bool
	// Unanswered is how many of the last messages are the guest's,
	// unanswered; at MaxUnanswered the guest waits for the host.
	Unanswered int
}

// ForGuest returns the thread of the booking of token. Errors:
// booking.CodeNotFound (unknown token).
func (s *Service) ForGuest(ctx context.Context, org *booking.OrgService, token string) (*Thread, error) {
	d, err := org.Booking(ctx, token)
	if err != nil {
		return nil, err
	}
	b := &d.Booking
	ms, err := s.store.BookingMessages(ctx, b.ID)
	if err != nil {
		return nil, fmt.Errorf("messages of booking %d: %w", b.ID, err)
	}
	th := &Thread{Messages: ms, Unanswered: Unanswered(ms)}
	if last, ok := WriteUntil(b); ok {
		th.WriteUntil = last
	}
	th.CanWrite = !privacy.Erased(*b) && GuestMayWrite(b, s.today(org.Organization())) == nil
	return th, nil
}

// Post stores the guest's message on the booking of token, and the
// e-mail that tells the host, with the guest's Idempotency-Key (""
// none): a retry with the key answers the stored message, created false,
// and stores nothing. Errors: booking.CodeNotFound (unknown token),
// booking.CodeInvalid (Check, CheckKey), booking.CodeBookingClosed
// (reasons ReasonClosed, ReasonGuestErased), booking.CodeConflict
// (reasons ReasonAwaitingReply, ReasonThreadFull, ReasonKeyReused).
func (s *Service) Post(ctx context.Context, org *booking.OrgService, token, body, key string) (m *Message, created bool, err error) {
	body, err = Check(body)
	if err != nil {
		return nil, false, err
	}
	if err := CheckKey(key); err != nil {
		return nil, false, err
	}
	d, err := org.Booking(ctx, token)
	if err != nil {
		return nil, false, err
	}
	b := &d.Booking
	m = &Message{BookingID: b.ID, From: FromGuest, Body: body, Key: key, CreatedAt: s.clock.Now()}
	if err := GuestMayWrite(b, s.today(org.Organization())); err != nil {
		// A retry of a message stored before the window closed still
		// gets its answer: the store finds it by its key.
		if key == "" {
			return nil, false, err
		}
		ms, lerr := s.store.BookingMessages(ctx, b.ID)
		if lerr != nil {
			return nil, false, fmt.Errorf("messages of booking %d: %w", b.ID, lerr)
		}
		for i := range ms {
			if ms[i].Key == key && ms[i].From == FromGuest && ms[i].Body == body {
				return &ms[i], false, nil
			}
		}
		return nil, false, err
	}
	created, err = s.store.AddMessage(ctx, m)
	if err != nil {
		return nil, false, fmt.Errorf("message on booking %d: %w", b.ID, err)
	}
	return m, created, nil
}

// Unanswered is how many of the last messages of ms (oldest first) are
// the guest's.
func Unanswered(ms []Message) int {
	n := 0
	for i := len(ms) - 1; i >= 0 && ms[i].From == FromGuest; i-- {
		n++
	}
	return n
}

func (s *Service) today(org *booking.Organization) civil.Date {
	return civil.Today(s.clock.Now(), org.Location())
}
