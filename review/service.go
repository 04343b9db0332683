package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
)

// Records keeps the host's audit log in units of work: the database's
// host.Store.
type Records interface {
	Atomically(ctx context.Context, fn func(ctx context.Context) error) error
	RecordAudit(ctx context.Context, e *host.AuditEntry) error
}

// Options configure a Service; Store and Records are required.
type Options struct {
	Store   Store
	Records Records
	// Clock defaults to the wall clock.
	Clock booking.Clock
}

// Service runs the reviews' use cases: the guest's, the public's and the
// host's. It is safe for concurrent use.
type Service struct {
	store   Store
	records Records
	clock   booking.Clock
}

// New returns a Service; it panics without Store or Records.
func New(o Options) *Service {
	if o.Store == nil || o.Records == nil {
		panic("review: New needs a Store and Records")
	}
	s := &Service{store: o.Store, records: o.Records, clock: o.Clock}
	if s.clock == nil {
		s.clock = booking.SystemClock{}
	}
	return s
}

// Reviewable reports whether the stay d may be reviewed now: a confirmed
// booking whose check-out date has come in the organisation's time zone.
func (s *Service) Reviewable(org *booking.Organization, d *booking.Details) bool {
	today := civil.Today(s.clock.Now(), org.Location())
	return d.Booking.Status == booking.StatusConfirmed && !today.Before(d.Booking.CheckOut)
}

// Guest is what the booking page shows of a booking's review.
type Guest struct {
	// Reviewable: the stay is over and may be reviewed (Service.Reviewable).
	Reviewable bool
	// Review is the guest's review; nil before they write it.
	Review *Review
}

// ForGuest returns the review of the booking of token, and whether its
// stay may be reviewed. Errors: booking.CodeNotFound (unknown token).
func (s *Service) ForGuest(ctx context.Context, org *booking.OrgService, token string) (*Guest, error) {
	d, err := org.Booking(ctx, token)
	if err != nil {
		return nil, err
	}
	g := &Guest{Reviewable: s.Reviewable(org.Organization(), d)}
	r, err := s.store.BookingReview(ctx, d.Booking.ID)
	switch {
	case err == nil:
		g.Review = r
		g.Reviewable = false
	case !isNotFound(err):
		return nil, fmt.Errorf("review of booking %d: %w", d.Booking.ID, err)
	}
	return g, nil
}

// Submit stores the review of the booking of token by its guest. Errors:
// booking.CodeNotFound (unknown token), booking.CodeInvalid (Check),
// booking.CodeBookingClosed with reason ReasonStayNotOver (not a
// confirmed stay that is over), booking.CodeConflict with reason
// ReasonAlreadyReviewed.
func (s *Service) Submit(ctx context.Context, org *booking.OrgService, token string, rating int, comment string) (*Review, error) {
	comment, err := Check(rating, comment)
	if err != nil {
		return nil, err
	}
	d, err := org.Booking(ctx, token)
	if err != nil {
		return nil, err
	}
	if !s.Reviewable(org.Organization(), d) {
		return nil, &booking.Error{Code: booking.CodeBookingClosed, Message: "This stay cannot be reviewed before it is over.",
			Params: map[string]string{booking.ParamReason: ReasonStayNotOver}}
	}
	b := d.Booking
	r := &Review{OrgID: b.OrgID, PropertyID: b.PropertyID, BookingID: b.ID, Rating: rating, Comment: comment,
		Author: FirstName(b.GuestName), CheckIn: b.CheckIn, CheckOut: b.CheckOut, Locale: b.Locale, CreatedAt: s.clock.Now()}
	if err := s.store.AddReview(ctx, r); err != nil {
		return nil, fmt.Errorf("review booking %d: %w", b.ID, err)
	}
	return r, nil
}

// Public is a page of a property's published reviews with its figures.
type Public struct {
	Summary Summary
	Reviews []Review
	// Next is the cursor of the next page (Filter.Before), 0 after the
	// last.
	Next int64
}

