package stripe

import (
	"maps"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

// toIntent translates a Stripe PaymentIntent into the engine's words.
//
// AmountRefunded comes from the latest charge when Stripe expanded it (the
// provider asks for that on get, capture, cancel and refund); otherwise,
// as on create and in webhook events, where latest_charge is only an id,
// it is 0.
func toIntent(pi *stripego.PaymentIntent) *payment.Intent {
	currency := strings.ToUpper(string(pi.Currency))
	in := &payment.Intent{
		ID:             pi.ID,
		ClientSecret:   pi.ClientSecret,
		Amount:         isoAmount(pi.Amount, currency),
		AmountReceived: isoAmount(pi.AmountReceived, currency),
		Currency:       currency,
		Status:         toStatus(pi.Status),
		ManualCapture:  pi.CaptureMethod == stripego.PaymentIntentCaptureMethodManual,
		Metadata:       maps.Clone(pi.Metadata),
		Created:        time.Unix(pi.Created, 0).UTC(),
	}
	if pi.Customer != nil {
		in.Customer = pi.Customer.ID
	}
	if pi.PaymentMethod != nil {
		in.PaymentMethod = pi.PaymentMethod.ID
	}
	if e := pi.LastPaymentError; e != nil {
		in.LastPaymentError = string(e.Code)
		if e.Code == stripego.ErrorCodeAuthenticationRequired || e.DeclineCode == stripego.DeclineCodeAuthenticationRequired {
			in.LastPaymentError = payment.ErrorAuthenticationRequired
		}
	}
	if c := pi.LatestCharge; c != nil {
		in.AmountRefunded = isoAmount(c.AmountRefunded, currency)
		if d := c.PaymentMethodDetails; d != nil && d.Card != nil && d.Card.CaptureBefore > 0 {
			in.CaptureBefore = time.Unix(d.Card.CaptureBefore, 0).UTC()
		}
	}
	return in
}

// toRefund translates a Stripe Refund; intentID stands in when Stripe did
// not expand the refund's payment intent.
func toRefund(re *stripego.Refund, intentID string) *payment.Refund {
	currency := strings.ToUpper(string(re.Currency))
	out := &payment.Refund{ID: re.ID, IntentID: intentID, Amount: isoAmount(re.Amount, currency), Currency: currency,
		Status: payment.RefundStatus(re.Status), Metadata: maps.Clone(re.Metadata)}
	if re.PaymentIntent != nil && re.PaymentIntent.ID != "" {
		out.IntentID = re.PaymentIntent.ID
	}
	switch re.Status {
	case stripego.RefundStatusSucceeded, stripego.RefundStatusFailed, stripego.RefundStatusCanceled:
	default: // pending, requires_action: not final
		out.Status = payment.RefundPending
	}
	return out
}

// toStatus maps Stripe's PaymentIntent statuses. A status this version does
// not know (Stripe may add one) maps to StatusProcessing: the one status on
// which the engine neither confirms nor releases a booking, so it waits for
// the next event instead of acting on a guess.
func toStatus(s stripego.PaymentIntentStatus) payment.IntentStatus {
	switch s {
	case stripego.PaymentIntentStatusRequiresPaymentMethod,
		stripego.PaymentIntentStatusRequiresConfirmation:
		return payment.StatusRequiresPayment
	case stripego.PaymentIntentStatusRequiresAction:
		return payment.StatusRequiresAction
	case stripego.PaymentIntentStatusProcessing:
		return payment.StatusProcessing
	case stripego.PaymentIntentStatusRequiresCapture:
		return payment.StatusAuthorized
	case stripego.PaymentIntentStatusSucceeded:
		return payment.StatusSucceeded
	case stripego.PaymentIntentStatusCanceled:
		return payment.StatusCanceled
	default:
		return payment.StatusProcessing
	}
}
