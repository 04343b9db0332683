// Package hostapi is the authenticated host API: what property-management
// software, scripts and the dashboard of examples/server use to run the
// business after launch. It is mounted under /api/v1/host/ and answers
// with the public API's envelope, error codes, French or English messages
// and X-Service-API-Version: v1 (package httpapi's helpers); its OpenAPI
// 3.1 document is served at /api/v1/host/openapi.json.
//
// Requests under /api/v1/host/{org_slug}/ carry an organisation API key,
// Authorization: Bearer sk_host_…: 401 without a valid key (failed
// attempts are rate-limited per client address), 403 for a key of another
// organisation. Lists are paginated with ?limit=&cursor=; every POST
// honours Idempotency-Key; every change is audited. The use cases are
// package host's; this package only speaks HTTP.
package hostapi

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/schedule"
	"github.com/staykit/staykit/team"
)

//go:embed openapi.json
var openAPIDocument []byte

// Prefix is where the host API lives.
const Prefix = "/api/v1/host/"

// DefaultAuthFailures is how many failed authentications a client address
// may make a minute.
var DefaultAuthFailures = ratelimit.PerMinute(10)

// DefaultKeyRequests is how many requests one credential (an API key, or
// a dashboard user's session) may make a minute, all routes together,
// from any number of addresses.
var DefaultKeyRequests = ratelimit.PerMinute(300)

// NoLimit as Options.KeyRequests turns the per-credential limit off (load
// tests).
var NoLimit = ratelimit.Limit{Requests: -1}

// IdempotencyWindow is how long an Idempotency-Key is remembered; the
// booking sweeper purges older records (booking.Service.PurgeHostRequests).
const IdempotencyWindow = host.RequestWindow

// Options configure the handler. Host is required.
type Options struct {
	Host *host.Service
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Limiter counts failed authentications; nil means an in-memory
	// limiter for this process (pass a shared one with several replicas).
	Limiter ratelimit.Limiter
	// AuthFailures overrides DefaultAuthFailures.
	AuthFailures ratelimit.Limit
	// KeyRequests overrides DefaultKeyRequests; NoLimit turns it off.
	KeyRequests ratelimit.Limit
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// Clock defaults to the wall clock (idempotency records).
	Clock booking.Clock
	// Session, when set, authenticates requests that carry no API key (the
	// dashboard's session): it returns the actor (Kind "user", with its
	// Role in the path's organisation, which roles.go enforces) and the
	// organisation it acts for, ok false when the request has no session.
	Session func(r *http.Request) (actor host.Actor, orgID int64, ok bool)
	// Channels manages calendar feeds, export URLs and webhook endpoints;
	// nil: Host.Channels with the defaults (feeds fetched over https from
	// public addresses only, https webhook endpoints only).
	Channels *host.Channels
	// PublicURL is where the calendar export is reached
	// ("https://book.example.com"). The export URL is built on it alone,
	// never on a request's Host header (which a client chooses); empty:
	// the export routes answer 503 not_configured.
	PublicURL string
	// Reports computes the reports (/reports/...); nil: those routes
	// answer 503 not_configured.
	Reports *reports.Service
	// Events serves the event feed (/events, /webhooks/{id}/replay);
	// nil: those routes answer 503 not_configured.
	Events *eventfeed.Service
	// Mail are the SMTP settings, e-mail previews and resends
	// (Host.Mail); nil: Host.Mail without a secrets key (the SMTP
	// settings routes answer 503 not_configured).
	Mail *host.Mail
	// Team manages the members and invitations (/team/...); nil: those
	// routes answer 503 not_configured. Dashboard members' roles are
	// enforced whether or not it is set (roles.go).
	Team *team.Service
	// Reviews lists the guests' reviews and publishes them (/reviews/...);
	// nil: those routes answer 503 not_configured.
	Reviews *review.Service
	// Changes are the guests' changes of dates or party: the host
	// approves or declines those that wait (/changes/...,
	// /bookings/{id}/changes, /change-settings); nil: those routes answer
	// 503 not_configured.
	Changes *datechange.Service
	// Invoices lists the invoices and credit notes and draws them as PDF
	// (/invoices/..., /bookings/{id}/invoices); nil: those routes answer
	// 503 not_configured.
	Invoices *invoice.Service
	// Messages are the scheduled messages: templates, their previews,
	// the built-in messages' settings and the properties' check-in
	// instructions (/message-templates/..., /settings/messages,
	// /properties/{id}/checkin-instructions); nil: those routes answer 503
	// not_configured.
	Messages *schedule.Service
}

