package httpapi

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// Routes of cancellations and balances on the booking token.
const (
	RouteCancellation   = "cancellation"
	RouteCancel         = "cancel"
	RouteBalancePayment = "balance-payment"
)

// GET /api/v1/book/{org_slug}/booking/{token}/cancellation
func (h *handler) cancellation(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	token := r.PathValue("token")
	pv, err := h.svc.CancellationPreview(r.Context(), st.slug, token)
	if err != nil {
		return 0, nil, err
	}
	d, err := h.svc.Booking(r.Context(), st.slug, token)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCancellationView(pv, d.Booking.Currency, h.locale(r, st)), nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/cancel
func (h *handler) cancel(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, true)
	if err != nil {
		return 0, nil, err
	}
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	d, err := h.svc.CancelByGuest(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingView(d), nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/balance {"pay_now"?}
func (h *handler) balancePayment(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, true)
	if err != nil {
		return 0, nil, err
	}
	payNow := false
	switch v := string(o.raw("pay_now")); v {
	case "", "false":
	case "true":
		payNow = true
	default:
		o.errs.Add("pay_now", "invalid_type")
	}
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	if payNow {
		// Pay the scheduled balance now, through its own ledger entry:
		// its job, on the due date, finds it settled.
		d, err := h.svc.Booking(r.Context(), st.slug, r.PathValue("token"))
		if err != nil {
			return 0, nil, err
		}
		if err := h.money.PayBalanceNow(r.Context(), &d.Booking); err != nil {
			return 0, nil, err
		}
	}
	b, err := h.svc.BalancePayment(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	d, err := h.svc.Booking(r.Context(), st.slug, r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	v := balancePaymentView{balanceView: newBalanceView(b, d.Booking.Currency), ClientSecret: optString(b.ClientSecret),
		PaymentPublicKey: h.svc.PaymentPublicKey()}
	return http.StatusOK, v, nil
}

// policyView is a cancellation policy with a sentence saying it.
type policyView struct {
	Name          string           `json:"name"`
	Tiers         []policyTierView `json:"tiers"`
	NonRefundable money            `json:"non_refundable_amount"`
	Summary       string           `json:"summary"`
}

type policyTierView struct {
	DaysBefore    int     `json:"days_before"`
	RefundPercent percent `json:"refund_percent"`
}

// percent marshals as a JSON number (50, 33.5).
type percent decimal.Decimal

// MarshalJSON writes the percentage as a number.
func (p percent) MarshalJSON() ([]byte, error) { return []byte(decimal.Decimal(p).String()), nil }

func newPolicyView(p policy.Policy, currency, loc string) *policyView {
	v := &policyView{Name: p.Name, Tiers: make([]policyTierView, len(p.Tiers)),
		NonRefundable: newMoney(p.NonRefundable, currency), Summary: policySummary(p, currency, loc)}
	for i, t := range p.Tiers {
		v.Tiers[i] = policyTierView{DaysBefore: t.DaysBefore, RefundPercent: percent(t.RefundPercent)}
	}
	return v
}

// policySummary says a policy in a sentence or two.
func policySummary(p policy.Policy, currency, loc string) string {
	fr := loc == apihttp.FR
	var parts []string
	for _, t := range p.Tiers {
		if t.RefundPercent.IsZero() {
			continue
		}
		share := t.RefundPercent.String() + "%"
		if fr {
			share = t.RefundPercent.String() + " %"
		}
		switch {
		case fr && t.RefundPercent.Equal(decimal.NewFromInt(100)):
			share = "intégral"
		case !fr && t.RefundPercent.Equal(decimal.NewFromInt(100)):
			share = "Full"
		}
		when := fmt.Sprintf("at least %d days before check-in", t.DaysBefore)
		if fr {
			when = fmt.Sprintf("au moins %d jours avant l'arrivée", t.DaysBefore)
		}
		switch {
		case t.DaysBefore == 0 && fr:
			when = "avant le jour de l'arrivée"
		case t.DaysBefore == 0:
			when = "before the day of check-in"
		case t.DaysBefore == 1 && fr:
			when = "au moins 1 jour avant l'arrivée"
		case t.DaysBefore == 1:
			when = "at least 1 day before check-in"
		}
		if fr {
			lead := "Remboursement "
			if len(parts) > 0 {
				lead = "remboursement "
			}
			parts = append(parts, lead+share+" en cas d'annulation "+when)
		} else {
			parts = append(parts, share+" refund if cancelled "+when)
		}
	}
	var s string
	switch {
	case len(parts) == 0 && fr:
		s = "Non remboursable."
	case len(parts) == 0:
		s = "Non-refundable."
	case fr:
		s = strings.Join(parts, " ; ") + " ; aucun remboursement ensuite."
	default:
		s = strings.Join(parts, "; ") + "; no refund after that."
	}
	if p.NonRefundable.IsPositive() {
		amount := formatAmount(p.NonRefundable, currency, loc)
		if fr {
			s += " " + amount + " ne sont jamais remboursés."
		} else {
			s += " " + amount + " is never refunded."
		}
	}
	return s
}

// formatAmount writes an amount for a sentence: "380.00 EUR", "380,00 EUR".
func formatAmount(d decimal.Decimal, currency, loc string) string {
	s := d.StringFixed(pricing.MinorUnits(currency))
	if loc == apihttp.FR {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + " " + currency
}

var monthsFR = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}

// formatDate writes a date for a sentence: "5 June 2026", "5 juin 2026".
func formatDate(d civil.Date, loc string) string {
	if loc == apihttp.FR {
		return fmt.Sprintf("%d %s %d", d.Day, monthsFR[d.Month-1], d.Year)
	}
	return fmt.Sprintf("%d %s %d", d.Day, d.Month, d.Year)
}

// balanceConsent is the sentence the page shows beside the card form when
// the card is kept for the balance.
func balanceConsent(b booking.Booking, t *booking.Terms, loc string) *string {
	if t == nil || t.BalanceStatus != booking.BalanceScheduled {
		return nil
	}
	amount, date := formatAmount(b.BalanceAmount, b.Currency, loc), formatDate(b.BalanceDueDate, loc)
	s := "The balance of " + amount + " will be charged to this card on " + date + "."
	if loc == apihttp.FR {
		s = "Le solde de " + amount + " sera débité sur cette carte le " + date + "."
	}
	return &s
}

// depositConsent says that a security deposit will be held on the card.
func depositConsent(b booking.Booking, t *booking.Terms, loc string) *string {
	if t == nil || t.DepositStatus != booking.DepositScheduled {
		return nil
	}
	amount := formatAmount(t.Deposit, b.Currency, loc)
	date := formatDate(b.CheckIn.AddDays(-t.DepositHoldDays), loc)
	s := "A security deposit of " + amount + " will be held on this card from " + date + " and released after your stay unless damage is found."
	if loc == apihttp.FR {
		s = "Une caution de " + amount + " sera bloquée sur cette carte à partir du " + date + " et libérée après votre séjour, sauf dommage constaté."
	}
	return &s
}

// balanceView is where a booking's balance stands.
type balanceView struct {
	Status  string  `json:"status"`
	Amount  money   `json:"amount"`
	DueDate optDate `json:"due_date"`
}

func newBalanceView(b *booking.BalanceState, currency string) balanceView {
	return balanceView{Status: string(b.Status), Amount: newMoney(b.Amount, currency), DueDate: optDate(b.DueDate)}
}

type balancePaymentView struct {
	balanceView
	ClientSecret     *string `json:"client_secret"`
	PaymentPublicKey string  `json:"payment_public_key"`
}

// securityDepositView is where a booking's security deposit stands.
type securityDepositView struct {
	Status        string `json:"status"`
	Amount        money  `json:"amount"`
	ClaimedAmount money  `json:"claimed_amount"`
}

func newSecurityDepositView(t *booking.Terms, currency string) *securityDepositView {
	if t == nil || t.DepositStatus == booking.DepositNone || t.DepositStatus == "" {
		return nil
	}
	return &securityDepositView{Status: string(t.DepositStatus), Amount: newMoney(t.Deposit, currency), ClaimedAmount: newMoney(t.DepositClaimed, currency)}
}

// cancellationView is what cancelling now would refund.
type cancellationView struct {
	Cancellable       bool        `json:"cancellable"`
	Currency          string      `json:"currency"`
	PaidAmount        money       `json:"paid_amount"`
	RefundAmount      money       `json:"refund_amount"`
	RefundPercent     percent     `json:"refund_percent"`
	RefundUntil       optTime     `json:"refund_until"`
	NextRefundPercent percent     `json:"next_refund_percent"`
	Policy            *policyView `json:"policy"`
}

func newCancellationView(pv *booking.CancellationPreview, currency, loc string) cancellationView {
	return cancellationView{Cancellable: pv.Cancellable, Currency: currency,
		PaidAmount: newMoney(pv.Paid, currency), RefundAmount: newMoney(pv.Refund, currency),
		RefundPercent: percent(pv.Percent), RefundUntil: optTime(pv.Until), NextRefundPercent: percent(pv.NextPercent),
		Policy: newPolicyView(pv.Policy, currency, loc)}
}
