package httpapi

import (
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/rs/cors"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/internal/apihttp"
	moneyio "github.com/staykit/staykit/money"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/review"
)

// Route names, the keys of Options.Limits and the "route" of log lines.
const (
	RouteConfig         = "config"
	RouteProperties     = "properties"
	RouteAvailability   = "availability"
	RoutePrice          = "price"
	RouteCheckout       = "checkout"
	RouteValidateCoupon = "validate-coupon"
	RouteBooking        = "booking"
	RouteConfirm        = "confirm"
	RouteWebhook        = "webhook"
	RouteOpenAPI        = "openapi"
	// RouteConnectWebhook is the Stripe Connect endpoint's events, with
	// their own secret.
	RouteConnectWebhook = "connect-webhook"
)

// MaxBodyBytes is the largest request body the handler reads (64 KiB);
// a larger one is refused with 413.
const MaxBodyBytes = apihttp.MaxBodyBytes

// DefaultLimits returns the rate limits applied when Options.Limits does
// not override them: checkout 10, validate-coupon 20, confirm, cancel,
// balance, review, check-in and a guest's message 10 requests a minute
// per organisation and client address. Other routes are not limited.
func DefaultLimits() map[string]ratelimit.Limit {
	return map[string]ratelimit.Limit{
		RouteCheckout:       ratelimit.PerMinute(10),
		RouteValidateCoupon: ratelimit.PerMinute(20),
		RouteConfirm:        ratelimit.PerMinute(10),
		RouteCancel:         ratelimit.PerMinute(10),
		RouteBalancePayment: ratelimit.PerMinute(10),
		RouteReview:         ratelimit.PerMinute(10),
		RouteCheckin:        ratelimit.PerMinute(10),
		RouteMessage:        ratelimit.PerMinute(10),
		RouteChange:         ratelimit.PerMinute(10),
		RouteChangeQuote:    ratelimit.PerMinute(30),
	}
}

// Options configure the handler. Service and Money are required.
type Options struct {
	Service *booking.Service
	// Money applies the payment provider's webhook
	// (/api/v1/webhooks/stripe): money.New over Service.
	Money *moneyio.Service
	// Connect serves the Stripe Connect webhook
	// (/api/v1/webhooks/stripe-connect) when the server is a Connect
	// platform (connect.New); nil means it is not one, and the route
	// refuses every payload.
	Connect *connect.Service
	// Reviews serves the guests' reviews (the property's reviews, the
	// booking's review); nil: those routes are not served (404).
	Reviews *review.Service
	// Changes serves the guests' changes of dates or party
	// (/booking/{token}/change); nil: those routes are not served (404).
	Changes *datechange.Service
	// Logger receives one line per request and the details of server
	// errors; nil means slog.Default().
	Logger *slog.Logger
	// Limiter counts requests of the limited routes; nil means an
	// in-memory limiter for this process.
	Limiter ratelimit.Limiter
	// Limits override DefaultLimits per route name (Route* constants); a
	// zero Limit turns a route's limit off.
	Limits map[string]ratelimit.Limit
	// TrustedProxies are the peers whose X-Forwarded-For is believed; the
	// client is then the rightmost hop that is not a trusted proxy.
	TrustedProxies []netip.Prefix
	// ServiceDomain (e.g. "staykit.app"): https origins on its subdomains
	// are allowed for every organisation.
	ServiceDomain string
	// PreviewDomains (e.g. "vercel.app"): https origins on their
	// subdomains are allowed for every organisation.
	PreviewDomains []string
	// ExtraOrigins are origins allowed for every organisation, exactly as
	// browsers send them (e.g. "http://127.0.0.1:8080").
	ExtraOrigins []string
	// Checkin serves the guests' online check-in
	// (/booking/{token}/checkin): host.Service; nil means the routes
	// answer 404.
	Checkin GuestCheckin
	// Conversation serves the messages between a booking's guest and the
	// host (/booking/{token}/messages); nil: those routes are not served
	// (404).
	Conversation *conversation.Service
}

