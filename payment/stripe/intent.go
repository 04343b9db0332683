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
	in := &payment.Intent{
		ID:             pi.ID,
		ClientSecret:   pi.ClientSecret,
		Amount:         pi.Amount,
		AmountReceived: pi.AmountReceived,
		Currency:       strings.ToUpper(string(pi.Currency)),
		Status:         toStatus(pi.Status),
		ManualCapture:  pi.CaptureMethod == stripego.PaymentIntentCaptureMethodManual,
		Metadata:       maps.Clone(pi.Metadata),
		Created:        time.Unix(pi.Created, 0).UTC(),
	}
	if pi.LatestCharge != nil {
		in.AmountRefunded = pi.LatestCharge.AmountRefunded
	}
	return in
}

// toStatus maps Stripe's PaymentIntent statuses. A status this version does
// not know (Stripe may add one) maps to StatusProcessing: the one status on
// which the engine neither confirms nor releases a booking, so it waits for
// the next event instead of acting on a guess.
func toStatus(s stripego.PaymentIntentStatus) payment.IntentStatus {
	switch s {
	case stripego.PaymentIntentStatusRequiresPaymentMethod,
		stripego.PaymentIntentStatusRequiresConfirmation,
		stripego.PaymentIntentStatusRequiresAction:
		return payment.StatusRequiresPayment
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