// Published returns a page of the published reviews of one of org's
// active properties, newest first, after the cursor before (0: from the
// newest). Errors: booking.CodeNotFound (no such active property).
func (s *Service) Published(ctx context.Context, org *booking.OrgService, propertyID, before int64, limit int) (*Public, error) {
	ls, err := org.Properties(ctx)
	if err != nil {
		return nil, err
	}
	found := false
	for _, l := range ls {
		found = found || l.Property.ID == propertyID
	}
	if !found {
		return nil, &booking.Error{Code: booking.CodeNotFound, Message: "Property not found.",
			Params: map[string]string{booking.ParamSubject: "property"}}
	}
	sum, err := s.store.ReviewSummary(ctx, propertyID)
	if err != nil {
		return nil, fmt.Errorf("review summary of property %d: %w", propertyID, err)
	}
	rs, err := s.store.Reviews(ctx, org.Organization().ID, Filter{PropertyID: propertyID, PublishedOnly: true, Before: before, Limit: limit + 1})
	if err != nil {
		return nil, fmt.Errorf("reviews of property %d: %w", propertyID, err)
	}
	p := &Public{Summary: sum, Reviews: rs}
	if len(rs) > limit {
		p.Reviews = rs[:limit]
		p.Next = rs[limit-1].ID
	}
	return p, nil
}

// List returns the organisation's reviews that f selects, newest first,
// published or not: the host's view.
func (s *Service) List(ctx context.Context, org *booking.Organization, f Filter) ([]Review, error) {
	rs, err := s.store.Reviews(ctx, org.ID, f)
	if err != nil {
		return nil, fmt.Errorf("reviews of organisation %d: %w", org.ID, err)
	}
	return rs, nil
}

// publication is what the audit log keeps of a review's publication: never
// its text nor its author.
type publication struct {
	Rating    int  `json:"rating"`
	Published bool `json:"published"`
}

// Publish publishes one of org's reviews on its property (publish true)
// or withdraws it, audited as "review.publish" or "review.unpublish" in
// the same unit of work. Publishing a published review keeps its date.
// Errors: booking.CodeNotFound.
func (s *Service) Publish(ctx context.Context, org *booking.Organization, id int64, publish bool, by host.Actor) (*Review, error) {
	var out *Review
	err := s.records.Atomically(ctx, func(ctx context.Context) error {
		// The newest of org's reviews below id+1 is review id if org has it.
		rs, err := s.store.Reviews(ctx, org.ID, Filter{Before: id + 1, Limit: 1})
		if err != nil {
			return fmt.Errorf("review %d: %w", id, err)
		}
		if len(rs) == 0 || rs[0].ID != id {
			return &booking.Error{Code: booking.CodeNotFound, Message: "Review not found.",
				Params: map[string]string{booking.ParamSubject: "review"}}
		}
		before := rs[0]
		var at time.Time // zero: withdrawn
		if publish {
			at = before.PublishedAt
			if at.IsZero() {
				at = s.clock.Now()
			}
		}
		r, err := s.store.PublishReview(ctx, org.ID, id, at)
		if err != nil {
			return fmt.Errorf("publish review %d: %w", id, err)
		}
		out = r
		action := "review.publish"
		if !publish {
			action = "review.unpublish"
		}
		raw := func(v publication) json.RawMessage { b, _ := json.Marshal(v); return b }
		return s.records.RecordAudit(ctx, &host.AuditEntry{OrgID: org.ID, Actor: by.String(), ActorName: by.Name,
			Action: action, Target: "review:" + strconv.FormatInt(id, 10),
			Before: raw(publication{before.Rating, before.Published()}), After: raw(publication{r.Rating, r.Published()}),
			At: s.clock.Now()})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func isNotFound(err error) bool {
	var e *booking.Error
	return errors.As(err, &e) && e.Code == booking.CodeNotFound
}
