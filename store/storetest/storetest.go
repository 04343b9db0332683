// Package storetest is the conformance suite of staykit's store seams
// (booking.Stores, feed.FeedStore, booking.ReadModelStore, connect.Store,
// host.Store): every implementation runs it from its own tests,
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Stores {
//			db := open(t)
//			return storetest.Stores{Stores: db.Stores(), FeedStore: db, ReadModelStore: db, Connect: db, Records: db}
//		})
//	}
//
// and so keeps the contract the booking service relies on, including the
// races a store must win: two checkouts for the same nights (or for
// adjacent nights with a preparation day between them), the last
// redemption of a coupon, a confirmation racing its twin, a host
// closing a night racing a checkout over it, and a late payment's claim
// of its dates racing a checkout next to them or a host closing one of
// their nights.
//
// Stores must keep instants to the millisecond at least; the suite uses
// whole milliseconds.
package storetest

import (
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/connect"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/host"
)

// Stores are the seams the suite checks, each served by the store under
// test; their methods are promoted, so a scenario calls them on one value.
type Stores struct {
	booking.Stores
	feed.FeedStore
	booking.ReadModelStore
	// Records is the host's store (its keys, audit log, request records,
	// users and units of work).
	Records host.Store
	// Connect keeps the organisations' connected accounts (package
	// connect); nil means Records, when it serves connect.Store too (a
	// database serves every seam).
	Connect connect.Store
	// Events is the event feed's store (package eventfeed); nil means
	// Records, when it serves eventfeed.Store too.
	Events eventfeed.Store
}

// eventStore is s.Events, or Records as an eventfeed.Store.
func (s Stores) eventStore(t *testing.T) eventfeed.Store {
	t.Helper()
	if s.Events != nil {
		return s.Events
	}
	e, ok := s.Records.(eventfeed.Store)
	if !ok {
		t.Fatalf("storetest: Stores.Events is nil and Records (%T) is no eventfeed.Store", s.Records)
	}
	return e
}

// connectStore is s.Connect, or Records as a connect.Store.
func (s Stores) connectStore(t *testing.T) connect.Store {
	t.Helper()
	if s.Connect != nil {
		return s.Connect
	}
	c, ok := s.Records.(connect.Store)
	if !ok {
		t.Fatalf("storetest: Stores.Connect is nil and Records (%T) is no connect.Store", s.Records)
	}
	return c
}

// scenario is one subtest, run on a fresh store.
type scenario struct {
	name string
	run  func(t *testing.T, s Stores)
}

// Option narrows what Run runs.
type Option func(*runConfig)

type runConfig struct{ only []string }

// Only runs the scenarios whose names start with one of groups followed by
// a slash ("Ledger", "Outbox"): for a variant of a store that changes what
// those scenarios' methods do (a job engine's hook), not the rest.
func Only(groups ...string) Option { return func(c *runConfig) { c.only = append(c.only, groups...) } }

// runs reports whether c runs the scenario named name.
func (c runConfig) runs(name string) bool {
	if len(c.only) == 0 {
		return true
	}
	for _, g := range c.only {
		if strings.HasPrefix(name, g+"/") {
			return true
		}
	}
	return false
}

// Run runs the conformance suite. newStore returns a fresh,
// empty store for each subtest; it should register its own cleanup.
func Run(t *testing.T, newStore func(t *testing.T) Stores, opts ...Option) {
	var c runConfig
	for _, o := range opts {
		o(&c)
	}
	groups := [][]scenario{
		organizationScenarios,
		propertyScenarios,
		validationScenarios,
		couponScenarios,
		createBookingScenarios,
		transitionScenarios,
		bookingQueryScenarios,
		idempotencyScenarios,
		ledgerScenarios,
		raceScenarios,
		invoiceScenarios,
		invoiceChangeScenarios,
		ledgerRaceScenarios,
		feedScenarios,
		feedRaceScenarios,
		readModelScenarios,
		calendarScenarios,
		hostScenarios,
		termsScenarios,
		outboxScenarios,
		hostCalendarScenarios,
		createTermsScenarios,
		connectScenarios,
		guardScenarios,
		guardRaceScenarios,
		claimGuardScenarios,
		unitScenarios,
		unitRaceScenarios,
		unitStoreScenarios,
		unitPriceScenarios,
		unitPriceRaceScenarios,
		linkScenarios,
		linkRaceScenarios,
		claimGuardRaceScenarios,
		reportScenarios,
		privacyScenarios,
		closeoutScenarios,
		eventFeedScenarios,
		mailSettingsScenarios,
		teamScenarios,
		reviewScenarios,
		checkinScenarios,
		scheduleScenarios,
		conversationScenarios,
		dateChangeScenarios,
		dateChangeRaceScenarios,
	}
	ran := 0
	for _, g := range groups {
		for _, sc := range g {
			if !c.runs(sc.name) {
				continue
			}
			ran++
			t.Run(sc.name, func(t *testing.T) { sc.run(t, newStore(t)) })
		}
	}
	if ran == 0 {
		t.Fatalf("storetest: no scenario in the groups %q", c.only)
	}
}
