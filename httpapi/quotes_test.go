package httpapi_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
)

// quoteAsked is a quote request: its path and Accept-Language.
type quoteAsked struct{ path, lang string }

// TestQuoteKeptPerVersion: over the read model a quote is computed and
// encoded once per version of what it is computed from, and every change
// shows at once: after a booking of its dates (and its hold's lapse), a
// block, a calendar price, a rate change, an iCal import, the
// cancellation policy, the same-day cutoff, local midnight, the
// organisation's payment mode, and a coupon's last redemption taken by
// another guest at another property — with the read model's entries still
// fresh (an hour), so only the version explains a change — each quote
// (and each refusal) is byte for byte what a handler without the read
// model answers. A write behind the read model's back shows only once it
// reads again (the quote is kept meanwhile).
func TestQuoteKeptPerVersion(t *testing.T) {
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
	cabaneID, soleilID := e.Props["cabane"], e.Props["soleil"]
	quote := func(id int64, in, out string, rest string) string {
		return "/api/v1/book/villa/properties/" + strconv.FormatInt(id, 10) + "/price?check_in=" + in +
			"&check_out=" + out + "&guests_count=2" + rest
	}
	asked := []quoteAsked{
		{quote(cabaneID, "2026-05-10", "2026-05-13", ""), ""},   // booked
		{quote(cabaneID, "2026-05-20", "2026-05-23", ""), ""},   // blocked
		{quote(cabaneID, "2026-05-24", "2026-05-28", ""), "en"}, // a calendar price
		{quote(cabaneID, "2026-05-24", "2026-05-28", ""), "fr"},
		{quote(cabaneID, "2026-06-02", "2026-06-06", ""), ""}, // an iCal import
		{quote(soleilID, "2026-06-10", "2026-06-17", "&adults=1&children=1"), ""},
		{quote(cabaneID, "2026-07-01", "2026-07-03", "&coupon_code=LAST1"), ""},
	}
	get := func(h http.Handler, a quoteAsked) response {
		t.Helper()
		hdr := map[string]string{}
		if a.lang != "" {
			hdr["Accept-Language"] = a.lang
		}
		return do(t, h, call{method: "GET", path: a.path, header: hdr})
	}
	// answer is what matters of a response: a quote's bytes, a refusal's
	// status and code.
	answer := func(r response) string {
		if r.Status == http.StatusOK {
			return string(r.Body)
		}
		return strconv.Itoa(r.Status) + " " + r.Env.Code
	}
	// same compares every quote with the store's, twice (the second from
	// what the first kept), and returns the store's answers.
	same := func(step string) []string {
		t.Helper()
		var out []string
		for _, a := range asked {
			want := answer(get(e.Handler, a))
			for range 2 {
				if got := answer(get(h, a)); got != want {
					t.Fatalf("%s, %s (%s):\nread model %s\nstore      %s", step, a.path, a.lang, got, want)
				}
			}
			out = append(out, want)
		}
		return out
	}
	// changed: the step changed quote i (else it proved nothing).
	changed := func(step string, i int, before, after []string) {
		t.Helper()
		if before[i] == after[i] {
			t.Fatalf("fixture: %s did not change quote %d: %s", step, i, after[i])
		}
	}
	first := same("first")
	if first[0][0] != '{' || first[6] != "422 coupon_not_found" {
		t.Fatalf("fixture: at first %q, %q", first[0], first[6])
	}

	// A checkout holds the nights until its hold lapses.
	if r := do(t, h, call{method: "POST", path: "/api/v1/book/villa/checkout",
		body: checkoutBody(cabaneID, "2026-05-10", "2026-05-13")}); r.Status != 201 {
		t.Fatalf("checkout: %d %s", r.Status, r.Body)
	}
	held := same("after a checkout")
	changed("the checkout", 0, first, held)
	e.Clock.Advance(10 * time.Minute)
	same("within the hold")
	e.Clock.Advance(time.Duration(org.HoldMinutes) * time.Minute)
	changed("the hold's lapse", 0, held, same("after the hold lapsed"))

	// A block, a price of the host's calendar, the rate plan.
	before := same("before the block")
	if err := rm.AddBlock(ctx, cabaneID, &booking.Block{Start: day("2026-05-21"), End: day("2026-05-22")}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	after := same("after a block")
	changed("the block", 1, before, after)
	price := dec("95")
	if err := rm.Stores().ApplyCalendar(ctx, org.ID, cabaneID, booking.CalendarChange{
		From: day("2026-05-25"), To: day("2026-05-27"), Price: &price}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after a price of the calendar")
	changed("the calendar's price", 2, before, after)
	changed("the calendar's price", 3, before, after)
	if after[2] == after[3] {
		t.Fatal("the quotes in English and French are the same")
	}
	p, err := rm.Property(ctx, org.ID, cabaneID)
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.BaseRate = dec("85")
	p.Rates.LastMinute = &pricing.TimedDiscount{Days: 3, Percent: dec("10")}
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after the rate plan's change")
	changed("the rate plan", 4, before, after)

	// An iCal import.
	feeds := rm.Feeds(e.Store.DB)
	f := &feed.Feed{OrgID: org.ID, PropertyID: cabaneID, Name: "Airbnb", URL: "https://example.com/a.ics", Active: true}
	if err := feeds.CreateFeed(ctx, f, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	claimed, err := feeds.ClaimFeed(ctx, org.ID, f.ID, e.Clock.Now(), e.Clock.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := feeds.ApplyFeedSync(ctx, feed.Sync{FeedID: f.ID, Lease: claimed.LeaseUntil, At: e.Clock.Now(),
		Add: []feed.Block{{UID: "x@airbnb", Start: day("2026-06-03"), End: day("2026-06-05")}}, Events: 1,
		NextPollAt: e.Clock.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after an iCal import")
	changed("the iCal import", 4, before, after)

	// The cancellation policy of the property (its settings).
	strict, err := policy.Preset(policy.Strict)
	if err != nil {
		t.Fatal(err)
	}
	if err := rm.Stores().SaveSettings(ctx, booking.Settings{OrgID: org.ID, PropertyID: soleilID, Policy: &strict}); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after the property's cancellation policy")
	changed("the cancellation policy", 5, before, after)

	// The same-day cutoff: arrivals today until 14:00 in Paris.
	now := e.Clock.Now().In(org.Location())
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	date := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
	asked = append(asked, quoteAsked{quote(cabaneID, date(0), date(2), ""), ""})
	p, err = rm.Property(ctx, org.ID, cabaneID)
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.Rules.SameDayCutoffHour = intp(14)
	if err := rm.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
	if h := now.Hour(); h != 12 {
		t.Fatalf("fixture: %d:00 in Paris, want 12:00", h)
	}
	before = same("before the cutoff")
	e.Clock.Advance(time.Hour)
	same("an hour before the cutoff")
	e.Clock.Advance(time.Hour)
	after = same("after the cutoff")
	changed("the cutoff", 7, before, after)

	// Local midnight: the last-minute discount reaches a stay 4 days on.
	asked = append(asked, quoteAsked{quote(cabaneID, date(4), date(6), ""), ""})
	n := e.Clock.Now()
	midnight := time.Date(n.Year(), n.Month(), n.Day()+1, 0, 0, 0, 0, org.Location())
	e.Clock.Advance(midnight.Sub(n) - time.Minute)
	before = same("a minute before midnight")
	e.Clock.Advance(2 * time.Minute)
	after = same("a minute after midnight")
	changed("midnight", 8, before, after)

	// The organisation's payment mode.
	org.PaymentMode, org.DepositPercent = pricing.ModeDeposit, dec("30")
	if err := rm.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	before, after = after, same("after the organisation's write")
	changed("the organisation's payment mode", 5, before, after)

	// A coupon's last redemption, taken by another guest at another
	// property: its quote is refused at once.
	if err := e.Store.CreateCoupon(ctx, &coupon.Coupon{OrgID: org.ID, Code: "LAST1", Kind: pricing.DiscountPercent,
		Value: dec("5"), Active: true, MaxRedemptions: 1}); err != nil {
		t.Fatal(err)
	}
	before = same("with a coupon of one redemption")
	if before[6][0] != '{' {
		t.Fatalf("fixture: the coupon's quote is refused: %s", before[6])
	}
	if r := do(t, h, call{method: "POST", path: "/api/v1/book/villa/checkout",
		body: checkoutBody(soleilID, "2026-07-10", "2026-07-12", "coupon_code", "LAST1")}); r.Status != 201 {
		t.Fatalf("checkout with the coupon: %d %s", r.Status, r.Body)
	}
	after = same("after the coupon's last redemption")
	if want := "422 " + coupon.CodeExhausted; after[6] != want && after[6][4:] != coupon.CodeExhausted {
		t.Fatalf("the coupon's quote after its last redemption: %s, want %s", after[6], want)
	}

	// Behind its back: the quote kept stays until the read model reads
	// again (else nothing was kept, and the rest proved nothing).
	a := asked[5]
	kept := get(h, a)
	if err := e.Store.DB.AddBlock(ctx, soleilID, &booking.Block{Start: day("2026-06-12"), End: day("2026-06-13")}, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	if got := get(h, a); string(got.Body) != string(kept.Body) {
		t.Errorf("a write behind the read model's back shows before it reads again:\n%s", got.Body)
	}
	if got := answer(get(e.Handler, a)); got == string(kept.Body) {
		t.Error("fixture: the block behind the read model's back changed nothing")
	}
}

// sameDayFlag is a SameDayGuard refusing today's arrivals while set.
type sameDayFlag struct{ refuse atomic.Bool }

func (g *sameDayFlag) AllowArrivalToday(context.Context, *booking.Organization, int64, time.Time) error {
	if g.refuse.Load() {
		return &booking.Error{Code: booking.CodeUnavailable, Message: "No arrival today."}
	}
	return nil
}

// TestQuoteTodayNotKeptWithSameDayGuard: a quote arriving today, which a
// SameDayGuard decides from outside the read model, is computed every
// time; the quote of another day is still kept (?locale= and
// Accept-Language apart).
func TestQuoteTodayNotKeptWithSameDayGuard(t *testing.T) {
	e := newTestEnv(t)
	guard := &sameDayFlag{}
	rm := cache.New(e.Store.Stores(), e.Store, cache.Options{MaxAge: time.Hour})
	svc := booking.NewService(booking.Options{Stores: rm.Stores(), Payments: e.Pay, Clock: e.Clock, SameDay: guard})
	h := httpapi.New(httpapi.Options{Service: svc, Logger: discardLogger(),
		Money: money.New(svc, money.Options{Store: rm.Stores(), Payments: e.Pay, Clock: e.Clock})})
	base := "/api/v1/book/villa/properties/" + strconv.FormatInt(e.Props["cabane"], 10) + "/price?guests_count=2"
	today := base + "&check_in=2026-05-01&check_out=2026-05-03"
	later := base + "&check_in=2026-05-05&check_out=2026-05-07"
	for i := range 2 {
		if r := do(t, h, call{method: "GET", path: today}); r.Status != 200 {
			t.Fatalf("today, %d: %d %s", i, r.Status, r.Body)
		}
	}
	en := do(t, h, call{method: "GET", path: later + "&locale=en"})
	fr := do(t, h, call{method: "GET", path: later, header: map[string]string{"Accept-Language": "fr"}})
	if en.Status != 200 || fr.Status != 200 || string(en.Body) == string(fr.Body) {
		t.Fatalf("later: %d, %d; English and French the same: %v", en.Status, fr.Status, string(en.Body) == string(fr.Body))
	}
	guard.refuse.Store(true)
	if r := do(t, h, call{method: "GET", path: today}); r.Status != 422 || r.Env.Code != booking.CodeUnavailable {
		t.Fatalf("today once the guard refuses: %d %s, want 422 unavailable", r.Status, r.Body)
	}
	if r := do(t, h, call{method: "GET", path: later + "&locale=en"}); r.Status != 200 || string(r.Body) != string(en.Body) {
		t.Fatalf("later, in English: %d %s", r.Status, r.Body)
	}
}