// handler is the API v1 http.Handler.
type handler struct {
	svc     *booking.Service
	checkin GuestCheckin
	money   *moneyio.Service
	connect *connect.Service
	log     *slog.Logger
	limiter ratelimit.Limiter
	limits  map[string]ratelimit.Limit
	proxies []netip.Prefix
	origins originRules
	cors    *cors.Cors
	mux     *http.ServeMux
	reviews *review.Service
	// conversation serves the guest's thread; nil: not served.
	conversation *conversation.Service
	// configs keeps the organisations' encoded configurations (configs.go).
	configs configs
	changes *datechange.Service
	// lists keeps the encoded properties lists (lists.go).
	lists lists
	// calendars keeps the encoded availability calendars (calendars.go).
	calendars calendars
	// quotes keeps the encoded quotes (quotes.go).
	quotes quotes
}

// New returns the handler of API v1. Its routes are under /api/v1/, so a
// host mounts it with mux.Handle("/api/", h) (or under a prefix through
// http.StripPrefix). It panics when o.Service or o.Money is nil, a
// programming error.
func New(o Options) http.Handler {
	if o.Service == nil || o.Money == nil {
		panic("httpapi: New needs a booking.Service and its money.Service")
	}
	h := &handler{
		svc:     o.Service,
		checkin: o.Checkin,
		money:   o.Money,
		connect: o.Connect,
		reviews: o.Reviews,
		changes: o.Changes,
		quotes:  quotes{max: maxQuoteBytes},
		log:     o.Logger,
		limiter: o.Limiter,
		limits:  DefaultLimits(),
		proxies: slices.Clone(o.TrustedProxies),
		origins: newOriginRules(o.ServiceDomain, o.PreviewDomains, o.ExtraOrigins),
		mux:     http.NewServeMux(),
	}
	h.conversation = o.Conversation
	if h.connect == nil {
		h.connect = &connect.Service{}
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	if h.limiter == nil {
		h.limiter = ratelimit.NewMemory(ratelimit.MemoryOptions{})
	}
	for name, l := range o.Limits {
		h.limits[name] = l
	}
	h.cors = newCORS()
	h.routes()
	return h
}

// route is one operation of the API.
type route struct {
	name   string
	method string
	path   string
	// org routes are under /api/v1/book/{org_slug}: they get CORS and the
	// origin check.
	org bool
	fn  apiFunc
}

// apiFunc serves one operation: the status and data of a success, or an
// error that writeError turns into the failure envelope.
type apiFunc func(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error)

const orgPrefix = "/api/v1/book/{org_slug}"

func (h *handler) routes() {
	rs := []route{
		{RouteConfig, http.MethodGet, orgPrefix, true, h.config},
		{RouteProperties, http.MethodGet, orgPrefix + "/properties", true, h.properties},
		{RouteAvailability, http.MethodGet, orgPrefix + "/properties/{id}/availability", true, h.availability},
		{RoutePrice, http.MethodGet, orgPrefix + "/properties/{id}/price", true, h.price},
		{RouteCheckout, http.MethodPost, orgPrefix + "/checkout", true, h.checkout},
		{RouteValidateCoupon, http.MethodPost, orgPrefix + "/validate-coupon", true, h.validateCoupon},
		{RouteBooking, http.MethodGet, orgPrefix + "/booking/{token}", true, h.booking},
		{RouteConfirm, http.MethodPost, orgPrefix + "/booking/{token}/confirm", true, h.confirm},
		{RouteCancellation, http.MethodGet, orgPrefix + "/booking/{token}/cancellation", true, h.cancellation},
		{RouteCancel, http.MethodPost, orgPrefix + "/booking/{token}/cancel", true, h.cancel},
		{RouteBalancePayment, http.MethodPost, orgPrefix + "/booking/{token}/balance", true, h.balancePayment},
		{RouteCheckinStatus, http.MethodGet, orgPrefix + "/booking/{token}/checkin", true, h.checkinStatus},
		{RouteCheckin, http.MethodPost, orgPrefix + "/booking/{token}/checkin", true, h.saveCheckin},
		{RoutePayments, http.MethodGet, orgPrefix + "/booking/{token}/payments", true, h.payments},
		{RouteWebhook, http.MethodPost, "/api/v1/webhooks/stripe", false, h.webhook},
		{RouteOpenAPI, http.MethodGet, "/api/v1/openapi.json", false, h.openAPI},
		{RouteConnectWebhook, http.MethodPost, "/api/v1/webhooks/stripe-connect", false, h.connectWebhook},
	}
	if h.reviews != nil {
		rs = append(rs, h.reviewRoutes()...)
	}
	if h.conversation != nil {
		rs = append(rs, h.threadRoutes()...)
	}
	if h.changes != nil {
		rs = append(rs, h.changeRoutes()...)
	}
	// Each path also gets a pattern without a method, so that the mux never
	// answers 405 itself: that handler serves preflights and writes the JSON
	// 405. The "/" pattern does the same for 404.
	methods := map[string][]string{}
	org := map[string]bool{}
	var paths []string
	for _, rt := range rs {
		h.mux.Handle(rt.method+" "+rt.path, h.serve(rt))
		if _, ok := methods[rt.path]; !ok {
			paths = append(paths, rt.path)
		}
		methods[rt.path] = append(methods[rt.path], rt.method)
		if rt.method == http.MethodGet {
			methods[rt.path] = append(methods[rt.path], http.MethodHead)
		}
		org[rt.path] = rt.org
	}
	for _, p := range paths {
		allow := strings.Join(append(methods[p], http.MethodOptions), ", ")
		h.mux.Handle(p, h.otherMethod(allow, org[p]))
	}
	h.mux.Handle("/", h.serve(route{name: "unknown", fn: func(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
		// Under an organisation, answer in its language.
		if rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/book/"); ok {
			st.slug, _, _ = strings.Cut(rest, "/")
		}
		return 0, nil, apihttp.ErrRouteNotFound()
	}}))
}

