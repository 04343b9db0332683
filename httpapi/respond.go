package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// RetryAfterUnavailable is the Retry-After, in seconds, of a 503
// service_unavailable: the database could not serve the request (see
// booking.ErrStoreUnavailable), and another try a few seconds later, on
// this replica or another, may succeed.
const RetryAfterUnavailable = apihttp.RetryAfterUnavailable

// messages words the answers of the public API.
var messages = apihttp.Base

// writeData writes a success envelope.
func writeData(w http.ResponseWriter, status int, data any) {
	b, err := encodeData(data)
	if err != nil {
		apihttp.WriteJSON(w, http.StatusInternalServerError, apihttp.Failure{Message: "Internal error.", Code: booking.CodeInternal})
		return
	}
	apihttp.WriteBody(w, status, b)
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
	switch raw := data.(type) {
	case rawEnvelope:
		return raw, nil
	case *keptBody:
		return raw.body, nil
	}
	return apihttp.EncodeData(data)
}

// writeError writes the failure envelope of err in the request's locale.
// Errors that are not a known *booking.Error become a 500 with a safe
// message, or a 503 with Retry-After when the store cannot serve now; their
// details are logged with the request id, never sent.
func (h *handler) writeError(w http.ResponseWriter, r *http.Request, st *reqState, err error) {
	e := apihttp.AsError(err)
	status := apihttp.Status(e.Code)
	if status >= 500 && errors.Is(r.Context().Err(), context.Canceled) {
		// The client hung up and its request was cut short: not a fault
		// of ours, and nobody is left to answer.
		st.canceled = true
		h.log.InfoContext(r.Context(), "client canceled request", "request_id", st.id, "route", st.route, "err", err)
		return
	}
	if status >= 500 {
		apihttp.LogFailure(r.Context(), h.log, "request failed", status, e.Code, err, "request_id", st.id, "route", st.route)
		if status == http.StatusInternalServerError {
			e = &booking.Error{Code: booking.CodeInternal}
		}
	}
	f := messages.Failure(h.locale(r, st), e)
	switch status {
	case http.StatusForbidden:
		w.Header().Add("Vary", "Origin")
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfterUnavailable))
	}
	apihttp.WriteJSON(w, status, f)
}

// Errors of the public API's HTTP layer (the others are apihttp's).

func errPropertyNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "This property does not exist.")
}

func errOriginNotAllowed() error {
	return booking.Errorf(apihttp.CodeOriginNotAllowed, "This website is not allowed to use this booking engine.")
}
