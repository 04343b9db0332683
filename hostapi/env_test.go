package hostapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/schedule"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/postgres/pgtest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// testNow is the clock of every test: Friday 1 May 2026, noon in Paris.
var testNow = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

// replica is one server process: its own store handle, services and
// handlers (host API and public API on one mux).
type replica struct {
	store host.Stores
	svc   *booking.Service
	money *money.Service
	host  *host.Service
	// reviews are the guests' reviews, on the database (nil on a faulty
	// wrapper of it).
	reviews *review.Service
	changes *datechange.Service
	// invoices issues and reads invoices; nil when Records is no
	// database.
	invoices *invoice.Service
	// messages are the scheduled messages, on the database (nil on a
	// faulty wrapper of it).
	messages *schedule.Service
	server   http.Handler
}

// env is an organisation "villa" (full mode, property "soleil" at 100 a
// night), "request-org" (request mode, property "loft") and "other", each
// with an API key, over one database reached by one or two replicas.
type env struct {
	t        *testing.T
	replicas []*replica
	pay      *paymenttest.Provider
	clock    *bookingtest.Clock
	orgs     map[string]*booking.Organization
	props    map[string]int64
	keys     map[string]string // org slug → secret
}

// backends are the stores every handler test runs on.
func backends(t *testing.T) map[string]func(t *testing.T, n int) []host.Stores {
	return map[string]func(t *testing.T, n int) []host.Stores{
		"sqlite": func(t *testing.T, n int) []host.Stores {
			db := sqlitetest.Open(t)
			out := make([]host.Stores, n)
			for i := range out {
				out[i] = seamsOf(db)
			}
			return out
		},
		"postgres": func(t *testing.T, n int) []host.Stores { return postgresStores(t, n) },
	}
}

// seamsOf is every seam of db.
func seamsOf(db interface{ HostStores() host.Stores }) host.Stores { return db.HostStores() }

// schemas are the PostgreSQL schemas of the package's tests, reused
// emptied from one test to the next (TestMain drops them).
var schemas pgtest.Pool

func TestMain(m *testing.M) { pgtest.Main(m, &schemas) }

// postgresStores opens n pools on an empty schema, as n replicas would.
func postgresStores(t *testing.T, n int) []host.Stores {
	schema := schemas.Schema(t)
	url := testenv.PostgresURL(t)
	out := make([]host.Stores, n)
	for i := range out {
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		out[i] = seamsOf(db)
	}
	return out
}

