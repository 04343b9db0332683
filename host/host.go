// Package host holds the host's use cases: what a property manager changes
// after launch (settings, properties, the calendar, blocks, coupons), how
// it answers bookings, its API keys and the audit log of every change. The
// host API (package hostapi) and the dashboard call these, one use case
// per request; each change is written through the store seams (Stores),
// so it takes effect at once in the public API on every replica, and is
// audited with who made it.
//
// The host's own records (API keys, the audit log, the records that make
// host requests idempotent, the dashboard's users) are kept by a Store,
// which store/sqlite and store/postgres implement beside booking.Stores. A
// change made through the stores alone and its audit entry are one unit of
// work (Store.Atomically): both are kept, or neither.
package host

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notes"
	"github.com/staykit/staykit/units"
)

// ReasonBooked is the booking.ParamReason of the CodeConflict returned when
// a block or closed day would cover nights a booking holds.
const ReasonBooked = "booked"

// Actor is who makes a change: an API key or a dashboard user.
type Actor struct {
	// Kind is "key" or "user".
	Kind string
	ID   int64
	Name string
	// Role is a dashboard user's role in the organisation it acts for
	// (package team: "owner", "manager", "housekeeping"), which the host
	// API enforces; "" for an API key.
	Role string
}

// KeyActor is the actor of an API key.
func KeyActor(k *APIKey) Actor { return Actor{Kind: "key", ID: k.ID, Name: k.Name} }

func (a Actor) String() string { return a.Kind + ":" + strconv.FormatInt(a.ID, 10) }

// Service runs the host's use cases. It is safe for concurrent use.
type Service struct {
	store   Stores
	records Store
	// notes, closeout, mail, checkin and invoices are the capabilities'
	// stores (Stores); nil when the database serves none.
	notes    notes.Store
	closeout closeout.Store
	mail     mailsettings.Store
	checkin  checkin.Store
	invoices invoice.Store
	// inventory is the properties' units and links (Stores.Units).
	inventory units.Store
	// thread keeps the guests' and hosts' messages (Stores.Conversation).
	thread   conversation.Store
	units    Atomic
	bookings *booking.Service
	connect  *connect.Service
	clock    booking.Clock
	log      *slog.Logger
	// hashSlots holds a token per password hash running (Login).
	hashSlots chan struct{}
	// touches spaces the writes of keys' LastUsedAt (Authenticate).
	touches keyTouches
}

// Atomic runs units of work (Store.Atomically).
type Atomic interface {
	// Atomically runs fn as one unit of work; see Store.Atomically.
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error
}

// Options configure a Service; Stores (with Stores.Records) and Bookings
// are required.
type Options struct {
	// Stores are the seams the use cases consume: the database's
	// (db.HostStores()), or a read model's over it, with Records the
	// database.
	Stores Stores
	// Units runs the host's units of work; nil means Stores.Records. A
	// read model passes its own (store/cache: rm.Units(db)), which forgets
	// what a unit changed once it ends.
	Units Atomic
	// Bookings answers requests and cancels (Approve, Decline, Cancel).
	// It runs on the same database as Stores: the terms it saves join the
	// unit of work of their audit entry.
	Bookings *booking.Service
	// Connect is the Stripe Connect onboarding (connect.New) when the
	// server is a Connect platform; nil means it is not one (the zero
	// connect.Service).
	Connect *connect.Service
	// Clock defaults to the wall clock.
	Clock booking.Clock
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// MaxConcurrentHashes bounds the logins that hash a password at once
	// (64 MiB each); 0 means DefaultMaxConcurrentHashes. Beyond it, Login
	// answers CodeBusy at once.
	MaxConcurrentHashes int
}

