package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/privacy"
	"github.com/staykit/staykit/review"
)

var reviewScenarios = []scenario{
	{"Review/OncePublishedAndErased", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		rv := capabilityOf[review.Store](t, s)
		second := newProperty(t, s, w.org.ID)
		a := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-07-01", "2026-07-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		c := moveTo(t, s, newPending(t, s, second, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		add := func(bk *booking.Booking, rating int, comment string) *review.Review {
			r := &review.Review{BookingID: bk.ID, Rating: rating, Comment: comment, Author: "Marie", Locale: "fr", CreatedAt: t0.Add(time.Duration(rating) * time.Hour)}
			must(t, rv.AddReview(ctx, r))
			if r.ID == 0 {
				t.Fatalf("AddReview left the ID 0")
			}
			return r
		}
		ra, rb, rc := add(a, 5, "Parfait"), add(b, 4, ""), add(c, 2, "Bruyant")
		t.Run("Once", func(t *testing.T) {
			err := rv.AddReview(ctx, &review.Review{BookingID: a.ID, Rating: 1, Author: "x", Locale: "en", CreatedAt: t0})
			wantCode(t, err, booking.CodeConflict)
			var e *booking.Error
			if !errors.As(err, &e) || e.Params[booking.ParamReason] != review.ReasonAlreadyReviewed {
				t.Errorf("second review: %v, want reason %s", err, review.ReasonAlreadyReviewed)
			}
			wantCode(t, rv.AddReview(ctx, &review.Review{BookingID: a.ID + b.ID + c.ID + 1000, Rating: 1, Author: "x", Locale: "en", CreatedAt: t0}),
				booking.CodeNotFound)
		})
		t.Run("ReadBack", func(t *testing.T) {
			got, err := rv.BookingReview(ctx, a.ID)
			must(t, err)
			want := *ra
			want.OrgID, want.PropertyID, want.CheckIn, want.CheckOut = w.org.ID, w.prop.ID, a.CheckIn, a.CheckOut
			if *got != want {
				t.Errorf("BookingReview = %+v, want %+v", *got, want)
			}
			_, err = rv.BookingReview(ctx, a.ID+b.ID+c.ID+1000)
			wantCode(t, err, booking.CodeNotFound)
		})
		list := func(f review.Filter) []int64 {
			t.Helper()
			rs, err := rv.Reviews(ctx, w.org.ID, f)
			must(t, err)
			out := make([]int64, len(rs))
			for i, r := range rs {
				out[i] = r.ID
			}
			return out
		}
		sameIDs := func(what string, got []int64, want ...int64) {
			t.Helper()
			if len(got) != len(want) {
				t.Errorf("%s = %v, want %v", what, got, want)
				return
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s = %v, want %v", what, got, want)
					return
				}
			}
		}
		sameIDs("all", list(review.Filter{}), rc.ID, rb.ID, ra.ID)
		sameIDs("property", list(review.Filter{PropertyID: w.prop.ID}), rb.ID, ra.ID)
		sameIDs("page", list(review.Filter{Limit: 2}), rc.ID, rb.ID)
		sameIDs("next page", list(review.Filter{Before: rb.ID, Limit: 2}), ra.ID)
		sameIDs("published before any", list(review.Filter{PublishedOnly: true}))
		if rs, err := rv.Reviews(ctx, w.org.ID+1000, review.Filter{}); err != nil || len(rs) != 0 {
			t.Errorf("another organisation's reviews: %v, %v", rs, err)
		}

		at := t0.Add(10 * time.Hour)
		for _, r := range []*review.Review{ra, rb} {
			got, err := rv.PublishReview(ctx, w.org.ID, r.ID, at)
			must(t, err)
			if !got.PublishedAt.Equal(at) || got.ID != r.ID || got.Rating != r.Rating {
				t.Errorf("PublishReview = %+v", got)
			}
		}
		_, err := rv.PublishReview(ctx, w.org.ID+1000, rc.ID, at)
		wantCode(t, err, booking.CodeNotFound)
		sameIDs("published", list(review.Filter{PublishedOnly: true}), rb.ID, ra.ID)
		sum, err := rv.ReviewSummary(ctx, w.prop.ID)
		must(t, err)
		if sum.Count != 2 || !sum.Average.Equal(decimal.RequireFromString("4.5")) {
			t.Errorf("summary = %d, %s; want 2, 4.5", sum.Count, sum.Average)
		}
		if sum, err := rv.ReviewSummary(ctx, second.ID); err != nil || sum.Count != 0 || !sum.Average.IsZero() {
			t.Errorf("summary without published reviews = %+v, %v", sum, err)
		}
		got, err := rv.PublishReview(ctx, w.org.ID, rb.ID, time.Time{})
		must(t, err)
		if got.Published() {
			t.Errorf("withdrawn review still published at %v", got.PublishedAt)
		}
		sameIDs("published after a withdrawal", list(review.Filter{PublishedOnly: true, PropertyID: w.prop.ID}), ra.ID)

		must(t, records(t, s).EraseGuest(ctx, a.ID, privacy.Anonymous(t0.Add(11*time.Hour))))
		_, err = rv.BookingReview(ctx, a.ID)
		wantCode(t, err, booking.CodeNotFound)
		sameIDs("after the erasure", list(review.Filter{}), rc.ID, rb.ID)
		if sum, err := rv.ReviewSummary(ctx, w.prop.ID); err != nil || sum.Count != 0 {
			t.Errorf("summary after the erasure = %+v, %v", sum, err)
		}
	}},
	{"Review/RaceForOneBooking", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		rv := capabilityOf[review.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		got := race(12, func(i int) error {
			return rv.AddReview(t.Context(), &review.Review{BookingID: b.ID, Rating: 1 + i%5, Author: "Marie", Locale: "fr", CreatedAt: t0})
		})
		wantCounts(t, got, map[string]int{"": 1, booking.CodeConflict: 11})
	}},
}
