package hostapi

import (
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
)

// ReasonDateChanges is the booking.ParamReason of the CodeNotConfigured
// of the date change routes on a handler without Options.Changes.
const ReasonDateChanges = "date_changes"

// changeRoutes are the guests' changes of dates or party (package
// datechange): the host reads them, approves or declines those that wait
// for approval, and says whether changes need it.
func (h *handler) changeRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/bookings/{id}/changes", h.listChanges},
		{http.MethodPost, "/changes/{id}/approve", h.approveChange},
		{http.MethodPost, "/changes/{id}/decline", h.declineChange},
		{http.MethodGet, "/change-settings", h.changeSettings},
		{http.MethodPatch, "/change-settings", h.saveChangeSettings},
	}
}

func (h *handler) changeService() (*datechange.Service, error) {
	if h.changes == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Date changes are not configured on this server.",
			Params: map[string]string{booking.ParamReason: ReasonDateChanges}}
	}
	return h.changes, nil
}

// changeView is a guest's change as the host sees it.
type changeView struct {
	ID             int64           `json:"id"`
	BookingID      int64           `json:"booking_id"`
	Status         string          `json:"status"`
	OldCheckIn     civil.Date      `json:"old_check_in"`
	OldCheckOut    civil.Date      `json:"old_check_out"`
	OldGuestsCount int             `json:"old_guests_count"`
	CheckIn        civil.Date      `json:"check_in"`
	CheckOut       civil.Date      `json:"check_out"`
	GuestsCount    int             `json:"guests_count"`
	Currency       string          `json:"currency"`
	PreviousTotal  decimal.Decimal `json:"previous_total"`
	TotalAmount    decimal.Decimal `json:"total_amount"`
	ChargeAmount   decimal.Decimal `json:"charge_amount"`
	RefundAmount   decimal.Decimal `json:"refund_amount"`
	RetainedAmount decimal.Decimal `json:"retained_amount"`
	Reason         *string         `json:"reason"`
	CreatedAt      time.Time       `json:"created_at"`
	ExpiresAt      *time.Time      `json:"expires_at"`
}

func newChangeView(c *datechange.Change) changeView {
	v := changeView{ID: c.ID, BookingID: c.BookingID, Status: string(c.Status), OldCheckIn: c.OldCheckIn, OldCheckOut: c.OldCheckOut,
		OldGuestsCount: c.OldGuests, CheckIn: c.Offer.CheckIn, CheckOut: c.Offer.CheckOut, GuestsCount: c.Offer.Guests,
		Currency: c.Offer.Quote.Currency, PreviousTotal: c.Offer.PreviousTotal, TotalAmount: c.Offer.Total,
		ChargeAmount: c.Offer.Charge, RefundAmount: c.Offer.Refund, RetainedAmount: c.Offer.Retained, CreatedAt: c.CreatedAt.UTC()}
	if c.Reason != "" {
		v.Reason = &c.Reason
	}
	if !c.ExpiresAt.IsZero() {
		at := c.ExpiresAt.UTC()
		v.ExpiresAt = &at
	}
	return v
}

// GET /bookings/{id}/changes
func (h *handler) listChanges(r *http.Request, c *call) (int, any, error) {
	cs, err := h.changeService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	list, err := cs.ChangesOf(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	items := make([]changeView, len(list))
	for i := range list {
		items[i] = newChangeView(&list[i])
	}
	return http.StatusOK, newList(items, 0), nil
}

// POST /changes/{id}/approve
func (h *handler) approveChange(r *http.Request, c *call) (int, any, error) {
	cs, err := h.changeService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "date_change")
	if err != nil {
		return 0, nil, err
	}
	v, err := cs.Approve(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newChangeView(v.Change), nil
}

type declineChangeBody struct {
	Reason string `json:"reason"`
}

// POST /changes/{id}/decline {"reason"?}
func (h *handler) declineChange(r *http.Request, c *call) (int, any, error) {
	cs, err := h.changeService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "date_change")
	if err != nil {
		return 0, nil, err
	}
	var b declineChangeBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if len(b.Reason) > 500 {
		f := booking.FieldErrors{}
		f.Add("reason", "too_long")
		return 0, nil, f.Err()
	}
	ch, err := cs.Decline(r.Context(), c.org, id, b.Reason, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newChangeView(ch), nil
}

type changeSettingsView struct {
	// Approval: the host approves each change before it applies.
	Approval bool `json:"approval"`
}

// GET /change-settings
func (h *handler) changeSettings(r *http.Request, c *call) (int, any, error) {
	cs, err := h.changeService()
	if err != nil {
		return 0, nil, err
	}
	on, err := cs.Approval(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, changeSettingsView{Approval: on}, nil
}

type changeSettingsBody struct {
	Approval *bool `json:"approval"`
}

// PATCH /change-settings {"approval"}
func (h *handler) saveChangeSettings(r *http.Request, c *call) (int, any, error) {
	cs, err := h.changeService()
	if err != nil {
		return 0, nil, err
	}
	var b changeSettingsBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if b.Approval == nil {
		f := booking.FieldErrors{}
		f.Add("approval", "required")
		return 0, nil, f.Err()
	}
	if err := cs.SetApproval(r.Context(), c.org, *b.Approval, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, changeSettingsView{Approval: *b.Approval}, nil
}
