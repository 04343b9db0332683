package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/review"
)

// Route names of the reviews (package review).
const (
	RouteReviews       = "reviews"
	RouteBookingReview = "booking-review"
	RouteReview        = "review"
)

// maxReviewsPage is the most reviews a page holds, and its default size.
const maxReviewsPage = 50

// reviewRoutes are the reviews' operations, served when Options.Reviews
// is set.
func (h *handler) reviewRoutes() []route {
	return []route{
		{RouteReviews, http.MethodGet, orgPrefix + "/properties/{id}/reviews", true, h.propertyReviews},
		{RouteBookingReview, http.MethodGet, orgPrefix + "/booking/{token}/review", true, h.bookingReview},
		{RouteReview, http.MethodPost, orgPrefix + "/booking/{token}/review", true, h.submitReview},
	}
}

// publicReviewView is a published review: the guest's first name and the
// month of the stay, never more of the guest.
type publicReviewView struct {
	Rating      int     `json:"rating"`
	Comment     string  `json:"comment"`
	Author      string  `json:"author"`
	StayMonth   string  `json:"stay_month"`
	PublishedAt optTime `json:"published_at"`
}

type reviewsView struct {
	// Rating is the mean of the published ratings with one decimal, null
	// without any.
	Rating       *json.Number       `json:"rating"`
	ReviewsCount int                `json:"reviews_count"`
	Items        []publicReviewView `json:"items"`
	NextCursor   *string            `json:"next_cursor"`
}

// GET /api/v1/book/{org_slug}/properties/{id}/reviews?limit=&cursor=
func (h *handler) propertyReviews(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	errs := booking.FieldErrors{}
	limit := maxReviewsPage
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > maxReviewsPage {
			errs.Add("limit", "out_of_range")
		}
		limit = n
	}
	var before int64
	if q.Has("cursor") {
		n, err := strconv.ParseInt(q.Get("cursor"), 10, 64)
		if err != nil || n < 1 {
			errs.Add("cursor", "invalid_type")
		}
		before = n
	}
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	p, err := h.reviews.Published(r.Context(), o, id, before, limit)
	if err != nil {
		return 0, nil, err
	}
	v := reviewsView{ReviewsCount: p.Summary.Count, Items: make([]publicReviewView, len(p.Reviews))}
	if p.Summary.Count > 0 {
		n := json.Number(p.Summary.Average.StringFixed(1))
		v.Rating = &n
	}
	for i, rv := range p.Reviews {
		v.Items[i] = publicReviewView{Rating: rv.Rating, Comment: rv.Comment, Author: rv.Author,
			StayMonth: rv.CheckIn.String()[:7], PublishedAt: optTime(rv.PublishedAt)}
	}
	if p.Next != 0 {
		s := strconv.FormatInt(p.Next, 10)
		v.NextCursor = &s
	}
	return http.StatusOK, v, nil
}

// guestReviewView is the booking's review as its guest sees it.
type guestReviewView struct {
	Rating    int     `json:"rating"`
	Comment   string  `json:"comment"`
	CreatedAt optTime `json:"created_at"`
	Published bool    `json:"published"`
}

type bookingReviewView struct {
	// Reviewable: the stay is over and not yet reviewed.
	Reviewable bool             `json:"reviewable"`
	Review     *guestReviewView `json:"review"`
}

func newGuestReviewView(r *review.Review) *guestReviewView {
	if r == nil {
		return nil
	}
	return &guestReviewView{Rating: r.Rating, Comment: r.Comment, CreatedAt: optTime(r.CreatedAt), Published: r.Published()}
}

// GET /api/v1/book/{org_slug}/booking/{token}/review
func (h *handler) bookingReview(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	g, err := h.reviews.ForGuest(r.Context(), o, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, bookingReviewView{Reviewable: g.Reviewable, Review: newGuestReviewView(g.Review)}, nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/review {"rating","comment"}
func (h *handler) submitReview(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, false)
	if err != nil {
		return 0, nil, err
	}
	rating, ok := o.int64("rating")
	if !ok && o.errs["rating"] == nil {
		o.errs.Add("rating", "required")
	}
	comment := o.str("comment")
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	if rating < review.MinRating || rating > review.MaxRating {
		rating = 0 // review.Check names it out of range
	}
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	rv, err := h.reviews.Submit(r.Context(), org, r.PathValue("token"), int(rating), comment)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, bookingReviewView{Review: newGuestReviewView(rv)}, nil
}
