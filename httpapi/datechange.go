package httpapi

import (
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
	moneyio "github.com/staykit/staykit/money"
)

// Routes of a guest's change of dates or party (package datechange) and
// of the payment schedule, on the booking token.
const (
	RouteChangeQuote = "change-quote"
	RouteChange      = "change"
	RouteChangeState = "change-state"
	RoutePayments    = "payments"
)

// changeRoutes are the date changes' operations, served when
// Options.Changes is set.
func (h *handler) changeRoutes() []route {
	return []route{
		{RouteChangeQuote, http.MethodPost, orgPrefix + "/booking/{token}/change/quote", true, h.changeQuote},
		{RouteChange, http.MethodPost, orgPrefix + "/booking/{token}/change", true, h.acceptChange},
		{RouteChangeState, http.MethodGet, orgPrefix + "/booking/{token}/change", true, h.changeState},
	}
}

// changeOfferView is what a change would do: the new stay's quote
// against what was paid and what the cancellation policy keeps.
type changeOfferView struct {
	CheckIn             civil.Date `json:"check_in"`
	CheckOut            civil.Date `json:"check_out"`
	Nights              int        `json:"nights"`
	GuestsCount         int        `json:"guests_count"`
	Currency            string     `json:"currency"`
	Quote               quoteView  `json:"quote"`
	PreviousTotal       money      `json:"previous_total"`
	PaidAmount          money      `json:"paid_amount"`
	PolicyRefundPercent float64    `json:"policy_refund_percent"`
	RetainedAmount      money      `json:"retained_amount"`
	TotalAmount         money      `json:"total_amount"`
	ChargeAmount        money      `json:"charge_amount"`
	RefundAmount        money      `json:"refund_amount"`
	BalanceAmount       money      `json:"balance_amount"`
	BalanceDueDate      optDate    `json:"balance_due_date"`
	CouponDropped       bool       `json:"coupon_dropped"`
	ApprovalRequired    bool       `json:"approval_required"`
}

func newChangeOfferView(propertyID int64, currency string, o *datechange.Offer) changeOfferView {
	pct, _ := o.PolicyPercent.Float64()
	m := func(d decimal.Decimal) money { return newMoney(d, currency) }
	return changeOfferView{CheckIn: o.CheckIn, CheckOut: o.CheckOut, Nights: o.CheckIn.DaysUntil(o.CheckOut), GuestsCount: o.Guests,
		Currency: currency, Quote: newQuoteView(propertyID, &o.Quote), PreviousTotal: m(o.PreviousTotal), PaidAmount: m(o.Paid),
		PolicyRefundPercent: pct, RetainedAmount: m(o.Retained), TotalAmount: m(o.Total), ChargeAmount: m(o.Charge),
		RefundAmount: m(o.Refund), BalanceAmount: m(o.Balance), BalanceDueDate: optDate(o.BalanceDueDate),
		CouponDropped: o.CouponDropped, ApprovalRequired: o.ApprovalRequired}
}

// changeView is a change as the guest's page shows it.
type changeView struct {
	ID               int64           `json:"id"`
	Status           string          `json:"status"`
	OldCheckIn       civil.Date      `json:"old_check_in"`
	OldCheckOut      civil.Date      `json:"old_check_out"`
	OldGuestsCount   int             `json:"old_guests_count"`
	Offer            changeOfferView `json:"offer"`
	Reason           *string         `json:"reason"`
	CreatedAt        optTime         `json:"created_at"`
	ExpiresAt        optTime         `json:"expires_at"`
	ClientSecret     *string         `json:"client_secret"`
	PaymentPublicKey string          `json:"payment_public_key"`
}

// changeRequest reads the body of a change: its stay.
func changeRequest(w http.ResponseWriter, r *http.Request) (datechange.Request, error) {
	o, err := decodeObject(w, r, false)
	if err != nil {
		return datechange.Request{}, err
	}
	req := datechange.Request{CheckIn: o.date("check_in"), CheckOut: o.date("check_out"), Guests: o.int("guests_count"), Locale: o.str("locale")}
	for _, f := range []string{"check_in", "check_out", "guests_count"} {
		if o.raw(f) == nil && o.errs[f] == nil {
			o.errs.Add(f, "required")
		}
	}
	if req.Locale != "" && req.Locale != "fr" && req.Locale != "en" {
		o.errs.Add("locale", "invalid_choice")
	}
	return req, o.err()
}

