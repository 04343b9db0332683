package bookingpage_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/bookingpage"
)

// catalogue stands for the store (store/sqlite, store/postgres, or the
// read model over them): AppConfig lists its organisations.
type catalogue []booking.Organization

func (c catalogue) Organizations(context.Context) ([]booking.Organization, error) { return c, nil }

// A host without its own site serves the booking page at / beside the
// public API (httpapi, at /api/); here with fake payments (no Stripe key).
func Example() {
	orgs := catalogue{
		{Slug: "lac", Name: "Gîtes du Lac", DefaultLocale: "fr", PaymentMode: "full", PublicEngineEnabled: true},
		{Slug: "draft", Name: "Not open yet", PublicEngineEnabled: false},
	}
	mux := http.NewServeMux()
	mux.Handle("GET /app-config.json", bookingpage.AppConfig(orgs, ""))
	mux.Handle("GET /widget.js", bookingpage.Widget(""))
	mux.Handle("/", bookingpage.Handler(false))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, path := range []string{"/", "/widget.js"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		res.Body.Close()
		fmt.Println(path, res.StatusCode, res.Header.Get("Content-Type"))
	}
	res, err := http.Get(srv.URL + "/app-config.json")
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	var cfg struct {
		Payments      string `json:"payments"`
		Organizations []struct {
			Slug string `json:"slug"`
		} `json:"organizations"`
	}
	if err := json.NewDecoder(res.Body).Decode(&cfg); err != nil {
		log.Fatal(err)
	}
	fmt.Println("payments:", cfg.Payments, "organisations:", len(cfg.Organizations), cfg.Organizations[0].Slug)
	// Output:
	// / 200 text/html; charset=utf-8
	// /widget.js 200 text/javascript; charset=utf-8
	// payments: fake organisations: 1 lac
}
