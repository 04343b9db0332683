package hostapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder builds the host use cases over its store and booking
// service and mounts the host API at hostapi.Prefix. A host's program
// (a PMS, a script) calls it with an API key of its organisation, created
// once (host.Service.CreateAPIKey, or `staykit apikey create`).
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

	mux := http.NewServeMux()
	mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: hs, Logger: logger}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	org, err := hs.Organization(ctx, "lac")
	if err != nil {
		log.Fatal(err)
	}
	key, _, err := hs.CreateAPIKey(ctx, org, "my PMS", host.Actor{Kind: "user", Name: "example"})
	if err != nil {
		log.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+hostapi.Prefix+"lac/properties", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Data struct {
			Items []struct {
				Name string `json:"name"`
			} `json:"items"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, len(body.Data.Items), "property:", body.Data.Items[0].Name)

	res, err = http.Get(srv.URL + hostapi.Prefix + "lac/properties") // no key
	if err != nil {
		log.Fatal(err)
	}
	res.Body.Close()
	fmt.Println(res.Status)
	// Output:
	// 200 OK 1 property: Gîte du Lac
	// 401 Unauthorized
}
