package hostapi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// cancelBody is POST /bookings/{id}/cancel: refund is true (everything
// paid), false (nothing), or a rule ("policy", "full", "none", "amount");
// amount alone means the rule "amount".
type cancelBody struct {
	Refund json.RawMessage  `json:"refund"`
	Amount *decimal.Decimal `json:"amount"`
}

// options reads the refund choice. Errors: CodeInvalid.
func (b cancelBody) options() (booking.CancelOptions, error) {
	var o booking.CancelOptions
	raw := bytes.TrimSpace(b.Refund)
	switch {
	case len(raw) == 0, bytes.Equal(raw, []byte("null")):
		o.Refund = booking.RefundNone
		if b.Amount != nil {
			o.Refund = booking.RefundAmount
		}
	case bytes.Equal(raw, []byte("true")):
		o.Refund = booking.RefundFull
	case bytes.Equal(raw, []byte("false")):
		o.Refund = booking.RefundNone
	default:
		var rule string
		if err := json.Unmarshal(raw, &rule); err != nil {
			return o, invalid("refund", "invalid_type")
		}
		switch r := booking.RefundRule(rule); r {
		case booking.RefundPolicy, booking.RefundFull, booking.RefundNone, booking.RefundAmount:
			o.Refund = r
		default:
			return o, invalid("refund", "invalid_choice")
		}
	}
	switch {
	case o.Refund == booking.RefundAmount && b.Amount == nil:
		return o, invalid("amount", "required")
	case o.Refund != booking.RefundAmount && b.Amount != nil:
		return o, invalid("refund", "invalid_choice")
	case b.Amount != nil:
		o.Amount = *b.Amount
	}
	return o, nil
}

// claimBody is POST /bookings/{id}/deposit/claim.
type claimBody struct {
	Amount *decimal.Decimal `json:"amount"`
}

// depositView is a booking's security deposit and where it stands.
type depositView struct {
	Amount        decimal.Decimal `json:"amount"`
	Status        string          `json:"status"`
	ClaimedAmount decimal.Decimal `json:"claimed_amount"`
	HoldDays      int             `json:"hold_days"`
	ReleaseDays   int             `json:"release_days"`
}

// balanceView is a booking's balance, what the guest pays after the
// deposit: how much, when it is charged, and where it stands (as the
// guest's status page shows it).
type balanceView struct {
	Status  string          `json:"status"`
	Amount  decimal.Decimal `json:"amount"`
	DueDate *civil.Date     `json:"due_date"`
}

func newBalanceView(st *booking.BalanceState) balanceView {
	return balanceView{Status: string(st.Status), Amount: st.Amount, DueDate: optDate(st.DueDate)}
}

// bookingFullView is GET /bookings/{id} and the answer of every change
// to a booking: the booking, its payments, what they add up to, and the
// terms it was sold with.
type bookingFullView struct {
	bookingDetailView
	RefundedAmount      decimal.Decimal `json:"refunded_amount"`
	RefundPendingAmount decimal.Decimal `json:"refund_pending_amount"`
	DisputedAmount      decimal.Decimal `json:"disputed_amount"`
	CancellationPolicy  *policy.Policy  `json:"cancellation_policy"`
	SecurityDeposit     *depositView    `json:"security_deposit"`
	Balance             balanceView     `json:"balance"`
}

func newBookingFullView(d *host.BookingDetail) bookingFullView {
	b, entries, t := d.Booking, d.Ledger, d.Terms
	sum := ledger.Summarize(entries)
	v := bookingFullView{bookingDetailView: newBookingDetailView(b, entries),
		RefundedAmount:      pricing.FromMinor(sum.Refunded, b.Currency),
		RefundPendingAmount: pricing.FromMinor(sum.RefundPending, b.Currency),
		DisputedAmount:      pricing.FromMinor(sum.Disputed, b.Currency),
		Balance:             newBalanceView(booking.BalanceOf(b, t))}
	if t != nil {
		p := t.Policy
		v.CancellationPolicy = &p
		if t.Deposit.IsPositive() || (t.DepositStatus != "" && t.DepositStatus != booking.DepositNone) {
			v.SecurityDeposit = &depositView{Amount: t.Deposit, Status: string(t.DepositStatus), ClaimedAmount: t.DepositClaimed,
				HoldDays: t.DepositHoldDays, ReleaseDays: t.DepositReleaseDays}
		}
	}
	return v
}

func (h *handler) claimDeposit(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	var b claimBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if b.Amount == nil {
		return 0, nil, invalid("amount", "required")
	}
	d, err := h.host.ActOnBooking(r.Context(), c.org, id, host.ClaimDepositAction(*b.Amount), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingFullView(d), nil
}
