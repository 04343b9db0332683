package icalsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/staykit/staykit/outbound"
)

// UserAgent is sent with every feed request.
const UserAgent = "staykit-calendar-sync/1 (+https://github.com/staykit/staykit)"

// Fetcher defaults.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxBytes = 5 << 20
	maxRedirects    = 5
)

// Fetcher fetches feeds with the care outbound requests need (package
// outbound): https only (plain http too to a target the Policy allows), a
// timeout on the whole exchange, a cap on the body, at most five
// redirects, and no connection to a loopback, private, link-local or
// otherwise special address unless the Policy allows it. The address
// checked is the one dialled, after resolution, for the first request and
// every redirect, so a name that resolves to an internal address (or a
// redirect to one) is refused. The zero value is ready to use with the
// defaults.
type Fetcher struct {
	// Timeout bounds a whole fetch, body included (default 30 s).
	Timeout time.Duration
	// MaxBytes caps the body (default 5 MiB).
	MaxBytes int64
	// Policy is where feeds may be fetched from; the zero Policy: https
	// on public addresses only. Tests serve feeds with httptest and allow
	// its address; a host whose channel manager is on its LAN allows that.
	Policy outbound.Policy
}

// Response is a fetch's outcome.
type Response struct {
	// NotModified: the server answered 304 to the conditional request.
	NotModified  bool
	Body         []byte
	ETag         string
	LastModified string
	// ContentType is the answer's Content-Type: its charset parameter
	// says how a body that is not UTF-8 is encoded.
	ContentType string
}

// ErrForbiddenAddress is wrapped by the error of a fetch the Policy
// refused: a scheme, or an address, the feed's host or a redirect resolves
// to, that may not be reached (outbound.Explain words it for the host).
var ErrForbiddenAddress = outbound.ErrRefused

// ErrTooLarge is wrapped by the error of a fetch whose body is over
// MaxBytes.
var ErrTooLarge = errors.New("feed too large")

// StatusError is a fetch answered with a status other than 2xx or 304.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("fetch: HTTP status %d", e.Code) }

func (f *Fetcher) maxBytes() int64 {
	if f.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return f.MaxBytes
}

// Fetch GETs rawURL, conditionally when etag or lastModified is set.
func (f *Fetcher) Fetch(ctx context.Context, rawURL, etag, lastModified string) (*Response, error) {
	timeout, limit := f.Timeout, f.MaxBytes
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if err := f.Policy.CheckURL(rawURL); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("invalid URL: %w", err)
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/calendar, */*;q=0.5")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" {
		req.Header.Set("If-Modified-Since", lastModified)
	}
	resp, err := f.Policy.Client(outbound.ClientOptions{Redirects: maxRedirects}).Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		return &Response{NotModified: true, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, &StatusError{Code: resp.StatusCode}
	}
	if resp.ContentLength > limit {
		return nil, fmt.Errorf("fetch: feed larger than %d bytes: %w", limit, ErrTooLarge)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetch: read body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("fetch: feed larger than %d bytes: %w", limit, ErrTooLarge)
	}
	return &Response{Body: body, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		ContentType: resp.Header.Get("Content-Type")}, nil
}
