package cache

import (
	"time"

	"github.com/staykit/staykit/booking"
)

// A property's calendar (booking.OrgService.Availability) is computed from
// three entries of the read model: the property (prop), its per-day
// calendar (cal) and its holds (occ). Each is numbered when stored, from
// one counter, so the greatest of the three numbers changes whenever one
// of them is stored again — after a write forgot it, or once it aged —
// and CalendarVersion names the three by that number (issue #31).

var _ booking.QuoteVersioner = (*Store)(nil)

// stamp returns the next entry number; c.mu is held for writing.
func (c *Store) stamp() uint64 {
	c.entrySeq++
	return c.entrySeq
}

// CalendarVersion returns the version of what Property(orgID, propertyID),
// CalendarDays and Occupied of the property answer from memory
// (booking.CalendarVersioner): another number once any of them is read
// again. lapse is the earliest instant after now at which a hold in
// memory that takes nights at now lapses (zero: none), the first instant
// at which Occupied may answer otherwise by time alone. ok is false when
// one of them is not in memory, has aged, or its holds were read after
// now.
func (c *Store) CalendarVersion(orgID, propertyID int64, now time.Time) (v uint64, lapse time.Time, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.prop[[2]int64{orgID, propertyID}]
	if !ok || !c.fresh(p.at) {
		return 0, time.Time{}, false
	}
	cal, ok := c.cal[propertyID]
	if !ok || !c.fresh(cal.at) {
		return 0, time.Time{}, false
	}
	occ, ok := c.occ[propertyID]
	if !ok || !c.fresh(occ.at) || now.Before(occ.now) {
		return 0, time.Time{}, false
	}
	// Pending holds are all in rest (newOccEntry).
	for _, h := range occ.rest {
		if h.Until.After(now) && (lapse.IsZero() || h.Until.Before(lapse)) {
			lapse = h.Until
		}
	}
	return max(p.seq, cal.seq, occ.seq), lapse, true
}

// SettingsVersion returns the entry number of the settings that
// Settings(orgID, propertyID) answers from memory (booking.QuoteVersioner),
// numbered from the counter of CalendarVersion: another number once they
// are read again. ok is false when they are not in memory or have aged.
func (c *Store) SettingsVersion(orgID, propertyID int64) (v uint64, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.settings[[2]int64{orgID, propertyID}]
	if !ok || !c.fresh(e.at) {
		return 0, false
	}
	return e.seq, true
}
