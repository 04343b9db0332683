package hostapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/staykit/staykit/closeout"
)

// closeoutRoutes are the same-day close-out's setting (package closeout).
func (h *handler) closeoutRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/settings/sync-closeout", h.getSyncCloseout},
		{http.MethodPatch, "/settings/sync-closeout", h.patchSyncCloseout},
	}
}

// closeoutView is the organisation's same-day close-out threshold.
type closeoutView struct {
	// MaxExposureMinutes is null when there is no close-out.
	MaxExposureMinutes *int64 `json:"max_exposure_minutes"`
}

func newCloseoutView(d time.Duration) closeoutView {
	if d <= 0 {
		return closeoutView{}
	}
	m := int64(d / time.Minute)
	return closeoutView{MaxExposureMinutes: &m}
}

// closeoutBody is PATCH /settings/sync-closeout: a number of minutes, or
// null (or 0) for none. The field is required.
type closeoutBody struct {
	MaxExposureMinutes nullableMinutes `json:"max_exposure_minutes"`
}

// nullableMinutes is a field that may be absent, null or a whole number:
// encoding/json passes null to UnmarshalJSON of a value type, so that
// null and absent differ.
type nullableMinutes struct {
	set     bool
	minutes *int64
	// bad: neither null nor a whole number.
	bad bool
}

func (n *nullableMinutes) UnmarshalJSON(b []byte) error {
	n.set = true
	if string(b) == "null" {
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		n.bad = true
		return nil
	}
	n.minutes = &v
	return nil
}

func (h *handler) getSyncCloseout(r *http.Request, c *call) (int, any, error) {
	d, err := h.host.SyncCloseout(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCloseoutView(d), nil
}

func (h *handler) patchSyncCloseout(r *http.Request, c *call) (int, any, error) {
	var b closeoutBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	switch {
	case !b.MaxExposureMinutes.set:
		return 0, nil, invalid("max_exposure_minutes", "required")
	case b.MaxExposureMinutes.bad:
		return 0, nil, invalid("max_exposure_minutes", "invalid_type")
	}
	minutes := b.MaxExposureMinutes.minutes
	var d time.Duration
	if minutes != nil {
		if *minutes < 0 || *minutes > int64(closeout.MaxThreshold/time.Minute) {
			return 0, nil, invalid("max_exposure_minutes", "out_of_range")
		}
		d = time.Duration(*minutes) * time.Minute
	}
	d, err := h.host.SetSyncCloseout(r.Context(), c.org, d, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCloseoutView(d), nil
}
