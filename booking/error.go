package booking

import (
	"errors"
	"fmt"
)

// Error codes. The HTTP layer maps each to a status; everything unknown is
// CodeInternal.
const (
	CodeInvalid             = "invalid"               // input failed validation (Fields says where)
	CodeNotFound            = "not_found"             // organisation, property or booking unknown
	CodeUnavailable         = "unavailable"           // the dates are taken
	CodePaymentNotConfirmed = "payment_not_confirmed" // confirm before the provider says paid
	CodePaymentLate         = "payment_late"          // paid after the hold lapsed and the dates went
	CodeBookingClosed       = "booking_closed"        // the booking can no longer change that way
	CodeConflict            = "conflict"              // idempotency key reuse, or a concurrent change
	CodePaymentUnavailable  = "payment_unavailable"   // provider failed at checkout
	CodePaymentProcessing   = "payment_processing"    // the provider is still working on the payment
	CodeAmountNotChargeable = "amount_not_chargeable" // the provider cannot charge this amount (below its minimum, say)
	CodeInternal            = "internal"
	// CodeServiceUnavailable: the database cannot be reached or its disk
	// is full (an error wrapping ErrStoreUnavailable); try again shortly.
	CodeServiceUnavailable = "service_unavailable"
	// Coupon codes: CodeCouponNotFound here, the others come from package
	// coupon (coupon_expired, coupon_exhausted, ...).
	CodeCouponNotFound = "coupon_not_found"
)

// ErrStoreUnavailable is wrapped by a store's errors (errors.Is) when the
// database cannot be reached, dropped the connection, is shutting down, is
// out of disk or memory, or stayed locked past the store's timeout: a
// fault of the moment, not of the request, which the HTTP layers answer
// with 503 and Retry-After (CodeServiceUnavailable) rather than 500.
// ErrorCode still reports such an error as CodeInternal.
var ErrStoreUnavailable = errors.New("store unavailable")

// StoreUnavailable returns err marked with ErrStoreUnavailable, its
// message unchanged (nil stays nil): what a Store returns for a fault of
// its database rather than of the request. errors.As still finds the
// driver's own error in it.
func StoreUnavailable(err error) error {
	if err == nil || errors.Is(err, ErrStoreUnavailable) {
		return err
	}
	return &storeUnavailable{err: err}
}

type storeUnavailable struct{ err error }

func (e *storeUnavailable) Error() string   { return e.err.Error() }
func (e *storeUnavailable) Unwrap() []error { return []error{e.err, ErrStoreUnavailable} }

// Error is the one error type of the domain: a machine code, an English
// message safe to show to a guest, and per-field problems for CodeInvalid.
// Params carry values a translated message may need (e.g. "min": "3").
type Error struct {
	Code    string
	Message string
	// Fields maps a request field to its problems, each a short reason code
	// such as "required" or "invalid_email".
	Fields map[string][]string
	Params map[string]string
	// Err is the cause, for logs; never shown to clients.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Params that tell apart the meanings of one code, so that the HTTP layer
// can word each in the guest's language.
const (
	// ParamSubject says what CodeNotFound did not find: "organization",
	// "property" or "booking".
	ParamSubject = "subject"
	// ParamReason says why a CodeConflict: "key_reused" (the same
	// Idempotency-Key with another request) or "in_progress".
	ParamReason = "reason"
	// ParamStep says which payment step CodePaymentUnavailable failed at:
	// "start", "check", "capture" or "refund".
	ParamStep = "step"
	// ParamMode is the booking's payment mode, on CodePaymentNotConfirmed.
	ParamMode = "mode"
)

// withParam returns an *Error with code, message and one param.
func withParam(code, message, name, value string) *Error {
	return &Error{Code: code, Message: message, Params: map[string]string{name: value}}
}

// Invalid returns err as a CodeInvalid *Error with err's message, and its
// fields when it has InvalidFields (nil stays nil): how a store or a use
// case reports the refusal of a capability package's checks
// (outbox.PrepareEvents, outbox.ValidateEndpoint, feed.Feed.Validate,
// feed.PrepareSync), whose packages cannot name this error type.
func Invalid(err error) error {
	if err == nil {
		return nil
	}
	e := &Error{Code: CodeInvalid, Message: err.Error()}
	var f interface{ InvalidFields() map[string][]string }
	if errors.As(err, &f) {
		e.Fields = f.InvalidFields()
	}
	return e
}

// ErrorCode returns the code of err's *Error, CodeInternal for any other
// non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// FieldErrors collects per-field validation problems.
type FieldErrors map[string][]string

// Add records a problem with field.
func (f FieldErrors) Add(field, reason string) { f[field] = append(f[field], reason) }

// Err returns a CodeInvalid *Error when problems were recorded, else nil.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: CodeInvalid, Message: "The request is invalid.", Fields: f}
}
