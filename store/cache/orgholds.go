package cache

import (
	"context"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// A search tests the holds of up to all of an organisation's properties:
// read one query per property, they cost thousands of round trips once
// per MaxAge. When the database offers booking.OrgHoldsStore, a search
// that misses a property's holds reads those of every property of its
// organisation in one query instead, and keeps them as the property's
// entries (issue #31). Availability and quotes (Occupied) still read one
// property's holds when theirs are missing: one calendar does not pay for
// the organisation's.

// orgHoldsReach is how far before the current UTC date an organisation's
// holds are read, so that the searches at every date from today on, in
// any zone, are answered by the same entries.
const orgHoldsReach = 2

// searchOccupancy is occupancy for a search: on a miss, the holds of the
// property's whole organisation are read at once when the database can.
func (c *Store) searchOccupancy(ctx context.Context, propertyID int64, from civil.Date, now time.Time) (occEntry, error) {
	c.mu.RLock()
	e, ok := c.occ[propertyID]
	org, known := c.propOrg[propertyID]
	held, recent := c.orgHeld[org]
	c.mu.RUnlock()
	if ok && c.fresh(e.at) && !from.Before(e.from) && !now.Before(e.now) {
		return e, nil
	}
	os, bulk := c.holds.(booking.OrgHoldsStore)
	if !bulk || !known || (recent && c.fresh(held)) {
		// A property the refresh did not keep (a write forgot it
		// since, or it asks from further back) is read alone.
		return c.occupancy(ctx, propertyID, from, now)
	}
	if err := c.refreshOrgHolds(ctx, os, org, from, now); err != nil {
		return occEntry{}, err
	}
	// Answered by the refresh, unless a write forgot the property's
	// holds meanwhile or another refresh read them at a later instant.
	return c.occupancy(ctx, propertyID, from, now)
}

// refreshOrgHolds reads the holds of the organisation's properties from
// the earlier of from and orgHoldsReach days before now's UTC date, and
// keeps each property's, unless a write forgot them while they were read.
// Concurrent refreshes of one organisation read once: the others wait.
func (c *Store) refreshOrgHolds(ctx context.Context, os booking.OrgHoldsStore, org int64, from civil.Date, now time.Time) error {
	c.mu.Lock()
	if done, ok := c.refreshing[org]; ok {
		c.mu.Unlock()
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if held, ok := c.orgHeld[org]; ok && c.fresh(held) {
		// Another refresh ended since the caller looked: its entries
		// answer (or a write forgot them, and the caller reads alone).
		c.mu.Unlock()
		return nil
	}
	done := make(chan struct{})
	c.refreshing[org] = done
	gen := c.occGen
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.refreshing, org)
		c.mu.Unlock()
		close(done)
	}()

	loadFrom := civil.Of(now.UTC()).AddDays(-orgHoldsReach)
	if from.Before(loadFrom) {
		loadFrom = from
	}
	at := c.now()
	holds, err := os.OrgHolds(ctx, org, loadFrom, now)
	if err != nil {
		return err
	}
	byProp := map[int64][]booking.Hold{}
	for _, h := range holds {
		byProp[h.PropertyID] = append(byProp[h.PropertyID], h.Hold)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.occAllForgotten > gen {
		return nil
	}
	c.orgHeld[org] = at
	// Every property of the organisation seen: those without a hold
	// have none.
	for id := range c.orgProps[org] {
		if c.occForgotten[id] > gen {
			continue
		}
		e := newOccEntry(slices.Clip(byProp[id]), loadFrom, now, at)
		e.seq = c.stamp()
		c.occ[id] = e
	}
	return nil
}

// seeProperty records the organisation of a property; c.mu is held for
// writing.
func (c *Store) seeProperty(org, id int64) {
	if _, ok := c.propOrg[id]; ok {
		return
	}
	c.propOrg[id] = org
	if c.orgProps[org] == nil {
		c.orgProps[org] = map[int64]struct{}{}
	}
	c.orgProps[org][id] = struct{}{}
}

// searchCalendar makes sure, for a search, that the property's per-day
// calendar over [from, to) is in memory: on a miss, those of every
// property of its organisation are read at once when the database can
// (booking.OrgCalendarStore), over orgHoldsReach days before now's UTC
// date to calendarReach days after (and at least to to). Otherwise, or
// when the organisation's were read within MaxAge (a write forgot the
// property's since), CalendarDays reads the property's alone.
func (c *Store) searchCalendar(ctx context.Context, org, propertyID int64, from, to civil.Date) error {
	c.mu.RLock()
	e, ok := c.cal[propertyID]
	held, recent := c.orgCal[org]
	_, known := c.orgProps[org][propertyID]
	c.mu.RUnlock()
	if ok && c.fresh(e.at) && !from.Before(e.from) && !e.to.Before(to) {
		return nil
	}
	ocs, bulk := c.CalendarStore.(booking.OrgCalendarStore)
	if !bulk || !known || (recent && c.fresh(held)) {
		return nil
	}
	c.mu.Lock()
	if held, ok := c.orgCal[org]; ok && c.fresh(held) {
		// Another refresh ended since the caller looked.
		c.mu.Unlock()
		return nil
	}
	if done, ok := c.calRefreshing[org]; ok {
		c.mu.Unlock()
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done := make(chan struct{})
	c.calRefreshing[org] = done
	gen := c.catalogSeq
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calRefreshing, org)
		c.mu.Unlock()
		close(done)
	}()

	lo := civil.Of(c.now().UTC()).AddDays(-orgHoldsReach)
	if from.Before(lo) {
		lo = from
	}
	hi := lo.AddDays(calendarReach)
	if hi.Before(to) {
		hi = to
	}
	at := c.now()
	days, err := ocs.OrgCalendarDays(ctx, org, lo, hi)
	if err != nil {
		return err
	}
	byProp := map[int64][]booking.CalendarDay{}
	for _, d := range days {
		byProp[d.PropertyID] = append(byProp[d.PropertyID], d.CalendarDay)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.orgCal[org] = at
	for id := range c.orgProps[org] {
		if !c.kept(gen, org, id) {
			continue
		}
		if e, ok := c.cal[id]; ok && c.fresh(e.at) && !lo.Before(e.from) && !e.to.Before(hi) {
			continue // the same days, and their entry's number
		}
		c.cal[id] = calEntry{days: slices.Clip(byProp[id]), from: lo, to: hi, at: at, seq: c.stamp()}
	}
	return nil
}
