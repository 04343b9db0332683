package hostapi

import (
	"net/http"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
)

// checkinRoutes are the guests' online check-in and the authority files
// made from it (package checkin).
func (h *handler) checkinRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/bookings/{id}/checkin", h.getCheckin},
		{http.MethodPut, "/bookings/{id}/checkin", h.putCheckin},
		{http.MethodGet, "/bookings/{id}/checkin/status", h.getCheckinStatus},
		{http.MethodGet, "/bookings/{id}/checkin/file", h.getCheckinFile},
		{http.MethodGet, "/properties/{id}/checkin-file", h.getArrivalsCheckinFile},
	}
}

// checkinView is a booking's check-in: its completeness, and its guests
// when read in full.
type checkinView struct {
	BookingID    int64                `json:"booking_id"`
	Country      string               `json:"country"`
	Authority    *string              `json:"authority"`
	Completeness checkin.Completeness `json:"completeness"`
	Guests       *[]checkin.Guest     `json:"guests,omitempty"`
	UpdatedBy    *string              `json:"updated_by,omitempty"`
	UpdatedAt    *time.Time           `json:"updated_at,omitempty"`
	SubmittedAt  *time.Time           `json:"submitted_at,omitempty"`
}

func newCheckinView(v *host.CheckinView, full bool) checkinView {
	out := checkinView{BookingID: v.BookingID, Country: v.Country, Completeness: v.Completeness}
	if v.Authority != "" {
		out.Authority = &v.Authority
	}
	if !full {
		return out
	}
	guests := []checkin.Guest{}
	out.Guests = &guests
	if r := v.Record; r != nil {
		guests = r.Guests
		out.Guests = &guests
		at := r.UpdatedAt.UTC()
		out.UpdatedBy, out.UpdatedAt = &r.UpdatedBy, &at
		if !r.SubmittedAt.IsZero() {
			s := r.SubmittedAt.UTC()
			out.SubmittedAt = &s
		}
	}
	return out
}

// checkinBody is PUT /bookings/{id}/checkin.
type checkinBody struct {
	Guests []checkin.Guest `json:"guests"`
}

func (h *handler) getCheckin(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	v, err := h.host.Checkin(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCheckinView(v, true), nil
}

func (h *handler) getCheckinStatus(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	v, err := h.host.CheckinStatus(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCheckinView(v, false), nil
}

func (h *handler) putCheckin(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	var b checkinBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if _, err := h.host.SaveCheckin(r.Context(), c.org, id, b.Guests, c.actor); err != nil {
		return 0, nil, err
	}
	v, err := h.host.Checkin(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCheckinView(v, true), nil
}

func (h *handler) getCheckinFile(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	f, err := h.host.CheckinFile(r.Context(), c.org, id, r.URL.Query().Get("establishment_code"), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, fileAnswer{contentType: f.ContentType, name: f.Name, body: f.Body}, nil
}

func (h *handler) getArrivalsCheckinFile(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	day, err := civil.Parse(r.URL.Query().Get("date"))
	if err != nil {
		return 0, nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"date": {checkin.ReasonInvalid}}}
	}
	f, err := h.host.ArrivalsCheckinFile(r.Context(), c.org, id, day, r.URL.Query().Get("establishment_code"), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, fileAnswer{contentType: f.ContentType, name: f.Name, body: f.Body}, nil
}
