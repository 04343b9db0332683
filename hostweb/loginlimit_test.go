package hostweb

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/ratelimit"
)

// waitingUsers is a store of the host's records whose user lookups wait
// for release.
type waitingUsers struct {
	host.Store
	release chan struct{}
}

// noCatalog is a catalogue the test never reaches.
type noCatalog struct{ booking.CatalogStore }

func (s *waitingUsers) HostUserByEmail(context.Context, string) (*host.User, error) {
	<-s.release
	return nil, booking.Errorf(booking.CodeNotFound, "No such user.")
}

// TestDashboardLoginBusy: while as many logins as the host service hashes
// at once are under way, one more is answered 503 with Retry-After at
// once.
func TestDashboardLoginBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &waitingUsers{release: make(chan struct{})}
		hs := host.New(host.Options{Stores: host.Stores{Records: store}, MaxConcurrentHashes: 1,
			Bookings: booking.NewService(booking.Options{Stores: booking.Stores{CatalogStore: noCatalog{}}, Payments: paymenttest.New()})})
		h := New(Options{Host: hs, Logger: slog.New(slog.DiscardHandler), Limiter: ratelimit.NewMemory(ratelimit.MemoryOptions{})})
		post := func() *httptest.ResponseRecorder {
			form := url.Values{"email": {"host@example.com"}, "password": {"a long enough password"}}
			r := httptest.NewRequest(http.MethodPost, "/host/login?lang=en", strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			return rec
		}
		first := make(chan *httptest.ResponseRecorder, 1)
		go func() { first <- post() }()
		synctest.Wait() // the first login holds the only hash slot
		busy := post()
		if busy.Code != http.StatusServiceUnavailable || busy.Header().Get("Retry-After") != "1" ||
			!strings.Contains(busy.Body.String(), "The server is busy") {
			t.Errorf("login while another hashes: %d, Retry-After %q\n%s", busy.Code, busy.Header().Get("Retry-After"), busy.Body)
		}
		close(store.release)
		if rec := <-first; rec.Code != http.StatusUnauthorized {
			t.Errorf("first login: %d, want 401", rec.Code)
		}
	})
}
