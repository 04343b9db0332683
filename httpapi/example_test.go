package httpapi_test

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
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder mounts the public booking API on its own mux, beside its
// own routes, and a guest's browser (or curl) reaches it at
// /api/v1/book/{org_slug}/...
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
	pay := money.New(svc, money.Options{Store: db.Stores(), Payments: payments, Logger: logger})

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "the host's home page") })
	mux.Handle("/api/", httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: logger}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	res, err := http.Get(srv.URL + "/api/v1/book/lac/properties")
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Data []struct {
			Name      string `json:"name"`
			MaxGuests int    `json:"max_guests"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status)
	for _, p := range body.Data {
		fmt.Println(p.Name, "for up to", p.MaxGuests, "guests")
	}
	// Output:
	// 200 OK
	// Gîte du Lac for up to 4 guests
}
