package cache_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// tenant is an organisation with two properties and a coupon.
type tenant struct {
	org    *booking.Organization
	p1, p2 *booking.Property
}

func newTenant(t *testing.T, c *cache.Store, slug string) tenant {
	t.Helper()
	ctx := t.Context()
	o := &booking.Organization{Slug: slug, Name: slug, PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
	if err := c.CreateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	tn := tenant{org: o}
	for i, p := range []**booking.Property{&tn.p1, &tn.p2} {
		*p = &booking.Property{OrgID: o.ID, Name: slug + " " + strconv.Itoa(i+1), MaxGuests: 4, Active: true,
			Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
		if err := c.CreateProperty(ctx, *p); err != nil {
			t.Fatal(err)
		}
	}
	cp := &coupon.Coupon{OrgID: o.ID, Code: "SUMMER", Kind: pricing.DiscountPercent, Value: decimal.RequireFromString("10"), Active: true}
	if err := c.CreateCoupon(ctx, cp); err != nil {
		t.Fatal(err)
	}
	return tn
}

// catalogue is what the read model answers of a tenant: its name, its
// properties' names (list and one by one) and its coupon's value.
func catalogue(t *testing.T, c *cache.Store, tn tenant) []string {
	t.Helper()
	ctx := t.Context()
	o, err := c.OrganizationBySlug(ctx, tn.org.Slug)
	if err != nil {
		t.Fatal(err)
	}
	byID, err := c.OrganizationByID(ctx, tn.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{o.Name, byID.Name}
	list, err := c.Properties(ctx, tn.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list {
		out = append(out, p.Name)
	}
	for _, id := range []int64{tn.p1.ID, tn.p2.ID} {
		p, err := c.Property(ctx, tn.org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Name)
	}
	cp, err := c.CouponByCode(ctx, tn.org.ID, "SUMMER")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, cp.Value.String())
}

// renameBehind renames the tenant, its properties and its coupon's value
// in the database, behind the read model's back.
func renameBehind(t *testing.T, db *sqlite.DB, tn tenant) {
	t.Helper()
	ctx := t.Context()
	o, err := db.OrganizationByID(ctx, tn.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	o.Name += " (new)"
	if err := db.UpdateOrganization(ctx, o); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{tn.p1.ID, tn.p2.ID} {
		p, err := db.Property(ctx, tn.org.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		p.Name += " (new)"
		if err := db.UpdateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	cp, err := db.CouponByCode(ctx, tn.org.ID, "SUMMER")
	if err != nil {
		t.Fatal(err)
	}
	cp.Value = decimal.RequireFromString("20")
	if err := db.UpdateCoupon(ctx, cp); err != nil {
		t.Fatal(err)
	}
}

// stored is the tenant's organisation as stored.
func stored(ctx context.Context, t *testing.T, db *sqlite.DB, a tenant) *booking.Organization {
	t.Helper()
	o, err := db.OrganizationByID(ctx, a.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestWriteForgetsOnlyItsOrganisation: a write through the read model
// forgets what it changes — its organisation's entries, or its
// property's — and no other organisation's: both tenants are renamed
// behind the read model's back, then tenant a is written to; a's entries
// the write concerns are read again (they show every rename), b's stay
// cached (they show none).
func TestWriteForgetsOnlyItsOrganisation(t *testing.T) {
	price := decimal.RequireFromString("150")
	for _, tc := range []struct {
		name string
		// write writes to tenant a through the read model's seams.
		write func(ctx context.Context, t *testing.T, c *cache.Store, db *sqlite.DB, a tenant) error
		// property: the write concerns a.p1 alone, not the whole
		// organisation: a's name, a.p2 and the coupon stay cached.
		property bool
	}{
		{"UpdateOrganization", func(ctx context.Context, t *testing.T, c *cache.Store, db *sqlite.DB, a tenant) error {
			return c.UpdateOrganization(ctx, stored(ctx, t, db, a))
		}, false},
		{"CreateProperty", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.CreateProperty(ctx, &booking.Property{OrgID: a.org.ID, Name: "third", MaxGuests: 2})
		}, false},
		{"CreateCoupon", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.CreateCoupon(ctx, &coupon.Coupon{OrgID: a.org.ID, Code: "WINTER", Kind: pricing.DiscountPercent,
				Value: decimal.RequireFromString("5"), Active: true})
		}, false},
		{"SaveSettings of the organisation", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.SaveSettings(ctx, booking.Settings{OrgID: a.org.ID})
		}, false},
		{"a host's unit of work", func(ctx context.Context, t *testing.T, c *cache.Store, db *sqlite.DB, a tenant) error {
			return c.Units(db).Atomically(ctx, func(ctx context.Context) error {
				return c.Stores().UpdateOrganization(ctx, stored(ctx, t, db, a))
			})
		}, false},
		{"AddBlock", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.AddBlock(ctx, a.p1.ID, &booking.Block{Start: day("2026-09-01"), End: day("2026-09-03")}, start)
		}, true},
		{"ApplyCalendar", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.Stores().ApplyCalendar(ctx, a.org.ID, a.p1.ID, booking.CalendarChange{
				From: day("2026-09-01"), To: day("2026-09-02"), Price: &price}, start)
		}, true},
		{"SetCalendarDays", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.SetCalendarDays(ctx, a.p1.ID, []booking.CalendarDay{{Date: day("2026-09-01"), Price: &price}})
		}, true},
		{"SaveSettings of a property", func(ctx context.Context, _ *testing.T, c *cache.Store, _ *sqlite.DB, a tenant) error {
			return c.SaveSettings(ctx, booking.Settings{OrgID: a.org.ID, PropertyID: a.p1.ID})
		}, true},
		{"a host's unit of work on a property", func(ctx context.Context, t *testing.T, c *cache.Store, db *sqlite.DB, a tenant) error {
			return c.Units(db).Atomically(ctx, func(ctx context.Context) error {
				p, err := c.Property(ctx, a.org.ID, a.p1.ID)
				if err != nil {
					return err
				}
				p.Name = a.p1.Name + " (new)"
				return c.Stores().UpdatePropertyFields(ctx, p)
			})
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openSQLite(t)
			c := cache.New(db.Stores(), db, cache.Options{MaxAge: time.Hour})
			a, b := newTenant(t, c, "alpha"), newTenant(t, c, "beta")
			cachedA, cachedB := catalogue(t, c, a), catalogue(t, c, b)
			renameBehind(t, db, a)
			renameBehind(t, db, b)
			if got := catalogue(t, c, b); !slices.Equal(got, cachedB) {
				t.Fatalf("fixture: b renamed behind the cache reads %v, want the cached %v", got, cachedB)
			}
			if err := tc.write(t.Context(), t, c, db, a); err != nil {
				t.Fatal(err)
			}
			if got := catalogue(t, c, b); !slices.Equal(got, cachedB) {
				t.Errorf("b after a's write: %v, want its cached entries %v", got, cachedB)
			}
			got := catalogue(t, c, a)
			// catalogue: org by slug, by id, the list's names, p1, p2, coupon.
			want := []string{"alpha (new)", "alpha (new)", "alpha 1 (new)", "alpha 2 (new)", "alpha 1 (new)", "alpha 2 (new)", "20"}
			if tc.name == "CreateProperty" {
				want = []string{"alpha (new)", "alpha (new)", "alpha 1 (new)", "alpha 2 (new)", "third", "alpha 1 (new)", "alpha 2 (new)", "20"}
			}
			if tc.property {
				// The list holds p1: read again; a's row, p2 alone and
				// the coupon stay cached.
				want = []string{cachedA[0], cachedA[1], "alpha 1 (new)", "alpha 2 (new)", "alpha 1 (new)", cachedA[5], cachedA[6]}
			}
			if !slices.Equal(got, want) {
				t.Errorf("a after its write: %v, want %v", got, want)
			}
		})
	}
}

// TestReplicaMessageForgetsOnlyItsOrganisation: another replica's message
// of an organisation's write forgets that organisation's entries only; a
// message this replica cannot read forgets everything.
func TestReplicaMessageForgetsOnlyItsOrganisation(t *testing.T) {
	for _, tc := range []struct {
		name           string
		msg            func(a tenant) string
		aFresh, bFresh bool
	}{
		{"an organisation's write", func(a tenant) string { return "catalog:org:" + strconv.FormatInt(a.org.ID, 10) }, true, false},
		{"everything", func(tenant) string { return "catalog" }, true, true},
		{"a message from a newer replica", func(tenant) string { return "catalog:region:1" }, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openSQLite(t)
			c := cache.New(db.Stores(), db, cache.Options{MaxAge: time.Hour})
			a, b := newTenant(t, c, "alpha"), newTenant(t, c, "beta")
			cachedA, cachedB := catalogue(t, c, a), catalogue(t, c, b)
			renameBehind(t, db, a)
			renameBehind(t, db, b)
			c.ApplyForTest(tc.msg(a))
			if got := catalogue(t, c, a); slices.Equal(got, cachedA) == tc.aFresh {
				t.Errorf("a: %v, cached %v; want read again %v", got, cachedA, tc.aFresh)
			}
			if got := catalogue(t, c, b); slices.Equal(got, cachedB) == tc.bFresh {
				t.Errorf("b: %v, cached %v; want read again %v", got, cachedB, tc.bFresh)
			}
		})
	}
}

// TestFeedSyncForgetsOnlyItsProperty: an iCal sync forgets the occupancy
// of its feed's property, which then shows the imported block, and not
// another property's (a booking made behind the read model's back stays
// unseen there); a sync of a feed the read model never saw forgets every
// property's.
func TestFeedSyncForgetsOnlyItsProperty(t *testing.T) {
	for _, seen := range []bool{true, false} {
		t.Run("feed seen "+strconv.FormatBool(seen), func(t *testing.T) {
			ctx := t.Context()
			db := openSQLite(t)
			c := cache.New(db.Stores(), db, cache.Options{MaxAge: time.Hour})
			a := newTenant(t, c, "alpha")
			feeds := c.Feeds(db)
			creator := feed.FeedStore(db)
			if seen {
				creator = feeds
			}
			f := &feed.Feed{OrgID: a.org.ID, PropertyID: a.p1.ID, Name: "Airbnb", URL: "https://example.com/a.ics", Active: true}
			if err := creator.CreateFeed(ctx, f, start); err != nil {
				t.Fatal(err)
			}
			claimer := feed.FeedStore(db)
			if seen {
				claimer = feeds
			}
			claimed, err := claimer.ClaimFeed(ctx, a.org.ID, f.ID, start, start.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			occupied := func(p *booking.Property) []booking.Hold {
				t.Helper()
				got, err := c.Occupied(ctx, p.ID, day("2026-07-01"), day("2026-08-01"), start)
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			if len(occupied(a.p1)) != 0 || len(occupied(a.p2)) != 0 {
				t.Fatal("fixture: July free")
			}
			behind := &booking.Booking{OrgID: a.org.ID, PropertyID: a.p2.ID, Token: "behind", CheckIn: day("2026-07-10"),
				CheckOut: day("2026-07-12"), Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull, ExpiresAt: start.Add(time.Hour)}
			if err := db.CreateBooking(ctx, behind, booking.CreateOptions{Now: start}); err != nil {
				t.Fatal(err)
			}
			if _, err := feeds.ApplyFeedSync(ctx, feed.Sync{FeedID: f.ID, Lease: claimed.LeaseUntil, At: start,
				Add: []feed.Block{{UID: "x@airbnb", Start: day("2026-07-03"), End: day("2026-07-05")}}, Events: 1,
				NextPollAt: start.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			if got := occupied(a.p1); len(got) != 1 || got[0].Start != day("2026-07-03") {
				t.Errorf("the feed's property after its sync: %v, want the imported block", got)
			}
			got := occupied(a.p2)
			if seen && len(got) != 0 {
				t.Errorf("another property after the sync: %v, want its cached occupancy (free)", got)
			}
			if !seen && len(got) != 1 {
				t.Errorf("another property after the sync of an unknown feed: %v, want it read again", got)
			}
		})
	}
}

// BenchmarkReadAfterAnotherOrganisationsWrite: a host writes to its
// organisation (UpdateOrganization through the read model, not timed)
// before each read of another organisation's properties (20 of them).
func BenchmarkReadAfterAnotherOrganisationsWrite(b *testing.B) {
	ctx := b.Context()
	db := sqlitetest.Open(b)
	c := cache.New(db.Stores(), db, cache.Options{MaxAge: time.Hour})
	var orgs [2]*booking.Organization
	for i := range orgs {
		orgs[i] = &booking.Organization{Slug: "org-" + strconv.Itoa(i), Name: "Org", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
			Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
		if err := c.CreateOrganization(ctx, orgs[i]); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 20 {
		p := &booking.Property{OrgID: orgs[1].ID, Name: "Cabin " + strconv.Itoa(i), MaxGuests: 4, Active: true,
			Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
		if err := c.CreateProperty(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if err := c.UpdateOrganization(ctx, orgs[0]); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		list, err := c.Properties(ctx, orgs[1].ID)
		if err != nil || len(list) != 20 {
			b.Fatalf("%d properties, %v", len(list), err)
		}
	}
}

// A property read after its organisation's list is kept from the list,
// not read again: a rename behind the read model's back does not show,
// and the entry is the property's own (its calendar has a version once
// its per-day calendar and holds are in memory too), which a write to
// another property leaves cached. A property of another organisation is
// not served through this one's list.
func TestPropertyIsKeptFromItsOrganisationsList(t *testing.T) {
	ctx := t.Context()
	db := openSQLite(t)
	c := cache.New(db.Stores(), db, cache.Options{MaxAge: time.Hour})
	a, b := newTenant(t, c, "alpha"), newTenant(t, c, "beta")
	if _, err := c.Properties(ctx, a.org.ID); err != nil {
		t.Fatal(err)
	}
	renameBehind(t, db, a)
	p, err := c.Property(ctx, a.org.ID, a.p2.ID)
	if err != nil || p.Name != "alpha 2" {
		t.Fatalf("Property after the list: %v, %v; want the list's alpha 2", p, err)
	}
	from, to := day("2026-06-01"), day("2026-07-01")
	if _, err := c.CalendarDays(ctx, a.p2.ID, from, to); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Occupied(ctx, a.p2.ID, from, to, start); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.CalendarVersion(a.org.ID, a.p2.ID, start); !ok {
		t.Error("no calendar version for a property kept from the list")
	}
	if err := c.AddBlock(ctx, a.p1.ID, &booking.Block{Start: day("2026-09-01"), End: day("2026-09-03")}, start); err != nil {
		t.Fatal(err)
	}
	if p, err := c.Property(ctx, a.org.ID, a.p2.ID); err != nil || p.Name != "alpha 2" {
		t.Errorf("Property after a write to another property: %v, %v; want its cached alpha 2", p, err)
	}
	if p, err := c.Property(ctx, a.org.ID, a.p1.ID); err != nil || p.Name != "alpha 1 (new)" {
		t.Errorf("the property written: %v, %v; want alpha 1 (new), read again", p, err)
	}
	if _, err := c.Property(ctx, a.org.ID, b.p1.ID); booking.ErrorCode(err) != booking.CodeNotFound {
		t.Errorf("another organisation's property through this one: %v, want not_found", err)
	}
}
