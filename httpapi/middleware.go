package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// reqState is what the layers of one request share: set by ServeHTTP,
// filled in by the route.
type reqState struct {
	id    string
	route string
	slug  string

	// org is the organisation once loaded (origin check, locale of an
	// error), so that a request reads it at most once for those.
	org       *booking.Organization
	orgErr    error
	orgLoaded bool
	// canceled: the client went away before the answer was written.
	canceled bool
}

// exchange is one request's response writer and state, allocated once by
// ServeHTTP. The layers below it reach the state through the writer they
// are given (stateOf), not through the request's context: a context value
// would cost every request a copy of its http.Request.
type exchange struct {
	apihttp.StatusRecorder
	st       reqState
	idHeader [1]string
}

// stateOf returns the state of the request whose writer is w: the
// exchange ServeHTTP made, reached through any writers wrapping it. A
// writer that does not lead to one (which cannot happen: only ServeHTTP
// calls the routes) gets a fresh state.
func stateOf(w http.ResponseWriter) *reqState {
	for {
		switch x := w.(type) {
		case *exchange:
			return &x.st
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return &reqState{id: apihttp.CleanRequestID("")}
		}
	}
}

// organization loads the request's organisation once.
func (h *handler) organization(ctx context.Context, st *reqState) (*booking.Organization, error) {
	if !st.orgLoaded {
		st.org, st.orgErr = h.svc.Organization(ctx, st.slug)
		st.orgLoaded = true
	}
	return st.org, st.orgErr
}

// orgService returns the handle of the request's organisation, looked up at
// most once per request whichever layer asks first.
func (h *handler) orgService(ctx context.Context, st *reqState) (*booking.OrgService, error) {
	org, err := h.organization(ctx, st)
	if err != nil {
		return nil, err
	}
	return h.svc.Org(org), nil
}

// The values of the headers every answer carries, shared by all of them
// rather than allocated per request. A header's value slice is replaced
// (Header.Set, Del) or grown by a copy (Header.Add: the slice is full),
// never written in place, so sharing it is safe.
var (
	headerAPIVersion = constantHeader(apihttp.APIVersion)
	headerJSON       = constantHeader(apihttp.ContentTypeJSON)
	headerNoSniff    = constantHeader("nosniff")
)

// constantHeader is a header value of one element whose slice is full, so
// that appending to it copies it.
func constantHeader(v string) []string { return []string{v}[:1:1] }

// ServeHTTP sets the headers every response carries, logs the request,
// turns a panic into a 500 and routes.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	// The writer, the request's state and its ID header's value are
	// allocated together, once.
	x := &exchange{StatusRecorder: apihttp.StatusRecorder{ResponseWriter: w},
		st: reqState{id: apihttp.CleanRequestID(r.Header.Get("X-Request-ID"))}}
	st := &x.st
	x.idHeader[0] = st.id
	// Keys in their canonical form, set directly: Header.Set would
	// canonicalise each on every request of the hottest routes. The
	// constant values are shared (constantHeader).
	hdr := w.Header()
	hdr["X-Service-Api-Version"] = headerAPIVersion
	hdr["Content-Type"] = headerJSON
	hdr["X-Request-Id"] = x.idHeader[:1:1]
	hdr["X-Content-Type-Options"] = headerNoSniff

	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.ErrorContext(r.Context(), "panic serving request", "request_id", st.id,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !x.Wrote() {
				h.writeError(x, r, st, fmt.Errorf("panic: %v", v))
			}
		}
		h.logRequest(r, x.Status(), start, st)
	}()

	if !cleanPath(r.URL.EscapedPath()) {
		// The mux would redirect to the cleaned path, which is wrong when
		// the handler is mounted under a prefix: refuse instead.
		st.route = "unknown"
		h.writeError(x, r, st, apihttp.ErrRouteNotFound())
		return
	}
	h.mux.ServeHTTP(x, r)
}

// cleanPath reports whether p is rooted and has no "." or ".." elements nor
// repeated slashes: whether path.Clean leaves it as it is, but for a
// trailing slash (the mux's canonical form). It reads p once and
// allocates nothing.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	// Each element, between one slash and the next or the end: empty
	// only at the end (a trailing slash), never "." or "..".
	for start := 1; start <= len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		switch p[start:end] {
		case "":
			if end < len(p) {
				return false
			}
		case ".", "..":
			return false
		}
		start = end + 1
	}
	return true
}

// statusClientClosed is the status logged for a request whose client went
// away before it was answered (nginx's 499); nobody receives it.
const statusClientClosed = 499

// logRequest logs the request's line: its method, path (booking tokens
// hidden), route, status and how long since start it took.
func (h *handler) logRequest(r *http.Request, status int, start time.Time, st *reqState) {
	level := slog.LevelInfo
	if st.canceled {
		status = statusClientClosed
	} else if status >= 500 {
		level = slog.LevelError
	}
	ctx := r.Context()
	if !h.log.Enabled(ctx, level) {
		return
	}
	// The record is built here rather than by LogAttrs, which captures the
	// caller's program counter for every line (a stack walk per request)
	// though no handler of ours prints the source.
	// One reading of the clock serves the line's time and the duration.
	now := time.Now()
	rec := slog.NewRecord(now, level, "http request", 0)
	rec.AddAttrs(
		slog.String("method", r.Method),
		slog.String("path", redactPath(r.URL.Path)),
		slog.String("route", st.route),
		slog.Int("status", status),
		slog.Duration("duration", now.Sub(start)),
		slog.String("request_id", st.id),
	)
	h.log.Handler().Handle(ctx, rec)
}

// redactPath hides booking tokens, which give access to a booking, from
// logs: the segment after "/booking/" becomes "{token}".
func redactPath(p string) string {
	const seg = "/booking/"
	i := strings.Index(p, seg)
	if i < 0 {
		return p
	}
	rest := p[i+len(seg):]
	end := strings.IndexByte(rest, '/')
	if end < 0 {
		end = len(rest)
	}
	if end == 0 {
		return p
	}
	return p[:i+len(seg)] + "{token}" + rest[end:]
}
