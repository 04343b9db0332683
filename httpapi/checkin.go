package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/internal/apihttp"
)

// Routes of the guest's online check-in (package checkin).
const (
	RouteCheckinStatus = "checkin-status"
	RouteCheckin       = "checkin"
)

// GuestCheckin is the guests' online check-in, from their booking page
// (host.Service has it). The guest writes their identity data and reads
// back how complete it is, never the data itself.
type GuestCheckin interface {
	// GuestCheckinStatus is the completeness of the check-in of the
	// booking of token. Errors: booking.CodeNotFound.
	GuestCheckinStatus(ctx context.Context, org *booking.Organization, token string) (*checkin.Status, error)
	// SaveGuestCheckin replaces it. Errors: booking.CodeNotFound,
	// booking.CodeInvalid, booking.CodeBookingClosed.
	SaveGuestCheckin(ctx context.Context, org *booking.Organization, token string, guests []checkin.Guest) (*checkin.Status, error)
}

// checkinStatusView is a check-in's completeness for its guest.
type checkinStatusView struct {
	Country      string               `json:"country"`
	Authority    *string              `json:"authority"`
	Completeness checkin.Completeness `json:"completeness"`
	Fields       []string             `json:"fields"`
}

func newCheckinStatusView(s *checkin.Status) checkinStatusView {
	v := checkinStatusView{Country: s.Country, Completeness: s.Completeness, Fields: s.Fields}
	if s.Authority != "" {
		v.Authority = &s.Authority
	}
	return v
}

// errNoCheckin answers the check-in routes of a server that offers none.
func errNoCheckin() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Online check-in is not offered here.",
		Params: map[string]string{booking.ParamSubject: "checkin"}}
}

// GET /api/v1/book/{org_slug}/booking/{token}/checkin
func (h *handler) checkinStatus(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	if h.checkin == nil {
		return 0, nil, errNoCheckin()
	}
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	s, err := h.checkin.GuestCheckinStatus(r.Context(), o.Organization(), r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCheckinStatusView(s), nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/checkin
func (h *handler) saveCheckin(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	if h.checkin == nil {
		return 0, nil, errNoCheckin()
	}
	if !apihttp.IsJSON(r.Header.Get("Content-Type")) {
		return 0, nil, apihttp.ErrUnsupportedMediaType()
	}
	b, err := apihttp.ReadBody(w, r)
	if err != nil {
		return 0, nil, err
	}
	var body struct {
		Guests []checkin.Guest `json:"guests"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || !json.Valid(b) {
			return 0, nil, apihttp.ErrMalformedJSON()
		}
		return 0, nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"guests": {checkin.ReasonInvalid}}}
	}
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	s, err := h.checkin.SaveGuestCheckin(r.Context(), o.Organization(), r.PathValue("token"), body.Guests)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCheckinStatusView(s), nil
}