type handler struct {
	host     *host.Service
	log      *slog.Logger
	limiter  ratelimit.Limiter
	failures ratelimit.Limit
	perKey   ratelimit.Limit
	proxies  []netip.Prefix
	clock    booking.Clock
	session  func(r *http.Request) (host.Actor, int64, bool)
	mux      *http.ServeMux
	channels *host.Channels
	public   string
	reports  *reports.Service
	events   *eventfeed.Service
	mail     *host.Mail
	team     *team.Service
	reviews  *review.Service
	changes  *datechange.Service
	invoices *invoice.Service
	messages *schedule.Service
	// registered lists the routes ("METHOD /path"), for the test that
	// each has a role.
	registered []string
}

// New returns the host API handler. Mount it at Prefix:
//
//	mux.Handle(hostapi.Prefix, hostapi.New(opts))
func New(o Options) http.Handler {
	if o.Host == nil {
		panic("hostapi: New needs a host.Service")
	}
	h := &handler{host: o.Host, log: o.Logger, limiter: o.Limiter, failures: o.AuthFailures, perKey: o.KeyRequests,
		proxies: o.TrustedProxies, clock: o.Clock, session: o.Session, mux: http.NewServeMux()}
	if h.log == nil {
		h.log = slog.Default()
	}
	if h.limiter == nil {
		h.limiter = ratelimit.NewMemory(ratelimit.MemoryOptions{})
	}
	if h.failures.IsZero() {
		h.failures = DefaultAuthFailures
	}
	switch {
	case h.perKey == NoLimit:
		h.perKey = ratelimit.Limit{}
	case h.perKey.IsZero():
		h.perKey = DefaultKeyRequests
	}
	if h.clock == nil {
		h.clock = booking.SystemClock{}
	}
	h.channels, h.public, h.reports, h.events = o.Channels, strings.TrimRight(o.PublicURL, "/"), o.Reports, o.Events
	h.team, h.reviews, h.messages = o.Team, o.Reviews, o.Messages
	h.invoices, h.changes = o.Invoices, o.Changes
	if h.channels == nil {
		h.channels = o.Host.Channels(host.ChannelOptions{})
	}
	if h.mail = o.Mail; h.mail == nil {
		h.mail = o.Host.Mail(host.MailOptions{})
	}
	h.routes()
	return h
}

// call is what an operation gets: the organisation, who acts, the body;
// and the locale of the answer, and the data of a success once answered.
type call struct {
	org    *booking.Organization
	actor  host.Actor
	body   []byte
	loc    string
	answer any
}

// op is an operation: it returns the status and data of a success.
type op func(r *http.Request, c *call) (int, any, error)

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	apihttp.SetCommonHeaders(w, apihttp.RequestID(r))
	w.Header().Set("Cache-Control", "no-store")
	start := time.Now()
	rec := &apihttp.StatusRecorder{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.log.ErrorContext(r.Context(), "panic serving host request", "path", r.URL.Path, "panic", v)
			if !rec.Wrote() {
				messages.WriteError(rec, r, h.log, apihttp.Locale(r, ""), errPanic)
			}
		}
		h.log.InfoContext(r.Context(), "host request", "method", r.Method, "path", r.URL.Path,
			"status", rec.Status(), "duration_ms", time.Since(start).Milliseconds(),
			"request_id", w.Header().Get("X-Request-ID"))
	}()
	h.mux.ServeHTTP(rec, r)
}

var errPanic = booking.Errorf(booking.CodeInternal, "panic")

// handle registers an operation of an organisation behind the host
// API's middleware: authenticated (who acts, on which organisation, with
// which body), role-checked (a dashboard member's role, roles.go), then
// idempotent (a POST with an Idempotency-Key).
func (h *handler) handle(method, path string, fn op) {
	min, _ := minRole(method, path) // unclassified: team.Owner (roles.go)
	h.registered = append(h.registered, method+" "+path)
	h.mux.Handle(method+" "+Prefix+"{org_slug}"+path, h.authenticated(h.roleChecked(min, h.idempotent(path, h.operation(fn)))))
}

// callKey is the context key of a request's call.
type callKey struct{}

// callOf is the call authenticated put in the request's context.
func callOf(r *http.Request) *call { return r.Context().Value(callKey{}).(*call) }

