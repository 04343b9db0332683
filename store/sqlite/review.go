package sqlite

import (
	"context"
	"time"

	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/store/internal/rowmap"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ review.Store = (*DB)(nil)

// AddReview stores a guest's review of a booking (review.Store).
func (db *DB) AddReview(ctx context.Context, r *review.Review) error {
	id, err := sqlflow.Get(ctx, db.tx, "add review", func(q querier) (int64, error) {
		id, err := sqlflow.Value[int64](ctx, q, bookingNotFound(), `INSERT INTO reviews
			(org_id, property_id, booking_id, rating, comment, author, locale, created_at, published_at)
			SELECT org_id, property_id, id, ?, ?, ?, ?, ?, NULL FROM bookings WHERE id = ? RETURNING id`,
			r.Rating, r.Comment, r.Author, r.Locale, millis(r.CreatedAt), r.BookingID)
		if isUniqueViolation(err) {
			return 0, rowmap.AlreadyReviewed()
		}
		return id, err
	})
	if err != nil {
		return err
	}
	r.ID = id
	return nil
}

// BookingReview returns a booking's review (review.Store).
func (db *DB) BookingReview(ctx context.Context, bookingID int64) (*review.Review, error) {
	return sqlflow.Get(ctx, db.run, "booking review", func(q querier) (*review.Review, error) {
		return sqlflow.One(ctx, q, rowmap.ScanReview, rowmap.ReviewNotFound(), `SELECT `+rowmap.ReviewColumns+`
			FROM reviews r JOIN bookings b ON b.id = r.booking_id WHERE r.booking_id = ?`, bookingID)
	})
}

// Reviews lists an organisation's reviews, newest first (review.Store).
func (db *DB) Reviews(ctx context.Context, orgID int64, f review.Filter) ([]review.Review, error) {
	return sqlflow.Get(ctx, db.run, "reviews", func(q querier) ([]review.Review, error) {
		return sqlflow.All(ctx, q, rowmap.ScanReview, `SELECT `+rowmap.ReviewColumns+`
			FROM reviews r JOIN bookings b ON b.id = r.booking_id
			WHERE r.org_id = ? AND (? = 0 OR r.property_id = ?) AND (NOT ? OR r.published_at IS NOT NULL)
			AND (? = 0 OR r.id < ?)
			ORDER BY r.id DESC LIMIT ?`,
			orgID, f.PropertyID, f.PropertyID, f.PublishedOnly, f.Before, f.Before, noLimitAs(f.Limit, -1))
	})
}

// ReviewSummary sums up a property's published reviews (review.Store).
func (db *DB) ReviewSummary(ctx context.Context, propertyID int64) (review.Summary, error) {
	return sqlflow.Get(ctx, db.run, "review summary", func(q querier) (review.Summary, error) {
		s, err := sqlflow.One(ctx, q, rowmap.ScanReviewSummary, sqlflow.ErrNoRow, `SELECT COALESCE(SUM(rating), 0), COUNT(*) FROM reviews
			WHERE property_id = ? AND published_at IS NOT NULL`, propertyID)
		if err != nil {
			return review.Summary{}, err
		}
		return *s, nil
	})
}

// PublishReview sets when a review was published (review.Store).
func (db *DB) PublishReview(ctx context.Context, orgID, id int64, at time.Time) (*review.Review, error) {
	return sqlflow.Get(ctx, db.tx, "publish review", func(q querier) (*review.Review, error) {
		if err := sqlflow.Exec(ctx, q, rowmap.ReviewNotFound(), `UPDATE reviews SET published_at = ? WHERE org_id = ? AND id = ?`,
			millis(at), orgID, id); err != nil {
			return nil, err
		}
		return sqlflow.One(ctx, q, rowmap.ScanReview, rowmap.ReviewNotFound(), `SELECT `+rowmap.ReviewColumns+`
			FROM reviews r JOIN bookings b ON b.id = r.booking_id WHERE r.id = ?`, id)
	})
}

// noLimitAs is a Filter's limit as a LIMIT argument: n, or none (what the
// database takes for no limit) when n is zero.
func noLimitAs(n int, none any) any {
	if n == 0 {
		return none
	}
	return n
}