// New returns a Service. It panics without Stores.Records or Bookings, a
// programming error.
func New(o Options) *Service {
	if o.Stores.Records == nil || o.Bookings == nil {
		panic("host: New needs its Stores (with Records) and a booking Service")
	}
	work := o.Units
	if work == nil {
		work = o.Stores.Records
	}
	if o.MaxConcurrentHashes <= 0 {
		o.MaxConcurrentHashes = DefaultMaxConcurrentHashes
	}
	if o.Connect == nil {
		o.Connect = &connect.Service{}
	}
	s := &Service{store: o.Stores, records: o.Stores.Records, units: work, bookings: o.Bookings, connect: o.Connect, clock: o.Clock,
		log: o.Logger, hashSlots: make(chan struct{}, o.MaxConcurrentHashes),
		notes:     capability(o.Stores.Notes, o.Stores.Records),
		closeout:  capability(o.Stores.Closeout, o.Stores.Records),
		mail:      capability(o.Stores.Mail, o.Stores.Records),
		checkin:   capability(o.Stores.Checkin, o.Stores.Records),
		invoices:  capability(o.Stores.Invoices, o.Stores.Records),
		inventory: capability(o.Stores.Units, o.Stores.Records),
		thread:    capability(o.Stores.Conversation, o.Stores.Records)}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Organization finds an organisation by slug, whether or not its public
// engine is enabled. Errors: CodeNotFound.
func (s *Service) Organization(ctx context.Context, slug string) (*booking.Organization, error) {
	if !booking.ValidSlug(slug) {
		return nil, errNotFound("organization")
	}
	org, err := s.store.OrganizationBySlug(ctx, slug)
	if err != nil {
		if booking.ErrorCode(err) == booking.CodeNotFound {
			return nil, errNotFound("organization")
		}
		return nil, fmt.Errorf("find organisation %q: %w", slug, err)
	}
	return org, nil
}

// audit records a change. A change made through the store alone is
// audited in its unit of work (Store.Atomically): a failure
// to record it rolls the change back, so that the host's retry with the
// same Idempotency-Key makes it once. A change that calls a payment
// provider or fetches a feed (answering a booking, a refund, a deposit
// claim, a sync) is audited after it: it cannot hold a transaction.
func (s *Service) audit(ctx context.Context, org *booking.Organization, by Actor, action, target string, before, after any) error {
	e := &AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name, Action: action, Target: target,
		Before: rawJSON(before), After: rawJSON(after), At: s.clock.Now()}
	if err := s.records.RecordAudit(ctx, e); err != nil {
		return fmt.Errorf("audit %s of %s: %w", action, target, err)
	}
	return nil
}

// rawJSON is v as JSON; nil stays null.
func rawJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{"error":"unencodable"}`)
	}
	return b
}

// AuditLog lists an organisation's audit entries newest first, below the
// cursor before (0: from the newest), at most limit.
func (s *Service) AuditLog(ctx context.Context, org *booking.Organization, before int64, limit int) ([]AuditEntry, error) {
	list, err := s.records.AuditLog(ctx, org.ID, before, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	return list, nil
}

func errNotFound(subject string) error {
	msgs := map[string]string{
		"organization": "This organisation does not exist.",
		"property":     "This property does not exist.",
		"booking":      "This booking does not exist.",
		"coupon":       "This coupon does not exist.",
		"block":        "This block does not exist.",
		"api_key":      "This API key does not exist.",
		"unit":         "This unit does not exist.",
		"link":         "This link does not exist.",
	}
	return &booking.Error{Code: booking.CodeNotFound, Message: msgs[subject], Params: map[string]string{booking.ParamSubject: subject}}
}

// notFoundAs turns a store's CodeNotFound into the host's wording of
// subject, and wraps other errors with op.
func notFoundAs(err error, subject, op string) error {
	if booking.ErrorCode(err) == booking.CodeNotFound {
		return errNotFound(subject)
	}
	if booking.ErrorCode(err) != booking.CodeInternal {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

// bookedConflict turns a store's CodeUnavailable (a booking holds the
// nights) into the host's CodeConflict.
func bookedConflict(err error) error {
	if booking.ErrorCode(err) == booking.CodeUnavailable {
		return &booking.Error{Code: booking.CodeConflict, Message: "A booking holds some of these nights.",
			Params: map[string]string{booking.ParamReason: ReasonBooked}, Err: err}
	}
	return err
}

// atomically runs fn as one unit of work: the change and the audit entry
// written with the context it gets are kept together or not at all.
func (s *Service) atomically(ctx context.Context, fn func(ctx context.Context) error) error {
	return s.units.Atomically(ctx, fn)
}

// OrganizationByID finds an organisation by ID. Errors: CodeNotFound.
func (s *Service) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	org, err := s.store.OrganizationByID(ctx, id)
	if err != nil {
		return nil, notFoundAs(err, "organization", "find organisation")
	}
	return org, nil
}