// authenticated is the middleware that finds who makes the request (an
// API key or the dashboard's session) and the organisation of the path,
// refuses credentials of another organisation, reads the body of a POST
// or PATCH, and hands next the request with its call.
func (h *handler) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		actor, orgID, err := h.authenticate(w, r)
		if err != nil {
			if err != errWritten {
				messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), err)
			}
			return
		}
		if !h.allowActor(w, r, actor) {
			return
		}
		org, err := h.host.Organization(ctx, r.PathValue("org_slug"))
		if err != nil {
			messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), err)
			return
		}
		loc := apihttp.Locale(r, org.DefaultLocale)
		if org.ID != orgID {
			messages.WriteError(w, r, h.log, loc, host.ErrForbidden())
			return
		}
		c := &call{org: org, actor: actor, loc: loc}
		if r.Method == http.MethodPost || r.Method == http.MethodPatch || r.Method == http.MethodPut {
			if c.body, err = readBody(w, r); err != nil {
				messages.WriteError(w, r, h.log, loc, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, callKey{}, c)))
	})
}

// idempotent is the middleware that applies Idempotency-Key to POSTs: the
// first request with a key is served and its answer kept (unless we
// failed: a 5xx may be retried); a retry with the same request gets the
// kept answer, with another request or while the first runs a conflict.
// An answer that may show a booking's guest is kept with the booking
// (answerBooking), whose guest's erasure erases it: a retry then gets a
// conflict, not the answer.
func (h *handler) idempotent(path string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, c := r.Context(), callOf(r)
		key := r.Header.Get("Idempotency-Key")
		if r.Method != http.MethodPost || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if len(key) > 255 {
			messages.WriteError(w, r, h.log, c.loc, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
				Fields: booking.FieldErrors{"Idempotency-Key": {"too_long"}}})
			return
		}
		sum := sha256.Sum256([]byte(r.Method + " " + r.URL.Path + "\n" + string(c.body)))
		req := &host.Request{OrgID: c.org.ID, Key: key, RequestHash: hex.EncodeToString(sum[:]), CreatedAt: h.clock.Now()}
		prev, err := h.host.ReserveRequest(ctx, req, req.CreatedAt.Add(-IdempotencyWindow))
		switch {
		case booking.ErrorCode(err) == booking.CodeConflict && prev != nil:
			switch {
			case prev.RequestHash != req.RequestHash:
				err = &booking.Error{Code: booking.CodeConflict, Message: "This Idempotency-Key was already used with a different request.",
					Params: map[string]string{booking.ParamReason: "key_reused"}}
			case prev.Erased:
				err = &booking.Error{Code: booking.CodeConflict, Message: "The answer to the request made with this Idempotency-Key showed a guest whose data has been erased since: it is not replayed.",
					Params: map[string]string{booking.ParamReason: ReasonAnswerErased}}
			case prev.Status == 0:
				err = &booking.Error{Code: booking.CodeConflict, Message: "A request with this Idempotency-Key is still in progress.",
					Params: map[string]string{booking.ParamReason: "in_progress"}}
			default:
				w.Header().Set("Idempotent-Replayed", "true")
				writeRaw(w, prev.Status, prev.Body)
				return
			}
			messages.WriteError(w, r, h.log, c.loc, err)
			return
		case err != nil:
			messages.WriteError(w, r, h.log, c.loc, err)
			return
		}
		buf := &bufferWriter{header: w.Header()}
		next.ServeHTTP(buf, r)
		// The answer is kept unless we failed: a 5xx may be retried. An
		// answer with a secret is kept without it: secrets are never
		// stored.
		kept, err := buf.body.Bytes(), error(nil)
		if s, ok := c.answer.(secretBearing); ok {
			kept, err = apihttp.EncodeData(s.withoutSecret())
		}
		store := context.WithoutCancel(ctx)
		if buf.status >= 500 || err != nil {
			if err := h.host.ForgetRequest(store, c.org.ID, key); err != nil {
				h.log.ErrorContext(ctx, "forget host request", "err", err)
			}
		} else if err := h.host.CompleteRequest(store, c.org.ID, key, buf.status, kept, answerBooking(path, r, c.answer)); err != nil {
			h.log.ErrorContext(ctx, "record host request", "err", err)
		}
		writeRaw(w, buf.status, buf.body.Bytes())
	})
}

// ReasonAnswerErased is the booking.ParamReason of the conflict a retry
// gets when the kept answer of its Idempotency-Key showed a guest erased
// since (host.Request.Erased).
const ReasonAnswerErased = "answer_erased"

// aboutBooking is the data of an answer that shows a booking's guest on a
// route that is not the booking's (a review, a message's preview).
type aboutBooking interface {
	guestBooking() int64
}

// answerBooking is the booking whose guest the answer to r, a request of
// the route path, may show: the booking the answer names (aboutBooking),
// else the {id} of a booking's route (/bookings/{id}/...), else 0.
func answerBooking(path string, r *http.Request, answer any) int64 {
	if a, ok := answer.(aboutBooking); ok {
		return a.guestBooking()
	}
	if path == "/bookings/{id}" || strings.HasPrefix(path, "/bookings/{id}/") {
		if id, err := strconv.ParseInt(r.PathValue("id"), 10, 64); err == nil && id > 0 {
			return id
		}
	}
	return 0
}

