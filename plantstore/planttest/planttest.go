// Package planttest is the conformance suite of plantstore.Store: every
// implementation runs it from its own tests,
//
//	func TestStore(t *testing.T) {
//		planttest.Run(t, func(t *testing.T) plantstore.Store { return open(t) })
//	}
package planttest

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/plantstore"
)

// Run runs the plantstore.Store conformance suite. newStore returns a
// fresh, empty store for each subtest; it should register its own cleanup.
func Run(t *testing.T, newStore func(t *testing.T) plantstore.Store) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, newStore(t)) })
	}
}

// scenario is one subtest, run on a fresh store.
type scenario struct {
	name string
	run  func(t *testing.T, s plantstore.Store)
}

var scenarios = []scenario{
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

// must fails the test at once on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
