package cache

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// The search index (booking.SearchIndex): each property's taken nights as
// bitsets beside its holds (one for the nights taken on every unit, one per
// unit for its own), and its nightly prices as running sums beside
// its per-day calendar, so that a search over thousands of properties
// tests each one's dates and ranks its price in a few word operations,
// and quotes only the page it returns (issue #31). Both are parts of
// entries forgotten as they are: the bits with the property's occupancy,
// the prices with its catalogue (rates, per-day calendar).

var _ booking.SearchIndex = (*Store)(nil)

// maxIndexNights bounds the nights of a property's bitset (ten years).
const maxIndexNights = 3660

// newOccEntry is the entry of holds read from from at now, with its bits:
// those of the holds on every unit (Unit 0) in taken, those of each unit's
// own holds in units.
func newOccEntry(holds []booking.Hold, from civil.Date, now, at time.Time) occEntry {
	e := occEntry{holds: holds, from: from, now: now, at: at}
	n := 0
	for _, h := range holds {
		if h.Until.IsZero() {
			n = max(n, from.DaysUntil(h.End))
		}
	}
	n = min(n, maxIndexNights)
	words := (n + 63) / 64
	e.taken = make([]uint64, words)
	for _, h := range holds {
		lo, hi := max(from.DaysUntil(h.Start), 0), from.DaysUntil(h.End)
		if !h.Until.IsZero() || hi > n {
			e.rest = append(e.rest, h)
			continue
		}
		bits := e.taken
		if h.Unit != 0 {
			if e.units == nil {
				e.units = map[int64][]uint64{}
			}
			if bits = e.units[h.Unit]; bits == nil {
				bits = make([]uint64, words)
				e.units[h.Unit] = bits
			}
		}
		for i := lo; i < hi; i++ {
			bits[i/64] |= 1 << (i % 64)
		}
	}
	return e
}

// anyTaken reports whether a bit of nights [lo, hi) of bits is set.
func anyTaken(bits []uint64, lo, hi int) bool {
	hi = min(hi, len(bits)*64)
	for lo < hi {
		w, b := lo/64, lo%64
		word := bits[w] >> b
		if n := hi - lo; n < 64-b {
			word &= 1<<n - 1
		}
		if word != 0 {
			return true
		}
		lo += 64 - b
	}
	return false
}

// takes reports whether a hold of the entry on unit (0: on every unit)
// takes a night of r at now: lo and hi are r's nights from e.from.
func (e *occEntry) takes(unit int64, r civil.Range, lo, hi int, now time.Time) bool {
	bits := e.taken
	if unit != 0 {
		bits = e.units[unit]
	}
	if anyTaken(bits, lo, hi) {
		return true
	}
	for _, h := range e.rest {
		if h.Unit == unit && h.Start.Before(r.End) && r.Start.Before(h.End) && h.HoldsAt(now) {
			return true
		}
	}
	return false
}

// Taken reports whether holds at now take a night of r on every unit of
// p, from the property's occupancy in memory (read as Occupied reads it):
// a hold on every unit does, else each of p's units must have one. A
// property without units counts as one unit every hold takes.
func (c *Store) Taken(ctx context.Context, p *booking.Property, r civil.Range, now time.Time) (bool, error) {
	if !r.Start.Before(r.End) {
		return false, nil
	}
	e, err := c.searchOccupancy(ctx, p.ID, r.Start, now)
	if err != nil {
		return false, err
	}
	lo, hi := e.from.DaysUntil(r.Start), e.from.DaysUntil(r.End)
	if e.takes(0, r, lo, hi, now) {
		return true, nil
	}
	if len(p.Units) == 0 {
		for unit := range e.units {
			if e.takes(unit, r, lo, hi, now) {
				return true, nil
			}
		}
		for _, h := range e.rest {
			if h.Start.Before(r.End) && r.Start.Before(h.End) && h.HoldsAt(now) {
				return true, nil
			}
		}
		return false, nil
	}
	for _, u := range p.Units {
		if u.Active() && !e.takes(u.ID, r, lo, hi, now) {
			return false, nil
		}
	}
	return true, nil
}

// rateEntry is a property's nightly prices over [from, from+len(sums)-1)
// as running sums in millionths: sums[i] is the sum of the nights before
// from+i. exact is false when a price does not fit (booking.Micros).
type rateEntry struct {
	org   int64
	from  civil.Date
	sums  []int64
	exact bool
	at    time.Time
}

// StayRate returns the sum of the nightly prices of r at p, in millionths,
// from the property's running sums in memory: its rate plan over its
// per-day calendar, both as CalendarDays and Property serve them. The
// sums are computed once per property and catalogue change, over the
// calendarReach days from the first night asked.
func (c *Store) StayRate(ctx context.Context, p *booking.Property, r civil.Range) (int64, bool, error) {
	c.mu.RLock()
	e, ok := c.rates[p.ID]
	gen := c.catalogSeq
	c.mu.RUnlock()
	ok = ok && c.fresh(e.at)
	lo, hi := e.from.DaysUntil(r.Start), e.from.DaysUntil(r.End)
	if ok && lo >= 0 && hi < len(e.sums) {
		return e.sums[hi] - e.sums[lo], e.exact, nil
	}
	at := c.now()
	// The property as the catalogue serves it now, not as the caller
	// read it: the entry is kept only if no change came since gen.
	cur, err := c.currentProperty(ctx, p.OrgID, p.ID)
	if err != nil {
		return 0, false, err
	}
	end := r.Start.AddDays(calendarReach)
	if end.Before(r.End) {
		end = r.End
	}
	if err := c.searchCalendar(ctx, cur.OrgID, p.ID, r.Start, end); err != nil {
		return 0, false, err
	}
	days, err := c.CalendarDays(ctx, p.ID, r.Start, end)
	if err != nil {
		return 0, false, err
	}
	e = rateEntry{org: cur.OrgID, from: r.Start, sums: make([]int64, 1, r.Start.DaysUntil(end)+1), exact: true, at: at}
	next := 0
	for d := r.Start; d.Before(end); d = d.AddDays(1) {
		price := cur.Rates.NightPrice(d)
		for next < len(days) && days[next].Date.Before(d) {
			next++
		}
		if next < len(days) && days[next].Date == d && days[next].Price != nil {
			price = *days[next].Price
		}
		m, fits := booking.Micros(price)
		e.exact = e.exact && fits
		e.sums = append(e.sums, e.sums[len(e.sums)-1]+m)
	}
	c.mu.Lock()
	if c.kept(gen, 0, p.ID) {
		c.rates[p.ID] = e
	}
	c.mu.Unlock()
	hi = r.Start.DaysUntil(r.End)
	return e.sums[hi], e.exact, nil
}

// currentProperty is Property, first looked up in the organisation's
// properties list in memory (a search reads it just before), so that
// the rates of thousands of properties need not read each one.
func (c *Store) currentProperty(ctx context.Context, orgID, id int64) (*booking.Property, error) {
	c.mu.RLock()
	e, ok := c.props[orgID]
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		if i, found := slices.BinarySearchFunc(e.v, id, func(p booking.Property, id int64) int { return cmp.Compare(p.ID, id) }); found {
			p := e.v[i]
			return &p, nil
		}
	}
	return c.Property(ctx, orgID, id)
}
