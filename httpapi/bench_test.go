package httpapi_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/store/cache"
)

// benchGet measures one GET through the handler.
func benchGet(b *testing.B, path string) {
	e := newTestEnv(b)
	path = e.expand(path)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		e.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

func BenchmarkConfig(b *testing.B) { benchGet(b, villa) }

func BenchmarkProperties(b *testing.B) { benchGet(b, villa+"/properties") }

func BenchmarkAvailability12Months(b *testing.B) {
	benchGet(b, villa+"/properties/{soleil}/availability")
}

func BenchmarkPrice(b *testing.B) {
	benchGet(b, villa+"/properties/{soleil}/price?"+stayQuery+"&coupon_code=WELCOME10")
}

// BenchmarkPrice7Nights is the quote of the load harness (examples/loadtest).
func BenchmarkPrice7Nights(b *testing.B) {
	benchGet(b, villa+"/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-17&guests_count=2&coupon_code=WELCOME10")
}

// BenchmarkCheckout books one night after another at cabane (no minimum
// stay), each a new booking with its payment intent; the clock moves on
// before the stays reach the booking horizon.
func BenchmarkCheckout(b *testing.B) {
	e := newTestEnv(b, withLimits(map[string]ratelimit.Limit{"checkout": {}}))
	start := day("2026-06-01")
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if i > 0 && i%600 == 0 {
			// Past the booking horizon: move today on.
			e.Clock.Advance(600 * 24 * time.Hour)
		}
		in := start.AddDays(i)
		body := checkoutBody(e.Props["cabane"], in.String(), in.AddDays(1).String())
		i++
		req := httptest.NewRequest(http.MethodPost, villa+"/checkout", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("checkout %d: %d %s", i, rec.Code, rec.Body)
		}
	}
}

// benchGetReadModel measures one GET through the handler over the read
// model (store/cache), as the reference server runs it.
func benchGetReadModel(b *testing.B, path string) {
	e := newTestEnv(b)
	h := readModelHandler(e, nil)
	path = e.expand(path)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

func BenchmarkConfigReadModel(b *testing.B) { benchGetReadModel(b, villa) }

func BenchmarkPropertiesReadModel(b *testing.B) { benchGetReadModel(b, villa+"/properties") }

func BenchmarkAvailability12MonthsReadModel(b *testing.B) {
	benchGetReadModel(b, villa+"/properties/{soleil}/availability")
}

func BenchmarkPrice7NightsReadModel(b *testing.B) {
	benchGetReadModel(b, villa+"/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-17&guests_count=2&coupon_code=WELCOME10")
}

// readModelHandler is the handler of e's service over the read model.
func readModelHandler(e *testEnv, limits map[string]ratelimit.Limit) http.Handler {
	stores := cache.New(e.Store.Stores(), e.Store, cache.Options{}).Stores()
	svc := booking.NewService(booking.Options{Stores: stores, Payments: e.Pay, Clock: e.Clock})
	pay := money.New(svc, money.Options{Store: stores, Payments: e.Pay, Clock: e.Clock})
	return httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: slog.New(slog.DiscardHandler), Limits: limits})
}

// BenchmarkCheckoutReadModel is BenchmarkCheckout over the read model, as
// the reference server runs it.
func BenchmarkCheckoutReadModel(b *testing.B) {
	e := newTestEnv(b)
	h := readModelHandler(e, map[string]ratelimit.Limit{"checkout": {}})
	start := day("2026-06-01")
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if i > 0 && i%600 == 0 {
			e.Clock.Advance(600 * 24 * time.Hour)
		}
		in := start.AddDays(i)
		body := checkoutBody(e.Props["cabane"], in.String(), in.AddDays(1).String())
		i++
		req := httptest.NewRequest(http.MethodPost, villa+"/checkout", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("checkout %d: %d %s", i, rec.Code, rec.Body)
		}
	}
}

// benchProperties1000 measures GET path (the properties list of villa
// with 1,000 more properties) through the handler over the read model.
func benchProperties1000(b *testing.B, path string) {
	e := newTestEnv(b)
	org, err := e.Store.OrganizationBySlug(b.Context(), "villa")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		p := booking.Property{OrgID: org.ID, Name: "Extra " + strconv.Itoa(i), Description: "A house by the sea, with a garden.",
			City: "Nice", Country: "FR", MaxGuests: 4, Bedrooms: 2, Active: true, Rates: pricing.RatePlan{BaseRate: dec("90")}}
		if err := e.Store.CreateProperty(b.Context(), &p); err != nil {
			b.Fatal(err)
		}
	}
	h := readModelHandler(e, nil)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}

// BenchmarkProperties1000ReadModel is the whole list of 1,002 properties.
func BenchmarkProperties1000ReadModel(b *testing.B) { benchProperties1000(b, villa+"/properties") }

// BenchmarkProperties1000Page50ReadModel is its first page of 50.
func BenchmarkProperties1000Page50ReadModel(b *testing.B) {
	benchProperties1000(b, villa+"/properties?limit=50")
}

// BenchmarkPrice7NightsReadModelNoCoupon is the quote of the load harness
// (examples/loadtest, no coupon) over the read model: kept once computed
// (quotes.go).
func BenchmarkPrice7NightsReadModelNoCoupon(b *testing.B) {
	benchGetReadModel(b, villa+"/properties/{soleil}/price?check_in=2026-06-10&check_out=2026-06-17&guests_count=2")
}
