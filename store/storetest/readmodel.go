package storetest

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

var readModelScenarios = []scenario{
	{"Holds/BlocksAndHoldersWithExpiry", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newProperty(t, s, w.org.ID)
		r := func(a, b string) civil.Range { return civil.Range{Start: day(a), End: day(b)} }
		newPending(t, s, w.prop, "2026-04-20", "2026-05-01", t0.Add(time.Hour)) // ends on from: excluded
		pending := newPending(t, s, w.prop, "2026-05-01", "2026-05-03", t0.Add(time.Hour))
		confirmed := newPending(t, s, w.prop, "2026-05-05", "2026-05-07", t0.Add(time.Minute))
		moveTo(t, s, confirmed, booking.StatusConfirmed)
		requested := newPending(t, s, w.prop, "2026-06-05", "2026-06-07", t0.Add(time.Minute))
		moveTo(t, s, requested, booking.StatusRequested)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-12", t0) // lapsed at now
		cancelled := newPending(t, s, w.prop, "2026-05-14", "2026-05-16", t0.Add(time.Hour))
		moveTo(t, s, cancelled, booking.StatusCancelled)
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-20"), End: day("2026-05-25")}, t0))
		newPending(t, s, other, "2026-05-08", "2026-05-09", t0.Add(time.Hour))

		got, err := s.Holds(t.Context(), w.prop.ID, day("2026-05-01"), t0)
		must(t, err)
		want := []booking.Hold{
			{Range: r("2026-05-01", "2026-05-03"), Until: pending.ExpiresAt},
			{Range: r("2026-05-05", "2026-05-07")},
			{Range: r("2026-05-20", "2026-05-25")},
			{Range: r("2026-06-05", "2026-06-07")},
		}
		if len(got) != len(want) {
			t.Fatalf("holds = %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i].Range != want[i].Range || !got[i].Until.Equal(want[i].Until) {
				t.Errorf("hold %d = %+v, want %+v", i, got[i], want[i])
			}
		}
		if !got[0].HoldsAt(t0) || got[0].HoldsAt(pending.ExpiresAt) || !got[1].HoldsAt(t0.Add(1000*time.Hour)) {
			t.Errorf("HoldsAt: a pending hold lasts until its expiry, the others until changed")
		}
	}},
	{"Holds/OrgHoldsAreEachPropertysHolds", func(t *testing.T, s Stores) {
		os, ok := s.ReadModelStore.(booking.OrgHoldsStore)
		if !ok {
			t.Fatal("the store does not offer booking.OrgHoldsStore")
		}
		w := newWorld(t, s)
		second := newProperty(t, s, w.org.ID)
		empty := newProperty(t, s, w.org.ID)
		stranger := newOrg(t, s, "stranger")
		foreign := newProperty(t, s, stranger.ID)
		newPending(t, s, w.prop, "2026-04-20", "2026-05-01", t0.Add(time.Hour)) // ends on from: excluded
		newPending(t, s, w.prop, "2026-05-01", "2026-05-03", t0.Add(time.Hour))
		confirmed := newPending(t, s, w.prop, "2026-05-05", "2026-05-07", t0.Add(time.Minute))
		moveTo(t, s, confirmed, booking.StatusConfirmed)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-12", t0) // lapsed at now
		must(t, s.AddBlock(t.Context(), w.prop.ID, &booking.Block{Start: day("2026-05-20"), End: day("2026-05-25")}, t0))
		newPending(t, s, second, "2026-05-08", "2026-05-09", t0.Add(2*time.Hour))
		cancelled := newPending(t, s, second, "2026-05-14", "2026-05-16", t0.Add(time.Hour))
		moveTo(t, s, cancelled, booking.StatusCancelled)
		must(t, s.AddBlock(t.Context(), second.ID, &booking.Block{Start: day("2026-04-01"), End: day("2026-05-02")}, t0))
		newPending(t, s, foreign, "2026-05-08", "2026-05-09", t0.Add(time.Hour))

		got, err := os.OrgHolds(t.Context(), w.org.ID, day("2026-05-01"), t0)
		must(t, err)
		var want []booking.PropertyHold
		for _, p := range []*booking.Property{w.prop, second, empty} {
			hs, err := s.Holds(t.Context(), p.ID, day("2026-05-01"), t0)
			must(t, err)
			for _, h := range hs {
				want = append(want, booking.PropertyHold{PropertyID: p.ID, Hold: h})
			}
		}
		if len(want) != 5 {
			t.Fatalf("fixture: %d holds of the organisation's properties, want 5: %+v", len(want), want)
		}
		if len(got) != len(want) {
			t.Fatalf("org holds = %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i].PropertyID != want[i].PropertyID || got[i].Range != want[i].Range || !got[i].Until.Equal(want[i].Until) {
				t.Errorf("hold %d = %+v, want %+v", i, got[i], want[i])
			}
		}
	}},
}
