package stripe

import (
	"errors"
	"fmt"
	"net/http"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/staykit/staykit/payment"
)

// stateCodes are Stripe error codes saying the object's state forbids the
// operation, rather than that the request was malformed.
var stateCodes = map[stripego.ErrorCode]bool{
	stripego.ErrorCodePaymentIntentUnexpectedState:      true,
	stripego.ErrorCodeIntentInvalidState:                true,
	stripego.ErrorCodeChargeAlreadyCaptured:             true,
	stripego.ErrorCodeChargeAlreadyRefunded:             true,
	stripego.ErrorCodeChargeDisputed:                    true,
	stripego.ErrorCodeChargeExpiredForCapture:           true,
	stripego.ErrorCodeCaptureChargeAuthorizationExpired: true,
	stripego.ErrorCodeChargeNotRefundable:               true,
	stripego.ErrorCodeRefundDisputedPayment:             true,
}

// retryCodes are 4xx error codes after which the same request may succeed
// later.
var retryCodes = map[stripego.ErrorCode]bool{
	stripego.ErrorCodeRateLimit:           true,
	stripego.ErrorCodeLockTimeout:         true,
	stripego.ErrorCodeIdempotencyKeyInUse: true,
}

// mapError turns what stripe-go returned into one of the payment sentinel
// errors, keeping Stripe's message, code and request id for the logs.
//
//   - 5xx, no status, 429 and the retry codes: ErrUnavailable.
//   - 401 and 403: ErrUnavailable. A rejected key is the operator's
//     misconfiguration, not the guest's malformed request; to the guest,
//     payments are unavailable.
//   - 404 or resource_missing: ErrNotFound.
//   - the state codes (payment_intent_unexpected_state...): ErrState.
//   - any other 4xx: ErrInvalid.
//   - anything that is not a *stripe.Error (connection refused, timeout,
//     canceled context, a body that is not JSON): ErrUnavailable, with the
//     cause still reachable by errors.Is (context.Canceled, for one).
func mapError(op string, err error) error {
	var se *stripego.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("stripe: %s: %w: %w", op, payment.ErrUnavailable, err)
	}
	status := se.HTTPStatusCode
	var kind error
	switch {
	case status == 0 || status >= 500 || status == http.StatusTooManyRequests || retryCodes[se.Code]:
		kind = payment.ErrUnavailable
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		kind = payment.ErrUnavailable
	case status == http.StatusNotFound || se.Code == stripego.ErrorCodeResourceMissing:
		kind = payment.ErrNotFound
	case stateCodes[se.Code]:
		kind = payment.ErrState
	default:
		kind = payment.ErrInvalid
	}
	msg := se.Msg
	if msg == "" {
		msg = string(se.Type)
	}
	return fmt.Errorf("stripe: %s: %w: %s (status %d, code %q, request %s)",
		op, kind, msg, status, se.Code, se.RequestID)
}
