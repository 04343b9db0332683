package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

const contentTypeJSON = "application/json; charset=utf-8"

// Error codes of the HTTP layer itself; the others come from booking.
const (
	codeMalformedJSON        = "malformed_json"
	codeBodyTooLarge         = "body_too_large"
	codeUnsupportedMediaType = "unsupported_media_type"
	codeMethodNotAllowed     = "method_not_allowed"
	codeOriginNotAllowed     = "origin_not_allowed"
	codeRateLimited          = "rate_limited"
	codeInvalidWebhook       = "invalid_webhook"
)

// statusOf maps every error code to its HTTP status: the one place where
// that happens. Codes missing here are server faults (500), except the
// coupon_ family, which are all 422.
var statusOf = map[string]int{
	codeMalformedJSON:  http.StatusBadRequest,
	codeInvalidWebhook: http.StatusBadRequest,

	codeOriginNotAllowed: http.StatusForbidden,

	booking.CodeUnauthorized: http.StatusUnauthorized,
	booking.CodeForbidden:    http.StatusForbidden,

	booking.CodeNotFound: http.StatusNotFound,

	codeMethodNotAllowed: http.StatusMethodNotAllowed,

	booking.CodeConflict: http.StatusConflict,

	codeBodyTooLarge:         http.StatusRequestEntityTooLarge,
	codeUnsupportedMediaType: http.StatusUnsupportedMediaType,

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

	codeRateLimited: http.StatusTooManyRequests,

	booking.CodePaymentUnavailable: http.StatusBadGateway,

	booking.CodeBusy:               http.StatusServiceUnavailable,
	booking.CodeNotConfigured:      http.StatusServiceUnavailable,
	booking.CodeServiceUnavailable: http.StatusServiceUnavailable,
}

// RetryAfterUnavailable is the Retry-After, in seconds, of a 503
// service_unavailable: the database could not serve the request (see
// booking.ErrStoreUnavailable), and another try a few seconds later, on
// this replica or another, may succeed.
const RetryAfterUnavailable = 5

// asError is the *booking.Error the API answers err with: err's own; an
// error of a store that cannot serve now (booking.ErrStoreUnavailable) is
// CodeServiceUnavailable unless its code already says something other
// than a server fault; any other error is CodeInternal.
func asError(err error) *booking.Error {
	var e *booking.Error
	if !errors.As(err, &e) {
		e = &booking.Error{Code: booking.CodeInternal, Err: err}
	}
	if httpStatus(e.Code) == http.StatusInternalServerError && errors.Is(err, booking.ErrStoreUnavailable) {
		e = &booking.Error{Code: booking.CodeServiceUnavailable, Err: err}
	}
	return e
}

// logFailure logs the cause of a 5xx: a 503 (the database is unavailable)
// as a warning, a fault of ours as an error.
func logFailure(ctx context.Context, log *slog.Logger, msg string, status int, code string, err error, attrs ...any) {
	level := slog.LevelError
	if status == http.StatusServiceUnavailable {
		level = slog.LevelWarn
	}
	log.Log(ctx, level, msg, append(attrs, "code", code, "status", status, "err", err)...)
}

// httpStatus returns the status of an error code (500 when unknown).
func httpStatus(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	if strings.HasPrefix(code, "coupon_") {
		return http.StatusUnprocessableEntity
	}
	return http.StatusInternalServerError
}

// success is the envelope of a success.
type success struct {
	Success bool   `json:"success"`
	Data    any    `json:"data"`
	Message string `json:"message,omitempty"`
}

// failure is the envelope of a failure. Errors holds the translated
// problems of each invalid field; FieldCodes the same problems as machine
// codes (such as "required"), for clients with their own wording.
type failure struct {
	Success    bool                `json:"success"`
	Message    string              `json:"message"`
	Code       string              `json:"code"`
	Errors     map[string][]string `json:"errors,omitempty"`
	FieldCodes map[string][]string `json:"field_codes,omitempty"`
}

// writeData writes a success envelope.
func writeData(w http.ResponseWriter, status int, data any) {
	b, err := encodeData(data)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, failure{Message: "Internal error.", Code: booking.CodeInternal})
		return
	}
	writeBody(w, status, b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Our own types always marshal; this is a bug, and the client gets
		// a valid envelope anyway.
		status = http.StatusInternalServerError
		b = []byte(`{"success":false,"message":"Internal error.","code":"internal"}`)
	}
	writeBody(w, status, append(b, '\n'))
}

