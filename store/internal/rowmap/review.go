package rowmap

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/review"
)

// ReviewColumns are the columns of reviews r joined with their booking b,
// in the order ScanReview reads them.
const ReviewColumns = `r.id, r.org_id, r.property_id, r.booking_id, r.rating, r.comment, r.author, b.check_in, b.check_out,
	r.locale, r.created_at, r.published_at`

// ScanReview reads a row of ReviewColumns.
func ScanReview(c Codec, s Scanner) (*review.Review, error) {
	var r review.Review
	if err := Scan(s, &r.ID, &r.OrgID, &r.PropertyID, &r.BookingID, &r.Rating, &r.Comment, &r.Author,
		c.Day(&r.CheckIn), c.Day(&r.CheckOut), &r.Locale, c.Time(&r.CreatedAt), c.Instant(&r.PublishedAt)); err != nil {
		return nil, err
	}
	return &r, nil
}

// ReviewNotFound is the error of a review that is not there.
func ReviewNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Review not found.",
		Params: map[string]string{booking.ParamSubject: "review"}}
}

// AlreadyReviewed is the error of a second review of a booking.
func AlreadyReviewed() error {
	return &booking.Error{Code: booking.CodeConflict, Message: "This stay has already been reviewed.",
		Params: map[string]string{booking.ParamReason: review.ReasonAlreadyReviewed}}
}

// ScanReviewSummary reads the sum and count of a property's published
// ratings.
func ScanReviewSummary(_ Codec, s Scanner) (*review.Summary, error) {
	var sum int64
	var n int
	if err := Scan(s, &sum, &n); err != nil {
		return nil, err
	}
	return &review.Summary{Count: n, Average: review.Average(sum, n)}, nil
}
