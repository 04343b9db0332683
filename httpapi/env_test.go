package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/review"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// The helpers of this file (newTestEnv, call, do, response, envelope,
// checkV1Headers) are meant for every test of the handler, golden files
// and OpenAPI contract tests included.

// testNow is the fake clock's start: Friday 1 May 2026, noon in Paris.
var testNow = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

// testEnv is a handler over a real Service on a temporary SQLite file, the
// fake payment provider and a fake clock, with fixtures:
//
//	villa          full mode, EUR, default fr, custom domain villa-soleil.fr,
//	               allowed origin https://partner.example.com;
//	               properties "soleil" (2–14 nights, 4 guests, 100/night,
//	               120 Fri+Sat, cleaning 50, tax 2/guest/night) and
//	               "cabane" (no stay limits, 2 guests, 80/night);
//	               coupons WELCOME10 (10 %), FIXED30 (30 off), EXPIRED,
//	               LONGSTAY (7 nights min)
//	deposit-org    deposit mode 30 %, balance due 30 days before; "chalet"
//	request-org    request mode; "loft"
//	other-org      full mode, default en; "bastide"
//	disabled-org   public engine disabled; "grange"
//	yen-org        JPY; "ryokan" (15000/night)
//
// and one pending booking at soleil, 2026-09-01 → 2026-09-04 (Tokens["pending"]).
type testEnv struct {
	t        testing.TB
	Handler  http.Handler
	Service  *booking.Service
	Money    *money.Service
	Store    *faultyStore
	Pay      *paymenttest.Provider
	Clock    *bookingtest.Clock
	Notifier *bookingtest.Notifier
	Logs     *syncBuffer
	// Props maps a fixture property name to its id.
	Props map[string]int64
	// Tokens holds fixture bookings' tokens.
	Tokens map[string]string
}

// envOption adjusts the handler's options before New.
type envOption func(*httpapi.Options)

func withLimits(l map[string]ratelimit.Limit) envOption {
	return func(o *httpapi.Options) { o.Limits = l }
}

func withLimiter(l ratelimit.Limiter) envOption {
	return func(o *httpapi.Options) { o.Limiter = l }
}

func withTrustedProxies(p ...string) envOption {
	return func(o *httpapi.Options) {
		for _, s := range p {
			o.TrustedProxies = append(o.TrustedProxies, netip.MustParsePrefix(s))
		}
	}
}

