package host

import (
	"context"
	"encoding/json"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/mailsettings"
	"github.com/staykit/staykit/notes"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/units"
)

// Stores are the seams the host's use cases consume: the booking engine's
// (booking.Stores: catalogue, bookings, calendar, terms, outbox), the iCal
// feeds, and the host's own records. One database fills all three; its
// HostStores method returns them:
//
//	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc})
//
// A read model replaces the seams it serves (store/cache: rm.Stores(),
// rm.Feeds(db)) and Records stays the database.
type Stores struct {
	booking.Stores
	feed.FeedStore
	// Records keeps the host's API keys, audit log, request records and
	// users, and runs units of work: the database itself.
	Records Store
	// Notes, Closeout, Mail and Invoices keep what the capabilities the host side
	// fronts need (packages notes, closeout and mailsettings); nil means
	// Records, when it serves them too (a database serves every seam).
	Notes    notes.Store
	Closeout closeout.Store
	Mail     mailsettings.Store
	// Checkin keeps the guests' check-ins (package checkin); nil means
	// Records, when it serves it too.
	Checkin checkin.Store
	// Invoices keeps the seller's details invoices print (package
	// invoice); nil means Records, when it serves them too.
	Invoices invoice.Store
	// Units keeps the properties' units and links (package units); nil
	// means Records, when it serves them too. A read model wraps it
	// (store/cache: rm.UnitStore), so that its writes forget what they
	// change. (Options.Units is something else: the units of work.)
	Units units.Store
	// Conversation keeps the messages between the guests and the host
	// (package conversation); nil means Records, when it serves them too.
	Conversation conversation.Store
}

// capability is the store given, else records when it serves S too; nil
// when neither.
func capability[S any](given S, records Store) S {
	if any(given) != nil {
		return given
	}
	s, _ := records.(S)
	return s
}

// Store keeps what the host side needs beyond the booking engine's store
// (booking.Stores): API keys, the audit log, the records that make host
// requests idempotent, coupon listings and the dashboard's users; and it
// runs units of work, so that a change and its audit entry are written
// together. store/sqlite and store/postgres implement it beside
// booking.Stores; store/storetest checks the contract.
type Store interface {
	// CreateAPIKey stores k (its Hash, never the key itself) and sets its
	// ID. Errors: booking.CodeNotFound (organisation), booking.CodeConflict (hash taken).
	CreateAPIKey(ctx context.Context, k *APIKey) error
	// APIKeyByHash finds a key, revoked or not, by the SHA-256 of the
	// secret. Errors: booking.CodeNotFound.
	APIKeyByHash(ctx context.Context, hash string) (*APIKey, error)
	// APIKeys lists an organisation's keys, revoked ones included, by ID.
	APIKeys(ctx context.Context, orgID int64) ([]APIKey, error)
	// RevokeAPIKey sets RevokedAt of a key of orgID to at, unless it is
	// revoked already, and returns the key. Errors: booking.CodeNotFound.
	RevokeAPIKey(ctx context.Context, orgID, id int64, at time.Time) (*APIKey, error)
	// TouchAPIKey sets LastUsedAt of a key to at when at is later.
	TouchAPIKey(ctx context.Context, id int64, at time.Time) error

	// Atomically runs fn as one unit of work: every method of the
	// database (this Store, and the booking.Stores seams it serves) that fn calls
	// with the context it is given runs in one transaction,
	// committed when fn returns nil and rolled back when it returns an
	// error, which Atomically returns. A change and its audit entry are
	// written so: both or neither. Called within a unit, it runs fn in it.
	// fn does store work only (it holds a transaction): no call to a
	// payment provider or another server.
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error

	// RecordAudit stores e and sets its ID; within Atomically, in the
	// transaction of the change it records.
	RecordAudit(ctx context.Context, e *AuditEntry) error
	// AuditLog lists an organisation's audit entries newest first, those
	// with an ID below before (0: from the newest), at most limit.
	AuditLog(ctx context.Context, orgID, before int64, limit int) ([]AuditEntry, error)

	// ReserveHostRequest records r, a host request under way (Status 0),
	// unless its key is recorded for the organisation after notBefore: then
	// it returns the stored record and booking.CodeConflict. Older records of the
	// key are replaced.
	ReserveHostRequest(ctx context.Context, r *Request, notBefore time.Time) (*Request, error)
	// CompleteHostRequest stores the response of a reserved request, and
	// the booking whose guest it may show (0: none).
	CompleteHostRequest(ctx context.Context, orgID int64, key string, status int, body []byte, bookingID int64) error
	// ForgetHostRequest deletes a reserved request, so that it can be
	// retried (its first attempt failed on our side).
	ForgetHostRequest(ctx context.Context, orgID int64, key string) error
	// PurgeHostRequests deletes the records of every organisation's host
	// requests created before before, and returns how many it deleted.
	PurgeHostRequests(ctx context.Context, before time.Time) (int, error)

	// Coupons lists an organisation's coupons by code.
	Coupons(ctx context.Context, orgID int64) ([]coupon.Coupon, error)
	// CouponByID finds a coupon of an organisation. Errors: booking.CodeNotFound.
	CouponByID(ctx context.Context, orgID, id int64) (*coupon.Coupon, error)

	UserStore
	// EraseGuest anonymises a booking's guest (privacy.Store).
	privacy.Store
}

