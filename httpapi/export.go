package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"

	"github.com/staykit/staykit/booking"
)

// Helpers for other APIs of the service (the host API, package hostapi),
// so that they answer with the same envelope, codes, statuses and
// messages as this one.

// APIVersion is the value of the X-Service-API-Version header.
const APIVersion = "v1"

// SetCommonHeaders sets the headers every API response carries:
// X-Service-API-Version, Content-Type (JSON), X-Request-ID (reqID) and
// X-Content-Type-Options.
func SetCommonHeaders(w http.ResponseWriter, reqID string) {
	hdr := w.Header()
	hdr.Set("X-Service-API-Version", APIVersion)
	hdr.Set("Content-Type", contentTypeJSON)
	hdr.Set("X-Request-ID", reqID)
	hdr.Set("X-Content-Type-Options", "nosniff")
}

// RequestID returns the client's X-Request-ID when it is safe to echo,
// else a new random one.
func RequestID(r *http.Request) string { return requestID(r.Header.Get("X-Request-ID")) }

// WriteData writes the success envelope {"success": true, "data": data}.
func WriteData(w http.ResponseWriter, status int, data any) { writeData(w, status, data) }

// EncodeData returns the success envelope of data as written by WriteData,
// for a response that is also stored (an idempotent replay).
func EncodeData(data any) ([]byte, error) {
	b, err := json.Marshal(success{Success: true, Data: data})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// WriteError writes the failure envelope of err in loc ("fr" or "en") and
// returns its status. Errors other than a *booking.Error are a 500 with a
// safe message, and an error of a store that cannot serve now
// (booking.ErrStoreUnavailable) a 503 with Retry-After; 5xx are logged
// with their cause, never sent.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, loc string, err error) int {
	e := asError(err)
	status := httpStatus(e.Code)
	if status >= 500 && !errors.Is(r.Context().Err(), context.Canceled) {
		logFailure(r.Context(), log, "request failed", status, e.Code, err,
			"request_id", w.Header().Get("X-Request-ID"), "path", r.URL.Path)
	}
	switch status {
	case http.StatusInternalServerError:
		e = &booking.Error{Code: booking.CodeInternal}
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
	}
	writeJSON(w, status, newFailure(loc, e))
	return status
}

// Status is the HTTP status of an error code.
func Status(code string) int { return httpStatus(code) }

// Locale is the locale ("fr" or "en") a request asks for with ?locale= or
// Accept-Language, else def when it is supported, else "en".
func Locale(r *http.Request, def string) string {
	if l := requestLocale(r); l != "" {
		return l
	}
	if l := supportedLocale(def); l != "" {
		return l
	}
	return localeEN
}

// ReadJSON reads a request body that must be JSON (Content-Type
// application/json, at most MaxBodyBytes). Errors: codes
// unsupported_media_type (415) and body_too_large (413).
func ReadJSON(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if !isJSON(r.Header.Get("Content-Type")) {
		return nil, errUnsupportedMediaType()
	}
	return readBody(w, r)
}

// ErrMalformedJSON is the error of a body that is not valid JSON (400).
func ErrMalformedJSON() error { return errMalformedJSON() }

// ErrNotObject is the error of a JSON body that is not an object (400).
func ErrNotObject() error { return errNotObject() }

// ErrRouteNotFound is the error of an unknown path (404).
func ErrRouteNotFound() error { return errRouteNotFound() }

// ErrMethodNotAllowed is the error of a method a path has no operation
// for (405); the caller sets Allow.
func ErrMethodNotAllowed() error { return errMethodNotAllowed() }

// ErrRateLimited is the error of a request over its rate limit (429).
func ErrRateLimited() error { return errRateLimited() }

// ClientKey is the client's address as this API's rate limits count it
// (an IPv4 address or an IPv6 /64), believing X-Forwarded-For only from
// trusted proxies.
func ClientKey(r *http.Request, trusted []netip.Prefix) string {
	h := &handler{proxies: trusted}
	return h.clientKey(r)
}
