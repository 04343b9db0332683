package apihttp

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/staykit/staykit/booking"
)

// ContentTypeJSON is the Content-Type of every JSON answer.
const ContentTypeJSON = "application/json; charset=utf-8"

// APIVersion is the value of the X-Service-API-Version header.
const APIVersion = "v1"

// RetryAfterUnavailable is the Retry-After, in seconds, of a 503
// service_unavailable: the database could not serve the request (see
// booking.ErrStoreUnavailable), and another try a few seconds later, on
// this replica or another, may succeed.
const RetryAfterUnavailable = 5

// SetCommonHeaders sets the headers every API response carries:
// X-Service-API-Version, Content-Type (JSON), X-Request-ID (reqID) and
// X-Content-Type-Options.
func SetCommonHeaders(w http.ResponseWriter, reqID string) {
	hdr := w.Header()
	hdr.Set("X-Service-API-Version", APIVersion)
	hdr.Set("Content-Type", ContentTypeJSON)
	hdr.Set("X-Request-ID", reqID)
	hdr.Set("X-Content-Type-Options", "nosniff")
}

// maxRequestIDLength bounds an echoed X-Request-ID.
const maxRequestIDLength = 64

// RequestID returns the client's X-Request-ID when it is safe to echo
// (1–64 characters of [A-Za-z0-9._-]), else a new random one.
func RequestID(r *http.Request) string { return CleanRequestID(r.Header.Get("X-Request-ID")) }

// CleanRequestID returns in when it is a sane request ID (1–64 characters
// of [A-Za-z0-9._-]), else a new random one.
func CleanRequestID(in string) string {
	if len(in) == 0 || len(in) > maxRequestIDLength {
		return newRequestID()
	}
	for i := 0; i < len(in); i++ {
		c := in[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return newRequestID()
		}
	}
	return in
}

// newRequestID returns 128 random bits in hex. A request ID correlates a
// request's answer with its log lines and is no secret: it comes from the
// runtime's fast generator (math/rand/v2), not from crypto/rand, whose
// read cost every request of the hottest routes a system call's worth.
func newRequestID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

// success is the envelope of a success.
type success struct {
	Success bool   `json:"success"`
	Data    any    `json:"data"`
	Message string `json:"message,omitempty"`
}

// Failure is the envelope of a failure. Errors holds the translated
// problems of each invalid field; FieldCodes the same problems as machine
// codes (such as "required"), for clients with their own wording.
type Failure struct {
	Success    bool                `json:"success"`
	Message    string              `json:"message"`
	Code       string              `json:"code"`
	Errors     map[string][]string `json:"errors,omitempty"`
	FieldCodes map[string][]string `json:"field_codes,omitempty"`
}

// Failure is the failure envelope of e in loc.
func (m *Messages) Failure(loc string, e *booking.Error) Failure {
	f := Failure{Message: m.Message(loc, e), Code: e.Code}
	if len(e.Fields) > 0 {
		f.Errors = make(map[string][]string, len(e.Fields))
		f.FieldCodes = make(map[string][]string, len(e.Fields))
		for field, reasons := range e.Fields {
			for _, reason := range reasons {
				f.Errors[field] = append(f.Errors[field], m.FieldMessage(loc, field, reason, e.Params))
			}
			f.FieldCodes[field] = append([]string(nil), reasons...)
		}
	}
	return f
}

// EncodeData returns the success envelope {"success": true, "data": data}
// as WriteData writes it, for an answer that is also stored (an
// idempotent replay) or cached.
func EncodeData(data any) ([]byte, error) {
	b, err := json.Marshal(success{Success: true, Data: data})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// WriteData writes the success envelope of data.
func WriteData(w http.ResponseWriter, status int, data any) {
	b, err := EncodeData(data)
	if err != nil {
		WriteJSON(w, http.StatusInternalServerError, Failure{Message: "Internal error.", Code: booking.CodeInternal})
		return
	}
	WriteBody(w, status, b)
}

// WriteJSON writes v as JSON, a line.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Our own types always marshal; this is a bug, and the client gets
		// a valid envelope anyway.
		status = http.StatusInternalServerError
		b = []byte(`{"success":false,"message":"Internal error.","code":"internal"}`)
	}
	WriteBody(w, status, append(b, '\n'))
}

// WriteBody writes an encoded body with its Content-Length.
func WriteBody(w http.ResponseWriter, status int, b []byte) {
	w.Header()["Content-Length"] = []string{strconv.Itoa(len(b))} // canonical key, set directly
	w.WriteHeader(status)
	w.Write(b)
}

// AsError is the *booking.Error an API answers err with: err's own; an
// error of a store that cannot serve now (booking.ErrStoreUnavailable) is
// CodeServiceUnavailable unless its code already says something other
// than a server fault; any other error is CodeInternal.
func AsError(err error) *booking.Error {
	var e *booking.Error
	if !errors.As(err, &e) {
		e = &booking.Error{Code: booking.CodeInternal, Err: err}
	}
	if Status(e.Code) == http.StatusInternalServerError && errors.Is(err, booking.ErrStoreUnavailable) {
		e = &booking.Error{Code: booking.CodeServiceUnavailable, Err: err}
	}
	return e
}

// LogFailure logs the cause of a 5xx: a 503 (the database is unavailable)
// as a warning, a fault of ours as an error.
func LogFailure(ctx context.Context, log *slog.Logger, msg string, status int, code string, err error, attrs ...any) {
	level := slog.LevelError
	if status == http.StatusServiceUnavailable {
		level = slog.LevelWarn
	}
	log.Log(ctx, level, msg, append(attrs, "code", code, "status", status, "err", err)...)
}

// WriteError writes the failure envelope of err in loc, worded by m, and
// returns its status. Errors other than a *booking.Error are a 500 with a
// safe message, and an error of a store that cannot serve now
// (booking.ErrStoreUnavailable) a 503 with Retry-After; 5xx are logged
// with their cause, never sent.
func (m *Messages) WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, loc string, err error) int {
	e := AsError(err)
	status := Status(e.Code)
	if status >= 500 && !errors.Is(r.Context().Err(), context.Canceled) {
		LogFailure(r.Context(), log, "request failed", status, e.Code, err,
			"request_id", w.Header().Get("X-Request-ID"), "path", r.URL.Path)
	}
	switch status {
	case http.StatusInternalServerError:
		e = &booking.Error{Code: booking.CodeInternal}
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
	}
	WriteJSON(w, status, m.Failure(loc, e))
	return status
}