// POST /api/v1/book/{org_slug}/booking/{token}/change/quote
func (h *handler) changeQuote(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	req, err := changeRequest(w, r)
	if err != nil {
		return 0, nil, err
	}
	if req.Locale == "" {
		req.Locale = h.locale(r, st)
	}
	offer, err := h.changes.Quote(r.Context(), st.slug, r.PathValue("token"), req)
	if err != nil {
		return 0, nil, err
	}
	d, err := h.svc.Booking(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newChangeOfferView(d.Booking.PropertyID, d.Booking.Currency, offer), nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/change
func (h *handler) acceptChange(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	req, err := changeRequest(w, r)
	if err != nil {
		return 0, nil, err
	}
	if req.Locale == "" {
		req.Locale = h.locale(r, st)
	}
	v, err := h.changes.Accept(r.Context(), st.slug, r.PathValue("token"), req)
	if err != nil {
		return 0, nil, err
	}
	return h.changeData(r, st, v)
}

// GET /api/v1/book/{org_slug}/booking/{token}/change
func (h *handler) changeState(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	v, err := h.changes.Current(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	if v == nil {
		return 0, nil, datechange.ErrChangeNotFound()
	}
	return h.changeData(r, st, v)
}

func (h *handler) changeData(r *http.Request, st *reqState, v *datechange.View) (int, any, error) {
	d, err := h.svc.Booking(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	c := v.Change
	out := changeView{ID: c.ID, Status: string(c.Status), OldCheckIn: c.OldCheckIn, OldCheckOut: c.OldCheckOut, OldGuestsCount: c.OldGuests,
		Offer: newChangeOfferView(d.Booking.PropertyID, d.Booking.Currency, &c.Offer), Reason: optString(c.Reason),
		CreatedAt: optTime(c.CreatedAt), ExpiresAt: optTime(c.ExpiresAt), ClientSecret: optString(v.ClientSecret),
		PaymentPublicKey: v.PaymentPublicKey}
	return http.StatusOK, out, nil
}

// paymentView is one line of the payment schedule.
type paymentView struct {
	Kind   string  `json:"kind"`
	Status string  `json:"status"`
	Amount money   `json:"amount"`
	Date   optTime `json:"date"`
}

// paymentsView is a booking's payment schedule.
type paymentsView struct {
	Currency       string        `json:"currency"`
	TotalAmount    money         `json:"total_amount"`
	PaidAmount     money         `json:"paid_amount"`
	RefundedAmount money         `json:"refunded_amount"`
	BalanceAmount  money         `json:"balance_amount"`
	BalanceDueDate optDate       `json:"balance_due_date"`
	BalanceStatus  string        `json:"balance_status"`
	CanPayNow      bool          `json:"can_pay_balance_now"`
	Items          []paymentView `json:"items"`
}

// GET /api/v1/book/{org_slug}/booking/{token}/payments
func (h *handler) payments(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	d, err := h.svc.Booking(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	org, err := h.svc.Organization(r.Context(), st.slug)
	if err != nil {
		return 0, nil, err
	}
	b := d.Booking
	entries, err := h.svc.Payments(r.Context(), &b)
	if err != nil {
		return 0, nil, err
	}
	cur := b.Currency
	bal := booking.BalanceOf(&b, d.Terms)
	v := paymentsView{Currency: cur, TotalAmount: newMoney(b.TotalAmount, cur), PaidAmount: newMoney(b.PaidAmount, cur),
		RefundedAmount: newMoney(d.Refunded.Add(d.RefundPending), cur), BalanceAmount: newMoney(b.BalanceAmount, cur),
		BalanceDueDate: optDate(b.BalanceDueDate), BalanceStatus: string(bal.Status),
		CanPayNow: b.Status == booking.StatusConfirmed && bal.Status == booking.BalanceScheduled && b.BalanceAmount.IsPositive(),
		Items:     []paymentView{}}
	for _, p := range moneyio.Schedule(&b, d.Terms, entries, org.Location()) {
		v.Items = append(v.Items, paymentView{Kind: p.Kind, Status: p.Status, Amount: newMoney(p.Amount, cur), Date: optTime(p.At)})
	}
	return http.StatusOK, v, nil
}
