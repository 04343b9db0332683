package stripe

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/staykit/staykit/payment"
)

// Refund and dispute events: data.object is a charge (charge.refunded), a
// refund (charge.refund.updated) or a dispute (charge.dispute.created). As
// for intents, only fields stable across API versions are read, into narrow
// structs.

func isChargeEvent(t payment.EventType) bool {
	switch t {
	case payment.EventRefunded, payment.EventRefundUpdated, payment.EventDisputed:
		return true
	}
	return false
}

type eventCharge struct {
	Object         string `json:"object"`
	PaymentIntent  string `json:"payment_intent"`
	Amount         int64  `json:"amount"`
	AmountCaptured int64  `json:"amount_captured"`
	AmountRefunded int64  `json:"amount_refunded"`
	Currency       string `json:"currency"`
}

type eventRefund struct {
	ID            string `json:"id"`
	Object        string `json:"object"`
	PaymentIntent string `json:"payment_intent"`
	Amount        int64  `json:"amount"`
	Currency      string `json:"currency"`
	Status        string `json:"status"`
}

type eventDispute struct {
	ID            string `json:"id"`
	Object        string `json:"object"`
	PaymentIntent string `json:"payment_intent"`
	Amount        int64  `json:"amount"`
	Currency      string `json:"currency"`
	Reason        string `json:"reason"`
	Status        string `json:"status"`
}

// decodeChargeEvent fills out's Intent (the intent id, and for
// charge.refunded the amounts), Refund or Dispute from data.object. A
// charge.refunded of a charge without a payment intent leaves Intent nil.
func decodeChargeEvent(out *payment.Event, raw []byte) error {
	switch out.Type {
	case payment.EventRefunded:
		var c eventCharge
		if err := json.Unmarshal(raw, &c); err != nil || c.Object != "charge" {
			return fmt.Errorf("data.object is not a charge")
		}
		if c.PaymentIntent == "" {
			// A charge made without a PaymentIntent (by another
			// integration on the account) is none of the engine's: a
			// genuine event it ignores, not one to refuse and have Stripe
			// deliver again for days.
			return nil
		}
		cur := strings.ToUpper(c.Currency)
		out.Intent = &payment.Intent{ID: c.PaymentIntent, Amount: isoAmount(c.Amount, cur),
			AmountReceived: isoAmount(c.AmountCaptured, cur), AmountRefunded: isoAmount(c.AmountRefunded, cur),
			Currency: cur, Status: payment.StatusSucceeded}
	case payment.EventRefundUpdated:
		var r eventRefund
		if err := json.Unmarshal(raw, &r); err != nil || r.Object != "refund" || r.ID == "" {
			return fmt.Errorf("data.object is not a refund")
		}
		cur := strings.ToUpper(r.Currency)
		status := payment.RefundStatus(r.Status)
		switch status {
		case payment.RefundSucceeded, payment.RefundFailed, payment.RefundCanceled:
		default:
			status = payment.RefundPending
		}
		out.Refund = &payment.Refund{ID: r.ID, IntentID: r.PaymentIntent, Amount: isoAmount(r.Amount, cur), Currency: cur, Status: status}
	case payment.EventDisputed:
		var d eventDispute
		if err := json.Unmarshal(raw, &d); err != nil || d.Object != "dispute" || d.ID == "" {
			return fmt.Errorf("data.object is not a dispute")
		}
		cur := strings.ToUpper(d.Currency)
		out.Dispute = &payment.Dispute{ID: d.ID, IntentID: d.PaymentIntent, Amount: isoAmount(d.Amount, cur), Currency: cur,
			Reason: d.Reason, Status: d.Status}
	}
	return nil
}
