package hostapi

import (
	"net/http"
)

// privacyRoutes are the GDPR requests about a booking's guest (issue
// #29): the export of their data and its erasure.
func (h *handler) privacyRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/bookings/{id}/guest-data", h.guestData},
		{http.MethodPost, "/bookings/{id}/erase-guest", h.eraseGuest},
	}
}

func (h *handler) guestData(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	e, err := h.host.GuestData(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, e, nil
}

func (h *handler) eraseGuest(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	if _, err := h.host.EraseGuest(r.Context(), c.org, id, c.actor); err != nil {
		return 0, nil, err
	}
	d, err := h.host.BookingDetail(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingFullView(d), nil
}