// serve runs an operation behind the origin check, CORS and its rate limit.
func (h *handler) serve(rt route) http.Handler {
	var next http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(w)
		if !h.allow(w, r, st, rt.name) {
			return
		}
		status, data, err := rt.fn(w, r, st)
		if err == errWritten {
			return
		}
		if err != nil {
			h.writeError(w, r, st, err)
			return
		}
		if policy := cacheControl[rt.name]; policy != "" && status == http.StatusOK {
			if k, ok := data.(*keptBody); ok {
				writeTagged(w, r, policy, k.body, k.etag)
				return
			}
			b, err := encodeData(data)
			if err != nil {
				h.writeError(w, r, st, err)
				return
			}
			writeCacheable(w, r, policy, b)
			if raw, ok := data.(rawEnvelope); ok {
				// Written (a Writer keeps no part of its input): the
				// buffer serves the next calendar.
				releaseEnvelope(raw)
			}
			return
		}
		writeData(w, status, data)
	})
	if rt.org {
		next = h.withOrigins(next)
	}
	private := privateRoutes[rt.name]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(w)
		st.route = rt.name
		if private {
			// Guest data: no cache, shared or private, may keep it.
			w.Header().Set("Cache-Control", "no-store")
		}
		if rt.org {
			st.slug = r.PathValue("org_slug")
		}
		next.ServeHTTP(w, r)
	})
}

// privateRoutes are the routes whose answers carry guest data: no cache,
// shared or private, may keep them (Cache-Control: no-store).
var privateRoutes = map[string]bool{
	RouteCheckout: true, RouteBooking: true, RouteConfirm: true, RouteCancellation: true, RouteCancel: true,
	RouteBalancePayment: true, RouteBookingReview: true, RouteReview: true, RouteCheckinStatus: true, RouteCheckin: true,
	RouteThread: true, RouteMessage: true, RoutePayments: true, RouteChangeQuote: true, RouteChange: true, RouteChangeState: true,
}

// otherMethod answers the methods a path has no operation for: preflights
// (through CORS on org paths), a plain OPTIONS with 204 and Allow, anything
// else with 405 and Allow.
func (h *handler) otherMethod(allow string, org bool) http.Handler {
	var next http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.writeError(w, r, stateOf(w), apihttp.ErrMethodNotAllowed())
	})
	if org {
		// rs/cors answers preflights itself (204) and passes the rest on.
		next = h.withOrigins(next)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(w)
		st.route = "method-not-allowed"
		if r.Method == http.MethodOptions {
			st.route = "options"
		}
		if org {
			st.slug = r.PathValue("org_slug")
		}
		next.ServeHTTP(w, r)
	})
}
