package booking

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// HostStore keeps what the host side needs beyond the catalogue: API keys,
// the audit log, the records that make host requests idempotent, coupon
// listings and the per-day calendar. store/storetest checks the contract.
type HostStore interface {
	// CreateAPIKey stores k (its Hash, never the key itself) and sets its
	// ID. Errors: CodeNotFound (organisation), CodeConflict (hash taken).
	CreateAPIKey(ctx context.Context, k *APIKey) error
	// APIKeyByHash finds a key, revoked or not, by the SHA-256 of the
	// secret. Errors: CodeNotFound.
	APIKeyByHash(ctx context.Context, hash string) (*APIKey, error)
	// APIKeys lists an organisation's keys, revoked ones included, by ID.
	APIKeys(ctx context.Context, orgID int64) ([]APIKey, error)
	// RevokeAPIKey sets RevokedAt of a key of orgID to at, unless it is
	// revoked already, and returns the key. Errors: CodeNotFound.
	RevokeAPIKey(ctx context.Context, orgID, id int64, at time.Time) (*APIKey, error)
	// TouchAPIKey sets LastUsedAt of a key to at when at is later.
	TouchAPIKey(ctx context.Context, id int64, at time.Time) error

	// RecordAudit stores e and sets its ID.
	RecordAudit(ctx context.Context, e *AuditEntry) error
	// AuditLog lists an organisation's audit entries newest first, those
	// with an ID below before (0: from the newest), at most limit.
	AuditLog(ctx context.Context, orgID, before int64, limit int) ([]AuditEntry, error)

	// ReserveHostRequest records r, a host request under way (Status 0),
	// unless its key is recorded for the organisation after notBefore: then
	// it returns the stored record and CodeConflict. Older records of the
	// key are replaced.
	ReserveHostRequest(ctx context.Context, r *HostRequest, notBefore time.Time) (*HostRequest, error)
	// CompleteHostRequest stores the response of a reserved request.
	CompleteHostRequest(ctx context.Context, orgID int64, key string, status int, body []byte) error
	// ForgetHostRequest deletes a reserved request, so that it can be
	// retried (its first attempt failed on our side).
	ForgetHostRequest(ctx context.Context, orgID int64, key string) error

	// Coupons lists an organisation's coupons by code.
	Coupons(ctx context.Context, orgID int64) ([]coupon.Coupon, error)
	// CouponByID finds a coupon of an organisation. Errors: CodeNotFound.
	CouponByID(ctx context.Context, orgID, id int64) (*coupon.Coupon, error)

	// SetCalendar applies c to the nights [c.From, c.To) of a property of
	// orgID in one atomic step and returns the property as stored. A
	// price sets (or, with ClearPrice, removes) the nights' price
	// overrides; Closed true adds a block over the range, false removes
	// the blocks' nights in the range (a block partly outside keeps its
	// other nights). Errors: CodeNotFound, CodeInvalid (empty range),
	// CodeUnavailable (closing nights a booking holds at now).
	SetCalendar(ctx context.Context, orgID, propertyID int64, c CalendarChange, now time.Time) (*Property, error)

	HostUserStore
}

// HostUserStore keeps the dashboard's users and their sessions.
type HostUserStore interface {
	// CreateHostUser stores u and sets its ID. Errors: CodeConflict (the
	// e-mail address has a user), CodeNotFound (organisation).
	CreateHostUser(ctx context.Context, u *HostUser) error
	// HostUserByEmail finds a user. Errors: CodeNotFound.
	HostUserByEmail(ctx context.Context, email string) (*HostUser, error)
	// CreateHostSession stores a session. Errors: CodeNotFound (user).
	CreateHostSession(ctx context.Context, s *HostSession) error
	// HostSession finds the session of a token hash unexpired at now, with
	// its user. Errors: CodeNotFound.
	HostSession(ctx context.Context, hash string, now time.Time) (*HostSession, *HostUser, error)
	// DeleteHostSession ends a session (none is no error).
	DeleteHostSession(ctx context.Context, hash string) error
}

// HostUser is a person who signs in to the dashboard of one organisation.
type HostUser struct {
	ID    int64
	OrgID int64
	// Email is stored in lower case.
	Email string
	// PasswordHash is an argon2id PHC string; never the password.
	PasswordHash string
	CreatedAt    time.Time
}