// UserStore keeps the dashboard's users and their sessions.
type UserStore interface {
	// CreateHostUser stores u and sets its ID. Errors: booking.CodeConflict (the
	// e-mail address has a user), booking.CodeNotFound (organisation).
	CreateHostUser(ctx context.Context, u *User) error
	// HostUserByEmail finds a user. Errors: booking.CodeNotFound.
	HostUserByEmail(ctx context.Context, email string) (*User, error)
	// CreateHostSession stores a session. Errors: booking.CodeNotFound (user).
	CreateHostSession(ctx context.Context, s *Session) error
	// HostSession finds the session of a token hash unexpired at now, with
	// its user. Errors: booking.CodeNotFound.
	HostSession(ctx context.Context, hash string, now time.Time) (*Session, *User, error)
	// DeleteHostSession ends a session (none is no error).
	DeleteHostSession(ctx context.Context, hash string) error
}

// User is a person who signs in to the dashboard of one organisation.
type User struct {
	ID    int64
	OrgID int64
	// Email is stored in lower case.
	Email string
	// PasswordHash is an argon2id PHC string; never the password.
	PasswordHash string
	CreatedAt    time.Time
}

// Session is a signed-in dashboard session; the cookie carries a
// random token, the store its SHA-256.
type Session struct {
	Hash      string
	UserID    int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// APIKey is an organisation's key to the host API. The secret is shown
// once, at creation; only its SHA-256 is kept.
type APIKey struct {
	ID    int64  `json:"id"`
	OrgID int64  `json:"org_id"`
	Name  string `json:"name"`
	// Prefix is the start of the secret, so that a host can tell keys
	// apart ("sk_host_AbCd").
	Prefix string `json:"prefix"`
	// Hash is the hex SHA-256 of the secret.
	Hash      string    `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	// LastUsedAt is when the key was last used, to the minute (TouchEvery).
	LastUsedAt time.Time `json:"last_used_at"`
	// RevokedAt is zero while the key works.
	RevokedAt time.Time `json:"revoked_at"`
}

// Active reports whether the key still opens the API.
func (k APIKey) Active() bool { return k.RevokedAt.IsZero() }

// AuditEntry is one change a host made: who, what, when, before and after.
type AuditEntry struct {
	ID    int64 `json:"id"`
	OrgID int64 `json:"org_id"`
	// Actor names who made the change: "key:12" or "user:3".
	Actor     string `json:"actor"`
	ActorName string `json:"actor_name"`
	// Action is what was done, such as "property.update".
	Action string `json:"action"`
	// Target is what was changed, such as "property:4".
	Target string          `json:"target"`
	Before json.RawMessage `json:"before"`
	After  json.RawMessage `json:"after"`
	At     time.Time       `json:"at"`
}

// RequestWindow is how long a host request made with an Idempotency-Key
// is remembered, to replay its response to a retry; the sweeper purges
// older records (booking.HostRequestWindow).
const RequestWindow = booking.HostRequestWindow

// Request remembers a host POST made with an Idempotency-Key and the
// response it got, replayed to a retry of the same request. The response
// never holds a secret: the host API keeps answers that carry one with
// the secret left out.
type Request struct {
	OrgID int64
	Key   string
	// RequestHash identifies method, path and body; the same key with
	// another hash is a conflict.
	RequestHash string
	// Status is 0 while the request is under way.
	Status    int
	Body      []byte
	CreatedAt time.Time
	// BookingID is the booking whose guest the response may show (0:
	// none), so that the guest's erasure erases the response too
	// (privacy.Store.EraseGuest).
	BookingID int64
	// Erased is set once the response was erased with the guest's data:
	// Body is nil and a retry is refused rather than replayed.
	Erased bool
}