// operation is the handler of an operation: it runs fn with the request's
// call and writes its answer, whose data it keeps in the call (for
// idempotent).
func (h *handler) operation(fn op) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := callOf(r)
		c.answer = h.run(w, r, c.loc, c, fn)
	})
}

// secretBearing is the data of an answer that holds a secret: a new API
// key, a webhook endpoint's signing secret, the calendar export URL after
// a rotation, a Stripe onboarding link. Its replay to a retry with the
// same Idempotency-Key is withoutSecret: the same answer with the secret
// null, which tells the client that the key or endpoint exists (revoke
// it, or rotate its secret, to get one again).
type secretBearing interface {
	withoutSecret() any
}

// run runs fn and writes its answer; it returns the data of a success.
func (h *handler) run(w http.ResponseWriter, r *http.Request, loc string, c *call, fn op) any {
	status, data, err := fn(r, c)
	if err != nil {
		messages.WriteError(w, r, h.log, loc, err)
		return nil
	}
	if f, ok := data.(fileAnswer); ok {
		f.write(w, status)
		return nil
	}
	if status == http.StatusNoContent {
		w.Header().Del("Content-Type")
		w.WriteHeader(status)
		return nil
	}
	apihttp.WriteData(w, status, data)
	return data
}

// authenticate finds who makes the request: an API key, else the
// dashboard's session. Failures count toward the client's limit; over it
// the answer is 429 (written, errWritten).
func (h *handler) authenticate(w http.ResponseWriter, r *http.Request) (host.Actor, int64, error) {
	auth := r.Header.Get("Authorization")
	if auth == "" && h.session != nil {
		if actor, orgID, ok := h.session(r); ok {
			return actor, orgID, nil
		}
	}
	secret, ok := strings.CutPrefix(auth, "Bearer ")
	var err error
	if ok {
		var k *host.APIKey
		if k, err = h.host.Authenticate(r.Context(), strings.TrimSpace(secret)); err == nil {
			return host.KeyActor(k), k.OrgID, nil
		}
		if booking.ErrorCode(err) != booking.CodeUnauthorized {
			return host.Actor{}, 0, err
		}
	} else {
		err = booking.Errorf(booking.CodeUnauthorized, "A valid API key is required.")
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="staykit host API"`)
	d, lerr := h.limiter.Allow(r.Context(), "host-auth|"+apihttp.ClientKey(r, h.proxies), h.failures)
	if lerr != nil {
		if !errors.Is(lerr, ratelimit.ErrBreakerOpen) {
			h.log.ErrorContext(r.Context(), "rate limiter failed; request answered 401", "err", lerr)
		}
		return host.Actor{}, 0, err
	}
	if !d.Allowed {
		apihttp.SetRateLimit(w.Header(), d)
		messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrRateLimited())
		return host.Actor{}, 0, errWritten
	}
	return host.Actor{}, 0, err
}

// allowActor applies the per-credential limit to an authenticated
// request: every answer carries its RateLimit-* headers; over it the
// answer is 429 with Retry-After (written, false). The count is the
// credential's wherever it comes from, so one key spread over many
// addresses gets no more. A limiter error lets the request through
// (fail open) and is logged, unless a ratelimit.Breaker logged it once.
func (h *handler) allowActor(w http.ResponseWriter, r *http.Request, actor host.Actor) bool {
	if h.perKey.IsZero() {
		return true
	}
	d, err := h.limiter.Allow(r.Context(), "host-key|"+actor.String(), h.perKey)
	if err != nil {
		if !errors.Is(err, ratelimit.ErrBreakerOpen) {
			h.log.ErrorContext(r.Context(), "rate limiter failed; request allowed", "actor", actor.String(), "err", err)
		}
		return true
	}
	apihttp.SetRateLimit(w.Header(), d)
	if d.Allowed {
		return true
	}
	messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrRateLimited())
	return false
}

var errWritten = booking.Errorf(booking.CodeInternal, "response written")

// Deny returns a handler that refuses every request with err, answered as
// the host API answers (its headers, envelope, statuses and messages): the
// deny handler of an http.CrossOriginProtection in front of the host API,
// say. A nil log means slog.Default().
func Deny(log *slog.Logger, err error) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apihttp.SetCommonHeaders(w, apihttp.RequestID(r))
		messages.WriteError(w, r, log, apihttp.Locale(r, ""), err)
	})
}