// HostSession is a signed-in dashboard session; the cookie carries a
// random token, the store its SHA-256.
type HostSession struct {
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
	Hash       string    `json:"-"`
	CreatedAt  time.Time `json:"created_at"`
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

// HostRequest remembers a host POST made with an Idempotency-Key and the
// response it got, replayed to a retry of the same request.
type HostRequest struct {
	OrgID int64
	Key   string
	// RequestHash identifies method, path and body; the same key with
	// another hash is a conflict.
	RequestHash string
	// Status is 0 while the request is under way.
	Status    int
	Body      []byte
	CreatedAt time.Time
}

// CalendarChange is what one host request sets on a range of nights.
// Fields are optional: nil leaves the nights as they are. Further per-day
// settings are added as further optional fields.
type CalendarChange struct {
	From, To civil.Date
	// Price overrides the nightly price.
	Price *decimal.Decimal
	// ClearPrice removes the nights' overrides (the rate plan applies).
	ClearPrice bool
	// Closed opens or closes the nights for booking (an owner block).
	Closed *bool
	// Reason is the new block's reason when closing.
	Reason string
}

// Validate checks a change before it is applied.
func (c CalendarChange) Validate() error {
	f := FieldErrors{}
	if c.From.IsZero() {
		f.Add("from", "required")
	}
	if c.To.IsZero() {
		f.Add("to", "required")
	}
	if !c.From.IsZero() && !c.To.IsZero() && !c.From.Before(c.To) {
		f.Add("to", "invalid_range")
	}
	if c.Price != nil && !c.Price.IsPositive() {
		f.Add("price", "out_of_range")
	}
	if c.Price != nil && c.ClearPrice {
		f.Add("price", "invalid_choice")
	}
	if c.Price == nil && !c.ClearPrice && c.Closed == nil {
		f.Add("price", "required")
	}
	return f.Err()
}

// CalendarPlan is what SetCalendar writes: the property's new price
// overrides, the blocks to delete and the blocks to insert.
type CalendarPlan struct {
	Overrides    []pricing.DateOverride
	RemoveBlocks []int64
	AddBlocks    []Block
	// CheckFree is the range no booking may hold (closing nights).
	CheckFree *civil.Range
}

// PlanCalendar works out how a change applies to a property, so that
// every Store applies the same rules. Errors: CodeInvalid.
func PlanCalendar(p *Property, c CalendarChange) (CalendarPlan, error) {
	if err := c.Validate(); err != nil {
		return CalendarPlan{}, err
	}
	r := civil.Range{Start: c.From, End: c.To}
	in := func(d civil.Date) bool { return !d.Before(r.Start) && d.Before(r.End) }
	var plan CalendarPlan
	plan.Overrides = make([]pricing.DateOverride, 0, len(p.Rates.Overrides))
	for _, o := range p.Rates.Overrides {
		if (c.Price != nil || c.ClearPrice) && in(o.Date) {
			continue
		}
		plan.Overrides = append(plan.Overrides, o)
	}
	if c.Price != nil {
		for d := r.Start; d.Before(r.End); d = d.AddDays(1) {
			plan.Overrides = append(plan.Overrides, pricing.DateOverride{Date: d, Price: *c.Price})
		}
	}
	slices.SortFunc(plan.Overrides, func(a, b pricing.DateOverride) int { return a.Date.Compare(b.Date) })
	if c.Closed != nil && *c.Closed {
		plan.CheckFree = &r
		plan.AddBlocks = append(plan.AddBlocks, Block{Start: r.Start, End: r.End, Reason: c.Reason})
	}
	if c.Closed != nil && !*c.Closed {
		for _, b := range p.Blocks {
			if !b.Start.Before(r.End) || !r.Start.Before(b.End) {
				continue
			}
			plan.RemoveBlocks = append(plan.RemoveBlocks, b.ID)
			if b.Start.Before(r.Start) {
				plan.AddBlocks = append(plan.AddBlocks, Block{Start: b.Start, End: r.Start, Reason: b.Reason})
			}
			if r.End.Before(b.End) {
				plan.AddBlocks = append(plan.AddBlocks, Block{Start: r.End, End: b.End, Reason: b.Reason})
			}
		}
	}
	return plan, nil
}

// Error codes of the host side.
const (
	CodeUnauthorized = "unauthorized" // no valid credentials
	CodeForbidden    = "forbidden"    // valid credentials of another organisation
)
