package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"path"
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
	// originAllowed is the origin check's verdict, read by rs/cors.
	originAllowed bool
	// canceled: the client went away before the answer was written.
	canceled bool
}

type stateKey struct{}

// exchange is what ServeHTTP allocates per request, in one piece.
type exchange struct {
	st       reqState
	rec      recorder
	idHeader [1]string
}

// stateOf returns the request's state; requests that did not come through
// ServeHTTP (which cannot happen) get a fresh one.
func stateOf(r *http.Request) *reqState {
	if st, ok := r.Context().Value(stateKey{}).(*reqState); ok {
		return st
	}
	return &reqState{id: apihttp.CleanRequestID("")}
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
	// The request's state, its recorder and its ID header's value are
	// allocated together, once.
	x := &exchange{st: reqState{id: apihttp.CleanRequestID(r.Header.Get("X-Request-ID"))}}
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
	x.rec.ResponseWriter = w
	rec := &x.rec
	r = r.WithContext(context.WithValue(r.Context(), stateKey{}, st))

	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.ErrorContext(r.Context(), "panic serving request", "request_id", st.id,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !rec.wrote {
				h.writeError(rec, r, st, fmt.Errorf("panic: %v", v))
			}
		}
		h.logRequest(r, rec.status(), time.Since(start), st)
	}()

	if !cleanPath(r.URL.EscapedPath()) {
		// The mux would redirect to the cleaned path, which is wrong when
		// the handler is mounted under a prefix: refuse instead.
		st.route = "unknown"
		h.writeError(rec, r, st, apihttp.ErrRouteNotFound())
		return
	}
	h.mux.ServeHTTP(rec, r)
}

// cleanPath reports whether p is rooted and has no "." or ".." elements nor
// repeated slashes (the mux's canonical form).
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// statusClientClosed is the status logged for a request whose client went
// away before it was answered (nginx's 499); nobody receives it.
const statusClientClosed = 499

func (h *handler) logRequest(r *http.Request, status int, d time.Duration, st *reqState) {
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
	rec := slog.NewRecord(time.Now(), level, "http request", 0)
	rec.AddAttrs(
		slog.String("method", r.Method),
		slog.String("path", redactPath(r.URL.Path)),
		slog.String("route", st.route),
		slog.Int("status", status),
		slog.Duration("duration", d),
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

// recorder remembers the status written, for the log line and to know
// whether a panic can still be answered.
type recorder struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.code, r.wrote = http.StatusOK, true
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) status() int {
	if !r.wrote {
		return http.StatusOK
	}
	return r.code
}
