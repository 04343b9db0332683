package cache

import (
	"context"
	"slices"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// calendarReach is how far past the dates asked for a property's per-day
// calendar is read on a miss, so that the quotes and availability of the
// following year are served by the same entry.
const calendarReach = 400

// calendarSpan bounds an entry's dates: a request outside them, once the
// entry would span more, replaces the entry rather than widening it.
const calendarSpan = 3 * 366

// calEntry is a property's per-day settings over [from, to), by date.
type calEntry struct {
	days     []booking.CalendarDay
	from, to civil.Date
	at       time.Time // when read (cache clock)
	seq      uint64    // stamp
}

// settingsEntry is an organisation's or property's saved settings, or the
// not-found error of none saved.
type settingsEntry struct {
	v   *booking.Settings
	err error
}

// CalendarDays is served from memory when the property's days cached
// cover [from, to). They are forgotten with the property's catalogue,
// which every write of per-day settings (SetCalendarDays, ApplyCalendar)
// forgets.
func (c *Store) CalendarDays(ctx context.Context, propertyID int64, from, to civil.Date) ([]booking.CalendarDay, error) {
	c.mu.RLock()
	e, ok := c.cal[propertyID]
	gen := c.catalogSeq
	c.mu.RUnlock()
	ok = ok && c.fresh(e.at)
	if ok && !from.Before(e.from) && !e.to.Before(to) {
		return calendarSlice(e.days, from, to), nil
	}
	lo, hi := from, to
	if reach := from.AddDays(calendarReach); hi.Before(reach) {
		hi = reach
	}
	if ok {
		// Widen the entry rather than replace it, while it stays bounded.
		wlo, whi := e.from, e.to
		if lo.Before(wlo) {
			wlo = lo
		}
		if whi.Before(hi) {
			whi = hi
		}
		if wlo.DaysUntil(whi) <= calendarSpan {
			lo, hi = wlo, whi
		}
	}
	at := c.now()
	days, err := c.CalendarStore.CalendarDays(ctx, propertyID, lo, hi)
	if err != nil {
		return nil, err
	}
	days = slices.Clip(days)
	c.mu.Lock()
	if c.kept(gen, 0, propertyID) {
		c.cal[propertyID] = calEntry{days: days, from: lo, to: hi, at: at, seq: c.stamp()}
	}
	c.mu.Unlock()
	return calendarSlice(days, from, to), nil
}

// calendarSlice returns the days of [from, to) of days (sorted by date),
// as a full slice: a caller appending to it does not write into days. It
// is nil when there are none, as the stores return.
func calendarSlice(days []booking.CalendarDay, from, to civil.Date) []booking.CalendarDay {
	return datesIn(days, func(d booking.CalendarDay) civil.Date { return d.Date }, from, to)
}

// datesIn returns the elements of xs, sorted by date, whose date is in
// [from, to), as a full slice: a caller appending to it does not write
// into xs. It is nil when there are none, as the stores return.
func datesIn[T any](xs []T, date func(T) civil.Date, from, to civil.Date) []T {
	cmp := func(x T, t civil.Date) int { return date(x).Compare(t) }
	i, _ := slices.BinarySearchFunc(xs, from, cmp)
	j, _ := slices.BinarySearchFunc(xs, to, cmp)
	if i >= j {
		return nil
	}
	return xs[i:j:j]
}

// Settings is served from memory when cached, including the answer that
// none were saved. SaveSettings forgets them.
func (c *Store) Settings(ctx context.Context, orgID, propertyID int64) (*booking.Settings, error) {
	key := [2]int64{orgID, propertyID}
	c.mu.RLock()
	e, ok := c.settings[key]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		if e.v.err != nil {
			return nil, e.v.err
		}
		return copySettings(e.v.v), nil
	}
	at := c.now()
	s, err := c.TermsStore.Settings(ctx, orgID, propertyID)
	var kept settingsEntry
	switch {
	case booking.ErrorCode(err) == booking.CodeNotFound:
		kept.err = err
	case err != nil:
		return nil, err
	default:
		kept.v = copySettings(s)
	}
	c.mu.Lock()
	if c.kept(gen, orgID, propertyID) {
		c.settings[key] = entry[settingsEntry]{v: kept, at: at, seq: c.stamp()}
	}
	c.mu.Unlock()
	return s, err
}

// SaveSettings writes through and forgets the settings cached: an
// organisation's (with its catalogue) or a property's.
func (c *Store) SaveSettings(ctx context.Context, s booking.Settings) error {
	ch := orgChange(s.OrgID)
	if s.PropertyID != 0 {
		ch = propertyChange(s.PropertyID)
	}
	defer c.changed(ctx, ch)
	return c.TermsStore.SaveSettings(ctx, s)
}

// copySettings copies settings and their policy; the policy's slices are
// shared.
func copySettings(s *booking.Settings) *booking.Settings {
	cp := *s
	if s.Policy != nil {
		p := *s.Policy
		cp.Policy = &p
	}
	return &cp
}