// newTestEnv builds the environment; everything is closed when t ends.
func newTestEnv(t testing.TB, opts ...envOption) *testEnv {
	t.Helper()
	ctx := context.Background()
	db := sqlitetest.Open(t)
	e := &testEnv{
		t:        t,
		Store:    &faultyStore{DB: db},
		Clock:    bookingtest.NewClock(testNow),
		Notifier: &bookingtest.Notifier{},
		Logs:     &syncBuffer{},
		Props:    map[string]int64{},
		Tokens:   map[string]string{},
	}
	e.Pay = paymenttest.New(paymenttest.WithClock(e.Clock.Now))
	logger := slog.New(slog.NewTextHandler(e.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	e.Service = booking.NewService(booking.Options{Stores: e.Store.Stores(), Payments: e.Pay, Clock: e.Clock, Notifier: e.Notifier, Logger: logger})
	e.Money = money.New(e.Service, money.Options{Store: e.Store.Stores(), Payments: e.Pay, Clock: e.Clock, Notifier: e.Notifier, Logger: logger})
	o := httpapi.Options{
		Service:        e.Service,
		Money:          e.Money,
		Logger:         logger,
		Limiter:        ratelimit.NewMemory(ratelimit.MemoryOptions{Now: e.Clock.Now}),
		ServiceDomain:  "staykit.app",
		PreviewDomains: []string{"vercel.app"},
		ExtraOrigins:   []string{"http://127.0.0.1:8080"},
		Reviews:        review.New(review.Options{Store: db, Records: db, Clock: e.Clock}),
		Conversation:   conversation.New(conversation.Options{Store: db, Catalog: db, Clock: e.Clock}),
		Changes:        datechange.New(datechange.Options{Bookings: e.Service, Store: db, Money: e.Money, Clock: e.Clock, Logger: logger}),
	}
	for _, opt := range opts {
		opt(&o)
	}
	e.Handler = httpapi.New(o)
	e.seed(ctx)
	return e
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func intp(n int) *int { return &n }

func day(s string) civil.Date { return civil.MustParse(s) }

func (e *testEnv) seed(ctx context.Context) {
	t := e.t
	t.Helper()
	org := func(o booking.Organization, props ...booking.Property) {
		t.Helper()
		o = o.WithDefaults()
		if err := o.Validate(); err != nil {
			t.Fatalf("organisation %s: %v", o.Slug, err)
		}
		if err := e.Store.CreateOrganization(ctx, &o); err != nil {
			t.Fatalf("create organisation %s: %v", o.Slug, err)
		}
		for _, p := range props {
			p.OrgID, p.Active = o.ID, true
			if err := p.Validate(); err != nil {
				t.Fatalf("property %s: %v", p.Name, err)
			}
			if err := e.Store.CreateProperty(ctx, &p); err != nil {
				t.Fatalf("create property %s: %v", p.Name, err)
			}
			e.Props[strings.ToLower(p.Name)] = p.ID
		}
	}
	weekend := dec("120")
	org(booking.Organization{
		Slug: "villa", Name: "Villa Soleil", PaymentMode: pricing.ModeFull, DefaultLocale: "fr",
		Branding: map[string]string{"primary_color": "#ff8800"}, PublicEngineEnabled: true,
		CustomDomain: "villa-soleil.fr", AllowedOrigins: []string{"https://partner.example.com"},
	},
		booking.Property{Name: "Soleil", Description: "Sea view", Photos: []string{"https://img.example/1.jpg"},
			City: "Nice", Country: "FR", MaxGuests: 4, Bedrooms: 2, MinStayNights: intp(2), MaxStayNights: intp(14),
			Rates: pricing.RatePlan{BaseRate: dec("100"), WeekendRate: &weekend},
			Fees:  pricing.Fees{Cleaning: dec("50")},
			Tax:   pricing.TouristTax{PerGuestPerNight: dec("2")}},
		booking.Property{Name: "Cabane", City: "Nice", Country: "FR", MaxGuests: 2, Bedrooms: 1,
			Rates: pricing.RatePlan{BaseRate: dec("80")}},
	)
	org(booking.Organization{Slug: "deposit-org", Name: "Chalets", PaymentMode: pricing.ModeDeposit,
		DepositPercent: dec("30"), BalanceDueDays: 30, DefaultLocale: "en", PublicEngineEnabled: true},
		booking.Property{Name: "Chalet", MaxGuests: 6, Rates: pricing.RatePlan{BaseRate: dec("100")}})
	org(booking.Organization{Slug: "request-org", Name: "Lofts", PaymentMode: pricing.ModeRequest,
		DefaultLocale: "en", PublicEngineEnabled: true},
		booking.Property{Name: "Loft", MaxGuests: 2, Rates: pricing.RatePlan{BaseRate: dec("150")}})
	org(booking.Organization{Slug: "other-org", Name: "Other", DefaultLocale: "en", PublicEngineEnabled: true},
		booking.Property{Name: "Bastide", MaxGuests: 8, Rates: pricing.RatePlan{BaseRate: dec("200")}})
	org(booking.Organization{Slug: "disabled-org", Name: "Disabled", PublicEngineEnabled: false},
		booking.Property{Name: "Grange", MaxGuests: 8, Rates: pricing.RatePlan{BaseRate: dec("60")}})
	org(booking.Organization{Slug: "yen-org", Name: "Yen", Currency: "JPY", Timezone: "Asia/Tokyo",
		DefaultLocale: "en", PublicEngineEnabled: true},
		booking.Property{Name: "Ryokan", MaxGuests: 2, Rates: pricing.RatePlan{BaseRate: dec("15000")}})

	villa, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []coupon.Coupon{
		{Code: "WELCOME10", Label: "Welcome offer", Kind: pricing.DiscountPercent, Value: dec("10"), Active: true},
		{Code: "FIXED30", Label: "30 off", Kind: pricing.DiscountFixed, Value: dec("30"), Active: true},
		{Code: "EXPIRED", Kind: pricing.DiscountPercent, Value: dec("5"), Active: true, ValidUntil: day("2026-04-01")},
		{Code: "LONGSTAY", Kind: pricing.DiscountPercent, Value: dec("15"), Active: true, MinNights: 7},
	} {
		c.OrgID = villa.ID
		if err := e.Store.CreateCoupon(ctx, &c); err != nil {
			t.Fatalf("create coupon %s: %v", c.Code, err)
		}
	}
	res, err := e.Service.Checkout(ctx, "villa", booking.CheckoutRequest{
		PropertyID: e.Props["soleil"],
		Stay:       booking.Stay{CheckIn: day("2026-09-01"), CheckOut: day("2026-09-04"), Guests: 2},
		GuestName:  "Fixture Guest", GuestEmail: "fixture@example.com", GuestPhone: "+33600000000",
	})
	if err != nil {
		t.Fatalf("fixture checkout: %v", err)
	}
	e.Tokens["pending"] = res.Booking.Token
}

// faultyStore is the SQLite store with switches to make it fail or panic,
// for the 500 path.
type faultyStore struct {
	*sqlite.DB
	fail  atomic.Bool
	panic atomic.Bool
	// down makes every organisation lookup and webhook check fail as a
	// store does when its database cannot be reached.
	down atomic.Bool
	// orgLookups counts OrganizationBySlug calls.
	orgLookups atomic.Int64
}

// Stores are the store's seams with its switches: the catalogue and the
// bookings go through s.
func (s *faultyStore) Stores() booking.Stores {
	st := s.DB.Stores()
	st.CatalogStore, st.BookingStore = s, s
	return st
}

func (s *faultyStore) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	s.orgLookups.Add(1)
	if s.down.Load() {
		return nil, booking.StoreUnavailable(errStoreDown)
	}
	return s.DB.OrganizationBySlug(ctx, slug)
}

// errStoreDown is the cause behind the 500s of faultyStore; it must never
// reach a client.
var errStoreDown = errors.New("disk on fire at /var/lib/secret.db")

func (s *faultyStore) Properties(ctx context.Context, orgID int64) ([]booking.Property, error) {
	if s.panic.Load() {
		panic("store exploded")
	}
	if s.fail.Load() {
		return nil, errStoreDown
	}
	return s.DB.Properties(ctx, orgID)
}

func (s *faultyStore) EventProcessed(ctx context.Context, eventID string) (bool, error) {
	if s.fail.Load() {
		return false, errStoreDown
	}
	if s.down.Load() {
		return false, booking.StoreUnavailable(errStoreDown)
	}
	return s.DB.EventProcessed(ctx, eventID)
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// call is one HTTP request to the handler.
type call struct {
	method string
	path   string
	header map[string]string
	body   string
	// remote is the peer address (default 192.0.2.1:40000).
	remote string
}

// envelope is the API's response body.
type envelope struct {
	Success    bool                `json:"success"`
	Data       json.RawMessage     `json:"data"`
	Message    string              `json:"message"`
	Code       string              `json:"code"`
	Errors     map[string][]string `json:"errors"`
	FieldCodes map[string][]string `json:"field_codes"`
}

// response is what the handler answered.
type response struct {
	Status int
	Header http.Header
	Body   []byte
	Env    envelope
}

// data decodes the envelope's data into v.
func (r response) data(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Env.Data, v); err != nil {
		t.Fatalf("decode data %s: %v", r.Env.Data, err)
	}
}

// obj returns the data as a generic JSON object.
func (r response) obj(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.data(t, &m)
	return m
}

// do sends c to h, checks the exchange against the OpenAPI document and
// decodes a JSON body when there is one.
func do(t testing.TB, h http.Handler, c call) response {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req := httptest.NewRequest(c.method, c.path, body)
	req.RemoteAddr = "192.0.2.1:40000"
	if c.remote != "" {
		req.RemoteAddr = c.remote
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.header {
		if v == "-" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	sent := req.Header.Clone()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	// Every response must match the OpenAPI document (contract_test.go).
	checkContract(t, exchange{method: c.method, path: c.path, header: sent, body: []byte(c.body),
		status: res.Status, respHeader: res.Header, respBody: res.Body})
	if len(bytes.TrimSpace(res.Body)) > 0 && !strings.HasSuffix(c.path, "/openapi.json") {
		if err := json.Unmarshal(res.Body, &res.Env); err != nil {
			t.Fatalf("%s %s: body is not JSON: %v\n%s", c.method, c.path, err, res.Body)
		}
	}
	return res
}

// do sends c to the environment's handler.
func (e *testEnv) do(c call) response {
	e.t.Helper()
	return do(e.t, e.Handler, c)
}

// checkoutBody returns a valid checkout body for a property and dates.
func checkoutBody(propertyID int64, checkIn, checkOut string, extra ...string) string {
	m := map[string]any{
		"property_id": propertyID, "guest_name": "Ada Lovelace", "guest_email": "ada@example.com",
		"guest_phone": "+33612345678", "check_in": checkIn, "check_out": checkOut, "guests_count": 2,
	}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// bookings returns an organisation's bookings.
func (e *testEnv) bookings(slug string) []booking.Booking {
	e.t.Helper()
	bs, err := e.Service.Bookings(context.Background(), slug)
	if err != nil {
		e.t.Fatalf("bookings of %s: %v", slug, err)
	}
	return bs
}

// checkV1Headers fails unless a response carries the headers of every v1
// response.
func checkV1Headers(t testing.TB, name string, r response) {
	t.Helper()
	if got := r.Header.Get("X-Service-API-Version"); got != "v1" {
		t.Errorf("%s: X-Service-API-Version = %q, want v1", name, got)
	}
	if got := r.Header.Get("Content-Type"); !strings.HasPrefix(got, "application/json") {
		t.Errorf("%s: Content-Type = %q, want application/json", name, got)
	}
	if got := r.Header.Get("X-Request-ID"); got == "" {
		t.Errorf("%s: X-Request-ID missing", name)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
