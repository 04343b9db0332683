// Package review keeps what guests say of their stay (issue #28): after
// a stay is over, its guest may rate it (1 to 5) and leave a comment,
// once, from the booking page; the host reads every review and chooses
// which to publish on the property, where the public API shows them with
// the property's average rating.
//
// Only the guest of a confirmed booking whose check-out date has come, in
// the organisation's time zone, may review it: a pending, cancelled or
// declined booking, or a stay not yet over, cannot be reviewed. The
// database enforces "once": a second review of a booking is refused
// (booking.CodeConflict, reason ReasonAlreadyReviewed), whatever the race.
//
// A published review shows the guest's first name only, never the rest
// of their name nor their e-mail address; an erasure of the guest (package
// privacy) deletes the review, as its text may name them.
package review

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// Limits of a review.
const (
	MinRating = 1
	MaxRating = 5
	// MaxComment is the longest comment, in characters.
	MaxComment = 2000
)

// Reasons (booking.ParamReason) of the refusals of Service.Submit.
const (
	// ReasonAlreadyReviewed: the booking has its review (CodeConflict).
	ReasonAlreadyReviewed = "already_reviewed"
	// ReasonStayNotOver: the booking is not a confirmed stay whose
	// check-out date has come (CodeBookingClosed).
	ReasonStayNotOver = "stay_not_over"
)

// Review is a guest's rating and comment of one stay.
type Review struct {
	ID         int64
	OrgID      int64
	PropertyID int64
	BookingID  int64
	// Rating is from MinRating to MaxRating.
	Rating int
	// Comment is what the guest wrote, "" for a rating alone.
	Comment string
	// Author is the guest's first name, as a published review shows it.
	Author string
	// CheckIn and CheckOut are the stay's dates (a published review shows
	// its month).
	CheckIn, CheckOut civil.Date
	// Locale is the guest's language ("fr", "en").
	Locale    string
	CreatedAt time.Time
	// PublishedAt is when the host published it; zero while it is not.
	PublishedAt time.Time
}

// Published reports whether the host published the review.
func (r Review) Published() bool { return !r.PublishedAt.IsZero() }

// Filter selects an organisation's reviews.
type Filter struct {
	// PropertyID, when non-zero, keeps that property's reviews.
	PropertyID int64
	// PublishedOnly keeps the published ones.
	PublishedOnly bool
	// Before, when non-zero, keeps the reviews of IDs below it (the next
	// page of a list newest first).
	Before int64
	// Limit is the most returned; zero means no limit.
	Limit int
}

// Summary is a property's published reviews in figures.
type Summary struct {
	// Count is the number of published reviews.
	Count int
	// Average is their mean rating, rounded to one decimal; zero without
	// any.
	Average decimal.Decimal
}

// Store keeps the reviews; store/sqlite and store/postgres implement it,
// store/storetest checks it. A store deletes a booking's review with the
// booking and with its guest's erasure (privacy.Store.EraseGuest).
type Store interface {
	// AddReview stores r and sets its ID. Errors: booking.CodeConflict
	// (reason ReasonAlreadyReviewed) when the booking has a review,
	// booking.CodeNotFound when r.BookingID is no booking.
	AddReview(ctx context.Context, r *Review) error
	// BookingReview returns a booking's review. Errors:
	// booking.CodeNotFound when it has none.
	BookingReview(ctx context.Context, bookingID int64) (*Review, error)
	// Reviews lists an organisation's reviews that f selects, newest
	// first.
	Reviews(ctx context.Context, orgID int64, f Filter) ([]Review, error)
	// ReviewSummary sums up a property's published reviews.
	ReviewSummary(ctx context.Context, propertyID int64) (Summary, error)
	// PublishReview sets the PublishedAt of one of an organisation's
	// reviews (zero: not published) and returns it. Errors:
	// booking.CodeNotFound.
	PublishReview(ctx context.Context, orgID, id int64, at time.Time) (*Review, error)
}

// Check validates a rating and comment, returning the comment without its
// leading and trailing white space (CR LF line breaks become LF), or a
// booking.CodeInvalid error naming the fields: rating out_of_range,
// comment too_long or invalid_characters.
func Check(rating int, comment string) (string, error) {
	comment = strings.TrimSpace(strings.ReplaceAll(comment, "\r\n", "\n"))
	f := booking.FieldErrors{}
	if rating < MinRating || rating > MaxRating {
		f.Add("rating", "out_of_range")
	}
	switch {
	case !utf8.ValidString(comment) || strings.ContainsFunc(comment, forbidden):
		f.Add("comment", booking.ReasonInvalidCharacters)
	case utf8.RuneCountInString(comment) > MaxComment:
		f.Add("comment", "too_long")
	}
	if err := f.Err(); err != nil {
		return "", err
	}
	return comment, nil
}

// forbidden reports a character a comment may not hold: control and
// format characters (NUL, bidi overrides…), except line breaks and tabs.
func forbidden(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// FirstName is the part of a guest's name a published review shows: its
// first word ("Marie" of "Marie Curie"), "" for a blank name.
func FirstName(name string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(name), " ")
	return first
}

// Average is the mean of ratings, rounded half up to one decimal; zero
// for none. Stores that sum in SQL call it with the sum and count.
func Average(sum int64, count int) decimal.Decimal {
	if count == 0 {
		return decimal.Zero
	}
	return decimal.NewFromInt(sum).Div(decimal.NewFromInt(int64(count))).Round(1)
}
