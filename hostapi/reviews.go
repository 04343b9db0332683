package hostapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/review"
)

// ReasonReviews is the booking.ParamReason of the CodeNotConfigured of
// the review routes on a handler without Options.Reviews.
const ReasonReviews = "reviews"

// reviewRoutes are the guests' reviews (package review).
func (h *handler) reviewRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/reviews", h.listReviews},
		{http.MethodPost, "/reviews/{id}/publish", h.publishReview(true)},
		{http.MethodPost, "/reviews/{id}/unpublish", h.publishReview(false)},
	}
}

func (h *handler) reviewService() (*review.Service, error) {
	if h.reviews == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Reviews are not configured on this server.",
			Params: map[string]string{booking.ParamReason: ReasonReviews}}
	}
	return h.reviews, nil
}

// reviewView is a guest's review as the host sees it.
type reviewView struct {
	ID          int64      `json:"id"`
	BookingID   int64      `json:"booking_id"`
	PropertyID  int64      `json:"property_id"`
	Rating      int        `json:"rating"`
	Comment     string     `json:"comment"`
	Author      string     `json:"author"`
	CheckIn     civil.Date `json:"check_in"`
	CheckOut    civil.Date `json:"check_out"`
	Locale      string     `json:"locale"`
	CreatedAt   time.Time  `json:"created_at"`
	PublishedAt *time.Time `json:"published_at"`
}

// guestBooking: a review shows its guest (aboutBooking).
func (v reviewView) guestBooking() int64 { return v.BookingID }

func newReviewView(r *review.Review) reviewView {
	v := reviewView{ID: r.ID, BookingID: r.BookingID, PropertyID: r.PropertyID, Rating: r.Rating, Comment: r.Comment,
		Author: r.Author, CheckIn: r.CheckIn, CheckOut: r.CheckOut, Locale: r.Locale, CreatedAt: r.CreatedAt.UTC()}
	if r.Published() {
		at := r.PublishedAt.UTC()
		v.PublishedAt = &at
	}
	return v
}

// GET /reviews?property_id=&published=&limit=&cursor=
func (h *handler) listReviews(r *http.Request, c *call) (int, any, error) {
	rs, err := h.reviewService()
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	limit, cursor, err := page(q)
	if err != nil {
		return 0, nil, err
	}
	f := review.Filter{Before: cursor, Limit: limit + 1}
	errs := booking.FieldErrors{}
	if s := q.Get("property_id"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			errs.Add("property_id", "invalid_type")
		}
		f.PropertyID = id
	}
	switch q.Get("published") {
	case "", "false":
	case "true":
		f.PublishedOnly = true
	default:
		errs.Add("published", "invalid_choice")
	}
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	list, err := rs.List(r.Context(), c.org, f)
	if err != nil {
		return 0, nil, err
	}
	var next int64
	if len(list) > limit {
		list = list[:limit]
		next = list[limit-1].ID
	}
	items := make([]reviewView, len(list))
	for i := range list {
		items[i] = newReviewView(&list[i])
	}
	return http.StatusOK, newList(items, next), nil
}

// POST /reviews/{id}/publish and /reviews/{id}/unpublish
func (h *handler) publishReview(publish bool) op {
	return func(r *http.Request, c *call) (int, any, error) {
		rs, err := h.reviewService()
		if err != nil {
			return 0, nil, err
		}
		id, err := pathID(r, "id", "review")
		if err != nil {
			return 0, nil, err
		}
		rv, err := rs.Publish(r.Context(), c.org, id, publish, c.actor)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, newReviewView(rv), nil
	}
}
