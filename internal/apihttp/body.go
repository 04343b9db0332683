package apihttp

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/staykit/staykit/booking"
)

// MaxBodyBytes is the largest request body read.
const MaxBodyBytes = 64 << 10

// ReadBody reads at most MaxBodyBytes of the request body. Errors: 413.
func ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, ErrBodyTooLarge()
		}
		return nil, &booking.Error{Code: CodeMalformedJSON, Message: "The request body could not be read.", Err: err}
	}
	return b, nil
}

// IsJSON reports whether a Content-Type is application/json in UTF-8: no
// charset, or charset utf-8 in any case. A body declared in another charset
// would be read as UTF-8 all the same, so it is refused.
func IsJSON(contentType string) bool {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/json" {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}

// ReadJSON reads a request body that must be JSON (Content-Type
// application/json, at most MaxBodyBytes). Errors: codes
// unsupported_media_type (415) and body_too_large (413).
func ReadJSON(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if !IsJSON(r.Header.Get("Content-Type")) {
		return nil, ErrUnsupportedMediaType()
	}
	return ReadBody(w, r)
}
