package hostweb_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/hostweb"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder mounts the dashboard at /host/ and the host API beside it
// with the dashboard's Session hook: a host signs in once, and the
// dashboard's page calls the host API with its session cookie.
func ExampleNew() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "staykit-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "staykit.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	const catalogue = `{"organizations": [{"slug": "lac", "name": "Gîtes du Lac",
	  "payment_mode": "full", "currency": "EUR", "timezone": "Europe/Paris", "public_engine_enabled": true,
	  "properties": [{"name": "Gîte du Lac", "max_guests": 4, "rates": {"base_rate": 110}}]}]}`
	if err := seed.Load(ctx, db, strings.NewReader(catalogue), time.Now()); err != nil {
		log.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	payments := paymenttest.New()
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: payments, Logger: logger})
	// The money service sends what the host's cancellations and deposit
	// claims record.
	money.New(svc, money.Options{Store: db.Stores(), Payments: payments, Logger: logger})
	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Logger: logger})

	// The limiter counts failed sign-ins (ratelimit/redislimit to share it
	// between replicas).
	limiter := ratelimit.NewMemory(ratelimit.MemoryOptions{})
	dash := hostweb.New(hostweb.Options{Host: hs, Logger: logger, Limiter: limiter})
	mux := http.NewServeMux()
	mux.Handle("/host/", dash)
	mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: hs, Logger: logger, Limiter: limiter, Session: dash.Session}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// The host's first user (or `staykit user create`).
	org, err := hs.Organization(ctx, "lac")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := hs.CreateUser(ctx, org, "host@example.com", "a long secret phrase", host.Actor{Kind: "user", Name: "example"}); err != nil {
		log.Fatal(err)
	}

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := browser.PostForm(srv.URL+"/host/login", url.Values{"email": {"host@example.com"}, "password": {"a long secret phrase"}})
	if err != nil {
		log.Fatal(err)
	}
	res.Body.Close()
	fmt.Println("sign-in:", res.Status)

	res, err = browser.Get(srv.URL + hostapi.Prefix + "lac/settings")
	if err != nil {
		log.Fatal(err)
	}
	res.Body.Close()
	fmt.Println("host API with the session:", res.Status)
	// Output:
	// sign-in: 303 See Other
	// host API with the session: 200 OK
}
