package sqlite_test

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite"
)

// TestHotQueriesArePrepared runs every read of the public API and the
// checkout transaction, on a file and in memory (one connection, where
// statements prepared on the pool must also serve its transactions), and
// expects each query to have found its prepared statement.
func TestHotQueriesArePrepared(t *testing.T) {
	for _, path := range []string{"file", ":memory:"} {
		t.Run(path, func(t *testing.T) {
			var db *sqlite.DB
			if path == "file" {
				db = open(t)
			} else {
				db = openAt(t, path)
			}
			ctx := t.Context()
			org, prop := newCabin(t, db)
			c := &coupon.Coupon{OrgID: org.ID, Code: "WELCOME10", Label: "Welcome", Kind: pricing.DiscountPercent,
				Value: decimal.NewFromInt(10), Active: true, MaxRedemptions: 5}
			if err := db.CreateCoupon(ctx, c); err != nil {
				t.Fatal(err)
			}
			in := civil.MustParse("2026-05-01")
			b := &booking.Booking{OrgID: org.ID, PropertyID: prop.ID, Token: "tok", CheckIn: in, CheckOut: in.AddDays(2),
				Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull, CouponID: c.ID, ExpiresAt: now.Add(30 * time.Minute)}
			key := booking.IdempotencyRecord{OrgID: org.ID, Scope: "checkout", Key: "k1", RequestHash: "h", CreatedAt: now}
			if err := db.CreateBooking(ctx, b, booking.CreateOptions{Now: now, MaxRedemptions: 5, Idempotency: key}); err != nil {
				t.Fatal(err)
			}
			if err := db.SetPaymentIntent(ctx, b.ID, "pi_1", "pi_1_secret_x"); err != nil {
				t.Fatal(err)
			}
			other := key
			other.Key = "k2"
			if _, err := db.SaveIdempotencyRecord(ctx, &other, now.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}

			calls := []struct {
				name string
				call func() error
			}{
				{"OrganizationBySlug", func() error { _, err := db.OrganizationBySlug(ctx, "villa"); return err }},
				{"OrganizationByID", func() error { _, err := db.OrganizationByID(ctx, org.ID); return err }},
				{"Property", func() error { _, err := db.Property(ctx, org.ID, prop.ID); return err }},
				{"Properties", func() error { _, err := db.Properties(ctx, org.ID); return err }},
				{"Occupied", func() error {
					r, err := db.Occupied(ctx, prop.ID, in, in.AddDays(30), now)
					if err == nil && len(r) != 1 {
						t.Errorf("Occupied = %v, want the booking", r)
					}
					return err
				}},
				{"BookingByToken", func() error { _, err := db.BookingByToken(ctx, org.ID, "tok"); return err }},
				{"CouponByCode", func() error { _, err := db.CouponByCode(ctx, org.ID, "welcome10"); return err }},
				{"CouponRedemptions", func() error {
					n, err := db.CouponRedemptions(ctx, c.ID, now)
					if err == nil && n != 1 {
						t.Errorf("CouponRedemptions = %d, want 1", n)
					}
					return err
				}},
				{"IdempotencyRecord", func() error {
					_, err := db.IdempotencyRecord(ctx, org.ID, "checkout", "k1", now.Add(-time.Hour))
					return err
				}},
				{"CalendarDays", func() error { _, err := db.CalendarDays(ctx, prop.ID, in, in.AddDays(30)); return err }},
				{"Settings", func() error {
					_, err := db.Settings(ctx, org.ID, prop.ID)
					if booking.ErrorCode(err) == booking.CodeNotFound {
						return nil
					}
					return err
				}},
				{"Terms", func() error {
					_, err := db.Terms(ctx, b.ID)
					if booking.ErrorCode(err) == booking.CodeNotFound {
						return nil
					}
					return err
				}},
			}
			for _, c := range calls {
				if err := c.call(); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
			}
			if n := sqlite.UnpreparedForTest(db); n != 0 {
				t.Errorf("%d hot queries ran unprepared", n)
			}
		})
	}
}

// TestPropertiesLoadsEachPropertysOwnBlocks: blocks, loaded for the whole
// organisation at once, land on their property, by start, and another
// organisation's never appear.
func TestPropertiesLoadsEachPropertysOwnBlocks(t *testing.T) {
	db := open(t)
	ctx := t.Context()
	org, cabin := newCabin(t, db)
	other := &booking.Organization{Slug: "other", Name: "Other", PaymentMode: pricing.ModeFull,
		DefaultLocale: "fr", Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(ctx, other); err != nil {
		t.Fatal(err)
	}
	block := func(start string, nights int, reason string) booking.Block {
		d := civil.MustParse(start)
		return booking.Block{Start: d, End: d.AddDays(nights), Reason: reason}
	}
	newProp := func(orgID int64, name string, blocks ...booking.Block) *booking.Property {
		p := &booking.Property{OrgID: orgID, Name: name, MaxGuests: 2,
			Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}, Blocks: blocks}
		if err := db.CreateProperty(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	barn := newProp(org.ID, "Barn", block("2026-07-10", 3, "late"), block("2026-06-01", 2, "early"))
	newProp(other.ID, "Elsewhere", block("2026-06-05", 2, "not ours"))
	loft := newProp(org.ID, "Loft", block("2026-08-01", 7, "loft"))

	list, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64][]string{cabin.ID: nil, barn.ID: {"early", "late"}, loft.ID: {"loft"}}
	if len(list) != len(want) {
		t.Fatalf("Properties listed %d, want %d", len(list), len(want))
	}
	for _, p := range list {
		var got []string
		for _, b := range p.Blocks {
			got = append(got, b.Reason)
		}
		if !slices.Equal(got, want[p.ID]) {
			t.Errorf("property %q: blocks %v, want %v", p.Name, got, want[p.ID])
		}
		one, err := db.Property(ctx, org.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one.Blocks, p.Blocks) {
			t.Errorf("property %q: Properties gives blocks %v, Property %v", p.Name, p.Blocks, one.Blocks)
		}
	}
}
