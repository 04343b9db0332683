package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
)

// TestPropertiesListKeptPerVersion: over the read model the properties
// list is encoded once per version of the catalogue and day, and every
// change shows at once: after each write through the read model, and on
// the next day, each page is byte for byte what a handler without the
// read model answers. A write behind the read model's back shows only
// once it is read again (it is kept meanwhile).
func TestPropertiesListKeptPerVersion(t *testing.T) {
	ctx := context.Background()
	e := newTestEnv(t)
	rm := cache.New(e.Store.Stores(), e.Store, cache.Options{MaxAge: time.Hour})
	svc := booking.NewService(booking.Options{Stores: rm.Stores(), Payments: e.Pay, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Logger: discardLogger(),
		Money: money.New(svc, money.Options{Store: rm.Stores(), Payments: e.Pay, Clock: e.Clock})})
	org, err := rm.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	cabane := strconv.FormatInt(e.Props["cabane"], 10)
	pages := []string{"", "?limit=1", "?limit=1&cursor=" + strconv.FormatInt(e.Props["soleil"], 10), "?cursor=1"}
	list := func(h http.Handler, q string) string {
		t.Helper()
		r := do(t, h, call{method: "GET", path: "/api/v1/book/villa/properties" + q})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
		return string(r.Body)
	}
	same := func(step string) {
		t.Helper()
		// Other routes between: the lists kept never share a buffer
		// with them.
		for range 3 {
			do(t, h, call{method: "GET", path: "/api/v1/book/villa/properties/" + cabane + "/availability"})
		}
		for _, q := range pages {
			for range 2 {
				if got, want := list(h, q), list(e.Handler, q); got != want {
					t.Fatalf("%s, page %q:\nread model %s\nstore      %s", step, q, got, want)
				}
			}
		}
	}
	same("first")

	p, err := rm.Property(ctx, org.ID, e.Props["cabane"])
	if err != nil {
		t.Fatal(err)
	}
	p.Name = "Cabane perchée"
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	same("after a property's write")

	// A price of today only: price_from is of today, then of tomorrow.
	p.Rates.Overrides = append(p.Rates.Overrides, pricing.DateOverride{Date: day("2026-05-01"), Price: dec("20")})
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	same("with a price of today")
	e.Clock.Advance(24 * time.Hour)
	same("the next day")

	org.MinStayNights = intp(3)
	if err := rm.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	same("after the organisation's write")

	added := &booking.Property{OrgID: org.ID, Name: "Grange", MaxGuests: 2, Active: true, Rates: pricing.RatePlan{BaseRate: dec("70")}}
	if err := rm.CreateProperty(ctx, added); err != nil {
		t.Fatal(err)
	}
	same("after a property was added")

	// Behind its back: the list kept stays until the read model reads
	// again (else nothing was kept, and the rest proved nothing).
	before := list(h, "")
	added.Name = "Grange neuve"
	if err := e.Store.UpdateProperty(ctx, added); err != nil {
		t.Fatal(err)
	}
	if got := list(h, ""); got != before {
		t.Errorf("a write behind the read model's back shows before it reads again:\n%s", got)
	}
}