func newEnv(t *testing.T, stores []host.Stores, opts ...func(*booking.Options)) *env {
	t.Helper()
	e := &env{t: t, clock: bookingtest.NewClock(testNow), orgs: map[string]*booking.Organization{},
		props: map[string]int64{}, keys: map[string]string{}}
	e.pay = paymenttest.New(paymenttest.WithClock(e.clock.Now))
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := ratelimit.NewMemory(ratelimit.MemoryOptions{Now: e.clock.Now})
	for _, st := range stores {
		r := &replica{store: st}
		bo := booking.Options{Stores: st.Stores, Payments: e.pay, Clock: e.clock, Logger: logger}
		for _, o := range opts {
			o(&bo)
		}
		r.svc = booking.NewService(bo)
		r.money = money.New(r.svc, money.Options{Store: st.Stores, Payments: bo.Payments, Connect: bo.Connect, Clock: bo.Clock, Notifier: bo.Notifier, Logger: bo.Logger})
		var cs *connect.Service // the Connect use cases when bo makes a platform
		if bo.Connect != nil {
			cs = connect.New(connect.Options{Store: st.Records.(connect.Store), Platform: bo.Connect, Events: r.money, Clock: e.clock})
		}
		r.host = host.New(host.Options{Stores: st, Bookings: r.svc, Connect: cs, Clock: e.clock, Logger: logger})
		if db, ok := st.Records.(review.Store); ok {
			r.reviews = review.New(review.Options{Store: db, Records: st.Records, Clock: e.clock})
		}
		if db, ok := st.Records.(datechange.Store); ok {
			r.changes = datechange.New(datechange.Options{Bookings: r.svc, Store: db, Money: r.money, Records: st.Records, Clock: e.clock, Logger: logger})
		}
		if db, ok := st.Records.(interface {
			schedule.Store
			schedule.Catalog
		}); ok {
			r.messages = schedule.New(schedule.Options{Store: db, Catalog: db, Records: st.Records, Clock: e.clock,
				BookingURL: func(org *booking.Organization, b *booking.Booking) string {
					return "https://book.example.com/?org=" + org.Slug + "&booking=" + b.Token
				}})
		}
		var thread *conversation.Service // the guest's side of the thread, on the database
		if db, ok := st.Records.(interface {
			conversation.Store
			conversation.Catalog
		}); ok {
			thread = conversation.New(conversation.Options{Store: db, Catalog: db, Clock: e.clock})
		}
		mux := http.NewServeMux()
		mux.Handle("/api/", httpapi.New(httpapi.Options{Service: r.svc, Money: r.money, Connect: cs, Logger: logger, Limiter: limiter, Reviews: r.reviews,
			Conversation: thread, Changes: r.changes}))
		var rs *reports.Service // on the database, when Records is it (not a faulty wrapper)
		if db, ok := st.Records.(reports.Store); ok {
			rs = reports.New(reports.Options{Store: db, Clock: e.clock})
		}
		var events *eventfeed.Service // likewise
		if db, ok := st.Records.(interface {
			eventfeed.Store
			notify.PayloadStore
		}); ok {
			events = &eventfeed.Service{Store: db, Payloads: db}
		}
		if db, ok := st.Records.(interface {
			invoice.Store
			invoice.Reader
		}); ok {
			r.invoices = invoice.New(invoice.Options{Store: db, Reader: db, Clock: e.clock})
		}
		mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: r.host, Logger: logger, Limiter: limiter, Clock: e.clock, Reports: rs, Events: events,
			Mail: r.host.Mail(host.MailOptions{Key: testSecretsKey(t)}), Reviews: r.reviews, Invoices: r.invoices, Messages: r.messages, Changes: r.changes}))
		r.server = mux
		e.replicas = append(e.replicas, r)
	}
	ctx := t.Context()
	st := stores[0]
	for _, o := range []struct {
		slug string
		mode pricing.PaymentMode
		prop string
	}{{"villa", pricing.ModeFull, "soleil"}, {"request-org", pricing.ModeRequest, "loft"}, {"other", pricing.ModeFull, "bastide"}} {
		org := (&booking.Organization{Slug: o.slug, Name: o.slug, PaymentMode: o.mode, PublicEngineEnabled: true}).WithDefaults()
		if err := st.CreateOrganization(ctx, &org); err != nil {
			t.Fatal(err)
		}
		e.orgs[o.slug] = &org
		p := &booking.Property{OrgID: org.ID, Name: o.prop, MaxGuests: 4, Active: true, Photos: []string{},
			Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(100)}}
		if err := st.CreateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
		e.props[o.prop] = p.ID
		secret, _, err := e.replicas[0].host.CreateAPIKey(ctx, &org, "test", host.Actor{Kind: "user", ID: 1, Name: "setup"})
		if err != nil {
			t.Fatal(err)
		}
		e.keys[o.slug] = secret
	}
	c := &coupon.Coupon{OrgID: e.orgs["villa"].ID, Code: "SUMMER", Kind: pricing.DiscountPercent, Value: decimal.NewFromInt(10), Active: true}
	if err := st.CreateCoupon(ctx, c); err != nil {
		t.Fatal(err)
	}
	return e
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) data(t *testing.T) map[string]any {
	t.Helper()
	var env struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil || !env.Success {
		t.Fatalf("not a success envelope (%d): %s", r.status, r.body)
	}
	return env.Data
}

func (r response) code(t *testing.T) string {
	t.Helper()
	var f struct {
		Code string `json:"code"`
	}
	json.Unmarshal(r.body, &f)
	return f.Code
}

// req is a request to send.
type req struct {
	method, path string
	body         any
	key          string // the Authorization bearer; "-" for none
	header       map[string]string
	replica      int
}

