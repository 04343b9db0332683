package storetest

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/plantstore"
)

// plantScenario is one plant store subtest, run on a fresh store.
type plantScenario struct {
	name string
	run  func(t *testing.T, s plantstore.Store)
}

var plantScenarios = []plantScenario{
	{"Plant/CreatedRoundTrips", func(t *testing.T, s plantstore.Store) {
		for _, p := range []plantstore.Plant{
			{ID: 1, Name: "Monstera", Tag: "tropical"},
			{ID: 0, Name: "Zero"},
			{ID: -7, Name: "Negative"},
			{ID: 1<<63 - 1, Name: "Max", Tag: "big"},
		} {
			must(t, s.CreatePlant(t.Context(), p))
			got, found, err := s.Plant(t.Context(), p.ID)
			must(t, err)
			if !found || got != p {
				t.Errorf("Plant(%d) = %+v, %v, want %+v, true", p.ID, got, found, p)
			}
		}
	}},
	{"Plant/IDTakenErrExists", func(t *testing.T, s plantstore.Store) {
		must(t, s.CreatePlant(t.Context(), plantstore.Plant{ID: 5, Name: "Fern"}))
		err := s.CreatePlant(t.Context(), plantstore.Plant{ID: 5, Name: "Other"})
		if !errors.Is(err, plantstore.ErrExists) {
			t.Fatalf("second create: %v, want ErrExists", err)
		}
		got, _, err := s.Plant(t.Context(), 5)
		must(t, err)
		if got.Name != "Fern" {
			t.Errorf("name = %q after refused create, want Fern", got.Name)
		}
	}},
	{"Plant/UnknownNotFound", func(t *testing.T, s plantstore.Store) {
		got, found, err := s.Plant(t.Context(), 42)
		must(t, err)
		if found || got != (plantstore.Plant{}) {
			t.Errorf("Plant(42) = %+v, %v, want zero, false", got, found)
		}
	}},
}
