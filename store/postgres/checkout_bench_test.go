package postgres_test

import (
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/postgres"
)

// BenchmarkCreateBooking is a checkout's one write, one call of
// staykit_create_booking: one-night stays of a property, one after the
// other, each on free nights (issue #31 cares for checkout throughput;
// issue #27 chose the unit inside it).
func BenchmarkCreateBooking(b *testing.B) {
	db, org, props := benchProperties(b, 1)
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	first := civil.MustParse("2027-01-01")
	i := 0
	for b.Loop() {
		in := first.AddDays(i)
		bk := &booking.Booking{OrgID: org, PropertyID: props[0], Token: "bench-" + strconv.Itoa(i), CheckIn: in, CheckOut: in.AddDays(1),
			Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull, TotalAmount: decimal.NewFromInt(80), ExpiresAt: now.Add(time.Hour)}
		if err := db.CreateBooking(b.Context(), bk, booking.CreateOptions{Now: now}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCreateBookingParallel is CreateBooking from 16 goroutines, on
// 2 properties (as the load harness's demo organisation had) or on 32:
// writers of one property take turns on its row lock, and those that
// wait together are sent in one batch (pipeline).
func BenchmarkCreateBookingParallel(b *testing.B) {
	for _, n := range []int{2, 32} {
		b.Run(strconv.Itoa(n)+"props", func(b *testing.B) {
			db, org, props := benchProperties(b, n)
			now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
			first := civil.MustParse("2027-01-01")
			var next atomic.Int64
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := int(next.Add(1) - 1)
					in := first.AddDays(i / n)
					bk := &booking.Booking{OrgID: org, PropertyID: props[i%n], Token: "bench-" + strconv.Itoa(i), CheckIn: in, CheckOut: in.AddDays(1),
						Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull, TotalAmount: decimal.NewFromInt(80), ExpiresAt: now.Add(time.Hour)}
					if err := db.CreateBooking(b.Context(), bk, booking.CreateOptions{Now: now}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// benchProperties opens a store on a schema of its own with an
// organisation of n properties, and returns it with their ids.
func benchProperties(b *testing.B, n int) (*postgres.DB, int64, []int64) {
	b.Helper()
	db, err := postgres.Open(b.Context(), testenv.PostgresURL(b), postgres.WithSchema(testenv.PostgresSchema(b, "staykit_bench_")))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	org := &booking.Organization{Slug: "bench", Name: "Bench", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48}
	if err := db.CreateOrganization(b.Context(), org); err != nil {
		b.Fatal(err)
	}
	props := make([]int64, n)
	for i := range props {
		prop := &booking.Property{OrgID: org.ID, Name: "Cabin", MaxGuests: 2, Rates: pricing.RatePlan{BaseRate: decimal.NewFromInt(80)}}
		if err := db.CreateProperty(b.Context(), prop); err != nil {
			b.Fatal(err)
		}
		props[i] = prop.ID
	}
	return db, org.ID, props
}
