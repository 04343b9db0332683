package apihttp

import (
	"maps"
	"net/http"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// Error codes of the HTTP layer itself; the others come from booking.
const (
	CodeMalformedJSON        = "malformed_json"
	CodeBodyTooLarge         = "body_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodeOriginNotAllowed     = "origin_not_allowed"
	CodeRateLimited          = "rate_limited"
	CodeInvalidWebhook       = "invalid_webhook"
)

// statusOf maps every error code to its HTTP status: the one place where
// that happens. Codes missing here are server faults (500), except the
// coupon_ family, which are all 422.
var statusOf = map[string]int{
	CodeMalformedJSON:  http.StatusBadRequest,
	CodeInvalidWebhook: http.StatusBadRequest,

	CodeOriginNotAllowed: http.StatusForbidden,

	booking.CodeUnauthorized: http.StatusUnauthorized,
	booking.CodeForbidden:    http.StatusForbidden,

	booking.CodeNotFound: http.StatusNotFound,

	CodeMethodNotAllowed: http.StatusMethodNotAllowed,

	booking.CodeConflict: http.StatusConflict,

	CodeBodyTooLarge:         http.StatusRequestEntityTooLarge,
	CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,

	booking.CodeInvalid:             http.StatusUnprocessableEntity,
	booking.CodeCheckInPast:         http.StatusUnprocessableEntity,
	booking.CodeMinStay:             http.StatusUnprocessableEntity,
	booking.CodeMaxStay:             http.StatusUnprocessableEntity,
	booking.CodeMaxGuests:           http.StatusUnprocessableEntity,
	booking.CodeBeyondHorizon:       http.StatusUnprocessableEntity,
	booking.CodeClosedToArrival:     http.StatusUnprocessableEntity,
	booking.CodeClosedToDeparture:   http.StatusUnprocessableEntity,
	booking.CodeArrivalDay:          http.StatusUnprocessableEntity,
	booking.CodeDepartureDay:        http.StatusUnprocessableEntity,
	booking.CodeAdvanceNotice:       http.StatusUnprocessableEntity,
	booking.CodeSameDayCutoff:       http.StatusUnprocessableEntity,
	booking.CodeBookingWindow:       http.StatusUnprocessableEntity,
	booking.CodeMaxChildren:         http.StatusUnprocessableEntity,
	booking.CodeMaxInfants:          http.StatusUnprocessableEntity,
	booking.CodeMaxPets:             http.StatusUnprocessableEntity,
	booking.CodeUnavailable:         http.StatusUnprocessableEntity,
	booking.CodePaymentNotConfirmed: http.StatusUnprocessableEntity,
	booking.CodePaymentLate:         http.StatusUnprocessableEntity,
	booking.CodeBookingClosed:       http.StatusUnprocessableEntity,
	booking.CodePaymentProcessing:   http.StatusUnprocessableEntity,
	booking.CodeAmountNotChargeable: http.StatusUnprocessableEntity,
	booking.CodePaymentsNotReady:    http.StatusUnprocessableEntity,
	booking.CodeCouponNotFound:      http.StatusUnprocessableEntity,
	coupon.CodeInactive:             http.StatusUnprocessableEntity,
	coupon.CodeNotYetValid:          http.StatusUnprocessableEntity,
	coupon.CodeExpired:              http.StatusUnprocessableEntity,
	coupon.CodeExhausted:            http.StatusUnprocessableEntity,
	coupon.CodeProperty:             http.StatusUnprocessableEntity,
	coupon.CodeStayDates:            http.StatusUnprocessableEntity,
	coupon.CodeMinNights:            http.StatusUnprocessableEntity,
	coupon.CodeMinAmount:            http.StatusUnprocessableEntity,

	CodeRateLimited: http.StatusTooManyRequests,

	booking.CodePaymentUnavailable: http.StatusBadGateway,

	booking.CodeBusy:               http.StatusServiceUnavailable,
	booking.CodeNotConfigured:      http.StatusServiceUnavailable,
	booking.CodeServiceUnavailable: http.StatusServiceUnavailable,
}

// Status returns the HTTP status of an error code (500 when unknown).
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	if strings.HasPrefix(code, "coupon_") {
		return http.StatusUnprocessableEntity
	}
	return http.StatusInternalServerError
}

// Statuses returns a copy of the status table: every code it names, with
// its status.
func Statuses() map[string]int { return maps.Clone(statusOf) }

// Errors of the HTTP layer.

// ErrRouteNotFound is the error of an unknown path (404).
func ErrRouteNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This resource does not exist.")
}

// ErrMethodNotAllowed is the error of a method a path has no operation
// for (405); the caller sets Allow.
func ErrMethodNotAllowed() error {
	return booking.Errorf(CodeMethodNotAllowed, "This method is not allowed on this resource.")
}

// ErrMalformedJSON is the error of a body that is not valid JSON (400).
func ErrMalformedJSON() error {
	return booking.Errorf(CodeMalformedJSON, "The request body is not valid JSON.")
}

// ErrNotObject is the error of a JSON body that is not an object (400).
func ErrNotObject() error {
	return booking.Errorf(CodeMalformedJSON, "The request body must be a JSON object.")
}

// ErrBodyTooLarge is the error of a body over MaxBodyBytes (413).
func ErrBodyTooLarge() error {
	return booking.Errorf(CodeBodyTooLarge, "The request body is too large.")
}

// ErrUnsupportedMediaType is the error of a body that is not JSON (415).
func ErrUnsupportedMediaType() error {
	return booking.Errorf(CodeUnsupportedMediaType, "The request body must be sent as application/json.")
}

// ErrRateLimited is the error of a request over its rate limit (429).
func ErrRateLimited() error {
	return booking.Errorf(CodeRateLimited, "Too many requests. Please try again in a moment.")
}