// do sends a request as org's key (unless r.key says otherwise) and
// checks the answer against the document of the API it went to.
func (e *env) do(org string, r req) response {
	e.t.Helper()
	var body []byte
	switch b := r.body.(type) {
	case nil:
	case string:
		body = []byte(b)
	default:
		body, _ = json.Marshal(b)
	}
	hr := httptest.NewRequest(r.method, r.path, bytes.NewReader(body))
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	switch {
	case r.key == "" && strings.HasPrefix(r.path, hostapi.Prefix):
		hr.Header.Set("Authorization", "Bearer "+e.keys[org])
	case r.key != "" && r.key != "-":
		hr.Header.Set("Authorization", "Bearer "+r.key)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	if host, ok := r.header["Host"]; ok {
		hr.Host = host
	}
	rec := httptest.NewRecorder()
	e.replicas[r.replica].server.ServeHTTP(rec, hr)
	resp := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	if strings.HasPrefix(r.path, hostapi.Prefix) {
		if err := loadContract(e.t).check(r.method, r.path, hr.Header, body, resp); err != nil {
			e.t.Errorf("OpenAPI contract: %s %s: %v\nresponse %d: %s", r.method, r.path, err, resp.status, resp.body)
		}
		if got := resp.header.Get("X-Service-API-Version"); got != "v1" {
			e.t.Errorf("%s %s: X-Service-API-Version = %q, want v1", r.method, r.path, got)
		}
	}
	return resp
}

// hostPath is a path of the host API under an organisation.
func hostPath(org, rest string) string { return hostapi.Prefix + org + rest }

// want fails the test unless the response has the status (and, for a
// failure, the code).
func want(t *testing.T, r response, status int, code ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if len(code) > 0 && r.code(t) != code[0] {
		t.Fatalf("code %q, want %q: %s", r.code(t), code[0], r.body)
	}
}

// requestBooking makes a request-mode booking of the loft, authorised and
// waiting for the host; it returns its ID.
func (e *env) requestBooking(in, out string) int64 {
	e.t.Helper()
	return e.paidBooking("request-org", "loft", in, out)
}

// paidBooking checks out and pays (or authorises) a booking.
func (e *env) paidBooking(org, prop, in, out string) int64 {
	e.t.Helper()
	ctx := e.t.Context()
	svc := e.replicas[0].svc
	res, err := svc.Checkout(ctx, org, booking.CheckoutRequest{PropertyID: e.props[prop],
		Stay:      booking.Stay{CheckIn: civil.MustParse(in), CheckOut: civil.MustParse(out), Guests: 2},
		GuestName: "Ana Guest", GuestEmail: "ana@example.com", GuestPhone: "+33612345678"})
	if err != nil {
		e.t.Fatal(err)
	}
	b := res.Booking
	if org == "request-org" {
		_, err = e.pay.SimulateAuthorized(b.PaymentIntentID)
	} else {
		_, err = e.pay.SimulatePaid(b.PaymentIntentID)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := svc.Confirm(ctx, org, b.Token, booking.ConfirmRequest{}); err != nil {
		e.t.Fatal(err)
	}
	return b.ID
}

// The OpenAPI contract of the host API, made strict for the tests as the
// public one is (httpapi/contract_test.go): closed response objects and
// undocumented statuses fail.

type contract struct {
	doc    *openapi3.T
	router routers.Router
}

var theContract = sync.OnceValues(func() (*contract, error) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate document: %w", err)
	}
	closeObjects(doc)
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &contract{doc: doc, router: router}, nil
})

func loadContract(t testing.TB) *contract {
	t.Helper()
	c, err := theContract()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// closeObjects sets additionalProperties: false on every response object
// schema that lists properties.
func closeObjects(doc *openapi3.T) {
	closed := false
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if s.Type.Is(openapi3.TypeObject) && len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			s.AdditionalProperties.Has = &closed
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range l {
				walk(sub)
			}
		}
	}
	for _, r := range doc.Components.Responses {
		for _, mt := range r.Value.Content {
			walk(mt.Schema)
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						walk(mt.Schema)
					}
				}
			}
		}
	}
}

var validation = &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}

// check validates one exchange: a request the handler accepted must be
// one the document allows, and every response must be documented.
func (c *contract) check(method, path string, header http.Header, body []byte, resp response) error {
	ctx := context.Background()
	r := httptest.NewRequest(method, path, bytes.NewReader(body))
	r.Header = header.Clone()
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		name := map[int]string{404: "NotFound", 405: "MethodNotAllowed"}[resp.status]
		if name == "" {
			return fmt.Errorf("status %d for a request without an operation (%v)", resp.status, err)
		}
		route = &routers.Route{Spec: c.doc, Path: r.URL.Path, Method: method,
			Operation: &openapi3.Operation{Responses: openapi3.NewResponses(openapi3.WithStatus(resp.status, c.doc.Components.Responses[name]))}}
		params = nil
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: validation}
	if resp.status >= 200 && resp.status < 300 && params != nil {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("the handler accepted a request the document refuses: %w", err)
		}
	}
	return openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{RequestValidationInput: in,
		Status: resp.status, Header: resp.header, Body: io.NopCloser(bytes.NewReader(resp.body)), Options: validation})
}

func day(s string) civil.Date { return civil.MustParse(s) }
