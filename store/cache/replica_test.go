package cache_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/cache"
	"github.com/staykit/staykit/store/postgres"
)

// readySubscriber tells the test when its replica listens.
type readySubscriber struct {
	*postgres.DB
	ready chan struct{}
}

func (s readySubscriber) Listen(ctx context.Context, ready func(), fn func(string)) error {
	return s.DB.Listen(ctx, func() { ready(); close(s.ready) }, fn)
}

// TestSecondReplicaWriteReachesReadModel: two replicas, each its pool and
// read model (MaxAge an hour, so only a message can explain a change), on
// one PostgreSQL schema. Replica 0 writes; replica 1's warm read model
// hears it through LISTEN/NOTIFY.
func TestSecondReplicaWriteReachesReadModel(t *testing.T) {
	url := testenv.PostgresURL(t)
	schema := testenv.PostgresSchema(t, "staykit_cache_")
	var dbs [2]*postgres.DB
	for i := range dbs {
		db, err := postgres.Open(t.Context(), url, postgres.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	sub := readySubscriber{DB: dbs[1], ready: make(chan struct{})}
	replicas := [2]*cache.Store{
		cache.New(dbs[0].Stores(), dbs[0], cache.Options{MaxAge: time.Hour, Publisher: dbs[0]}),
		cache.New(dbs[1].Stores(), dbs[1], cache.Options{MaxAge: time.Hour, Publisher: dbs[1], Subscriber: sub}),
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- replicas[1].Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	<-sub.ready

	org := &booking.Organization{Slug: "villa", Name: "Villa", PaymentMode: pricing.ModeFull, DefaultLocale: "en",
		Currency: "EUR", Timezone: "Europe/Paris", HoldMinutes: 30, RequestHoldHours: 48, PublicEngineEnabled: true}
	if err := replicas[0].CreateOrganization(t.Context(), org); err != nil {
		t.Fatal(err)
	}
	prop := &booking.Property{OrgID: org.ID, Name: "Soleil", MaxGuests: 4, Active: true,
		Rates: pricing.RatePlan{BaseRate: decimal.RequireFromString("100")}}
	if err := replicas[0].CreateProperty(t.Context(), prop); err != nil {
		t.Fatal(err)
	}
	// Warm replica 1.
	from, to := day("2026-06-01"), day("2026-07-01")
	if _, err := replicas[1].OrganizationBySlug(t.Context(), "villa"); err != nil {
		t.Fatal(err)
	}
	if taken, err := replicas[1].Occupied(t.Context(), prop.ID, from, to, start); err != nil || len(taken) != 0 {
		t.Fatalf("fixture: %v %v, want June free", taken, err)
	}

	o := *org
	o.Name = "Villa Neuve"
	if err := replicas[0].UpdateOrganization(t.Context(), &o); err != nil {
		t.Fatal(err)
	}
	if err := replicas[0].AddBlock(t.Context(), prop.ID, &booking.Block{Start: day("2026-06-10"), End: day("2026-06-12")}, start); err != nil {
		t.Fatal(err)
	}
	// Messages arrive asynchronously: wait for them (no time is asserted;
	// the test's deadline bounds the wait).
	for {
		got, err := replicas[1].OrganizationBySlug(t.Context(), "villa")
		if err != nil {
			t.Fatal(err)
		}
		taken, err := replicas[1].Occupied(t.Context(), prop.ID, from, to, start)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name == "Villa Neuve" && len(taken) == 1 {
			break
		}
		select {
		case <-t.Context().Done():
			t.Fatalf("replica 1 still reads %q and %v", got.Name, taken)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
