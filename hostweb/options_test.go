package hostweb_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostweb"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestNewWithoutLimiter: a dashboard built without a Limiter counts
// sign-in attempts in memory; a wrong password is refused, not a panic,
// and the limit still closes in.
func TestNewWithoutLimiter(t *testing.T) {
	db := sqlitetest.Open(t)
	logger := slog.New(slog.DiscardHandler)
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New(), Logger: logger})
	dash := hostweb.New(hostweb.Options{Host: host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Logger: logger})})

	var codes []int
	for range 12 {
		form := url.Values{"email": {"host@example.com"}, "password": {"not the password"}}
		r := httptest.NewRequest(http.MethodPost, "/host/login?lang=en", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		dash.ServeHTTP(rec, r)
		codes = append(codes, rec.Code)
	}
	if codes[0] != http.StatusUnauthorized {
		t.Errorf("first wrong password: %d, want 401", codes[0])
	}
	if last := codes[len(codes)-1]; last != http.StatusTooManyRequests {
		t.Errorf("twelfth wrong password: %d, want 429 (the in-memory limiter counts); all: %v", last, codes)
	}
}

// TestNewWithoutHost: the dashboard cannot work without the host use
// cases; New says so at once rather than failing on the first request.
func TestNewWithoutHost(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "Options.Host") {
			t.Errorf("New without Host: recovered %v, want a panic naming Options.Host", r)
		}
	}()
	hostweb.New(hostweb.Options{})
}