// rawEnvelope is a success envelope already encoded as JSON (the
// calendar): it is written as it is, not re-scanned by encoding/json.
type rawEnvelope []byte

// envelopeBufs recycles the buffers of raw envelopes: a calendar's body is
// tens of kilobytes, allocated per request otherwise.
var envelopeBufs sync.Pool // of *[]byte

// maxPooledEnvelope bounds the buffers kept (24 months of days fit).
const maxPooledEnvelope = 256 << 10

// envelopeBuf returns an empty buffer of at least n bytes for a raw
// envelope.
func envelopeBuf(n int) []byte {
	if p, _ := envelopeBufs.Get().(*[]byte); p != nil && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]byte, 0, n)
}

// releaseEnvelope gives b's buffer back once b is written and no longer
// used.
func releaseEnvelope(b rawEnvelope) {
	if cap(b) == 0 || cap(b) > maxPooledEnvelope {
		return
	}
	buf := []byte(b[:0])
	envelopeBufs.Put(&buf)
}

// encodeData returns the success envelope of data.
func encodeData(data any) ([]byte, error) {
	if raw, ok := data.(rawEnvelope); ok {
		return raw, nil
	}
	b, err := json.Marshal(success{Success: true, Data: data})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// writeBody writes an encoded body.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// writeError writes the failure envelope of err in the request's locale.
// Errors that are not a known *booking.Error become a 500 with a safe
// message, or a 503 with Retry-After when the store cannot serve now; their
// details are logged with the request id, never sent.
func (h *handler) writeError(w http.ResponseWriter, r *http.Request, st *reqState, err error) {
	e := asError(err)
	status := httpStatus(e.Code)
	if status >= 500 && errors.Is(r.Context().Err(), context.Canceled) {
		// The client hung up and its request was cut short: not a fault
		// of ours, and nobody is left to answer.
		st.canceled = true
		h.log.InfoContext(r.Context(), "client canceled request", "request_id", st.id, "route", st.route, "err", err)
		return
	}
	if status >= 500 {
		logFailure(r.Context(), h.log, "request failed", status, e.Code, err, "request_id", st.id, "route", st.route)
		if status == http.StatusInternalServerError {
			e = &booking.Error{Code: booking.CodeInternal}
		}
	}
	f := newFailure(h.locale(r, st), e)
	switch status {
	case http.StatusForbidden:
		w.Header().Add("Vary", "Origin")
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
	}
	writeJSON(w, status, f)
}

// newFailure is the failure envelope of e in loc.
func newFailure(loc string, e *booking.Error) failure {
	f := failure{Message: message(loc, e), Code: e.Code}
	if len(e.Fields) > 0 {
		f.Errors = make(map[string][]string, len(e.Fields))
		f.FieldCodes = make(map[string][]string, len(e.Fields))
		for field, reasons := range e.Fields {
			for _, reason := range reasons {
				f.Errors[field] = append(f.Errors[field], fieldMessage(loc, field, reason, e.Params))
			}
			f.FieldCodes[field] = append([]string(nil), reasons...)
		}
	}
	return f
}

// Errors of the HTTP layer.

func errRouteNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This resource does not exist.")
}

func errPropertyNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This property does not exist.")
}

func errMethodNotAllowed() error {
	return booking.Errorf(codeMethodNotAllowed, "This method is not allowed on this resource.")
}

func errMalformedJSON() error {
	return booking.Errorf(codeMalformedJSON, "The request body is not valid JSON.")
}

func errNotObject() error {
	return booking.Errorf(codeMalformedJSON, "The request body must be a JSON object.")
}

func errBodyTooLarge() error {
	return booking.Errorf(codeBodyTooLarge, "The request body is too large.")
}

func errUnsupportedMediaType() error {
	return booking.Errorf(codeUnsupportedMediaType, "The request body must be sent as application/json.")
}

func errOriginNotAllowed() error {
	return booking.Errorf(codeOriginNotAllowed, "This website is not allowed to use this booking engine.")
}

func errRateLimited() error {
	return booking.Errorf(codeRateLimited, "Too many requests. Please try again in a moment.")
}
