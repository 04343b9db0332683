package booking

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/rules"
)

// Calendar bounds.
const (
	DefaultCalendarMonths = 12
	MaxCalendarMonths     = 24
	// lookAhead is how far past the calendar's end nights are read, so a
	// check-in near the end knows whether its minimum stay fits.
	lookAhead = 62
)

var civilZero civil.Date

// lastCalendarDay is the last day a calendar may show: dates have four-digit
// years.
var lastCalendarDay = civil.Date{Year: 9999, Month: 12, Day: 31}

// CalendarRequest asks for a property's availability.
type CalendarRequest struct {
	// From is the first month shown (any day of it); zero means the
	// current month.
	From civil.Date
	// Months is how many months are shown, 1–24; zero means 12.
	Months int
}

// Calendar is a property's availability, day by day.
type Calendar struct {
	PropertyID int64
	Currency   string
	// From is the first day shown, To the last.
	From civil.Date
	To   civil.Date
	Days []Day
}

// Day is one day of a Calendar.
type Day struct {
	Date civil.Date
	// Available: the night starting this day is free and not past — on
	// at least one unit of the property.
	Available bool
	// UnitsAvailable is how many units of the property are free for the
	// night (0 when it is not Available).
	UnitsAvailable int
	// CheckIn: a stay may start this day.
	CheckIn bool
	// CheckOut: a stay may end this day.
	CheckOut bool
	// Price of the night starting this day.
	Price decimal.Decimal
	// MinStay is the minimum stay of a check-in this day (0 = none).
	MinStay int
	// MaxStay is the maximum stay of a check-in this day, at most
	// MaxNights.
	MaxStay int
	// DepartureDays, on a CheckIn day, are the weekdays a stay starting
	// this day may end on; empty means any. With CheckIn, CheckOut,
	// Available, MinStay and MaxStay they tell exactly which stays can be
	// booked: [in, out) when in is CheckIn, every night Available, the
	// nights within in's MinStay and MaxStay, out's weekday in in's
	// DepartureDays, and out CheckOut.
	DepartureDays rules.Weekdays
}

// availability returns a property's calendar. Days from the booking horizon
// on (Organization.BookingHorizonDays after today) are not available: no
// night starting then can be booked. Errors: CodeNotFound, CodeInvalid
// (months out of range, or a calendar that would end after year 9999).
func (s *Service) availability(ctx context.Context, resolve orgFunc, propertyID int64, r CalendarRequest) (*Calendar, error) {
	if r.Months == 0 {
		r.Months = DefaultCalendarMonths
	}
	if r.Months < 1 || r.Months > MaxCalendarMonths {
		f := FieldErrors{}
		f.Add("months", "out_of_range")
		return nil, f.Err()
	}
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.bookableProperty(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	today := s.today(org, now)
	if r.From.IsZero() {
		r.From = today
	}
	from := r.From.FirstOfMonth()
	to := from.AddMonths(r.Months) // exclusive
	if to.AddDays(-1).After(lastCalendarDay) {
		f := FieldErrors{}
		f.Add("from", "out_of_range")
		return nil, f.Err()
	}
	// No night from the horizon on is bookable: nights are read up to it.
	last := org.Horizon(today)

	// Read nights from the earliest check-in that could end inside the
	// calendar to a little past its end.
	_, maxN := p.StayLimits(*org, civilZero)
	if maxN == 0 || maxN > MaxNights || len(p.Rates.Rules.Seasons) > 0 {
		// Seasons may allow longer stays than the property's maximum.
		maxN = MaxNights
	}
	start := from.AddDays(-maxN)
	if start.Before(today) {
		start = today
	}
	if !start.Before(from) {
		start = from
	}
	end := to.AddDays(lookAhead)
	if end.After(last) {
		end = last
	}
	if end.Before(start) {
		end = start
	}
	calEnd := to
	if end.After(to) {
		calEnd = end
	}
	if p, err = s.withCalendar(ctx, p, start, calEnd.AddDays(1)); err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	set := p.Rates.Rules
	taken, err := s.store.Occupied(ctx, p.ID, start.AddDays(-set.Gap()), end.AddDays(set.Gap()), now)
	if err != nil {
		return nil, fmt.Errorf("read occupancy of property %d: %w", p.ID, err)
	}
	n := start.DaysUntil(end)
	c := s.ruleChecker(org, p, now)
	g := grid{c: c, start: start, maxN: maxN,
		free:    make([]bool, n),
		minStay: make([]int, n),
		maxStay: make([]int, n),
		arrive:  make([]bool, n)}
	if c.RestrictsDeparture() {
		g.days = make([]civil.Date, n+1)
	}
	day := start
	for i := 0; i < n; i, day = i+1, nextDay(day) {
		if g.days != nil {
			g.days[i] = day
		}
		g.free[i] = !day.Before(today) && day.Before(last) && !c.Closed(day)
		g.minStay[i], g.maxStay[i] = c.Limits(day)
		g.arrive[i] = c.Arrives(day)
	}
	if g.days != nil {
		g.days[n] = day
	}
	// Where units have prices of their own, a night costs what its
	// cheapest free unit asks (cheapest, nil otherwise).
	var cheapest []decimal.Decimal
	own, err := s.ownPrices(ctx, p, civil.Range{Start: start, End: end})
	if err != nil {
		return nil, err
	}
	if len(own) > 0 {
		cheapest = cheapestNights(p, start, n, own, &g)
	}
	g.occupy(p, taken, set.Gap())

	cal := &Calendar{PropertyID: p.ID, Currency: org.Currency, From: from, To: to.AddDays(-1)}
	cal.Days = make([]Day, 0, from.DaysUntil(to))
	for day, i := from, start.DaysUntil(from); day.Before(to); day, i = nextDay(day), i+1 {
		d := Day{Date: day, Price: p.Rates.NightPrice(day)}
		switch {
		case i >= 0 && i < n:
			if cheapest != nil {
				d.Price = cheapest[i]
			}
			d.Available = g.free[i]
			d.UnitsAvailable = int(g.units[i])
			d.CheckIn = g.canCheckIn(i)
			d.CheckOut = g.canCheckOut(i)
			d.MinStay, d.MaxStay = g.minStay[i], g.maxStay[i]
			if d.CheckIn && g.days != nil {
				d.DepartureDays = c.DepartureDays(day)
			}
		case i >= n:
			// Past the nights read: beyond the horizon, where only the
			// first day may end a stay.
			d.CheckOut = i == n && g.canCheckOut(i)
			d.MinStay, d.MaxStay = c.Limits(day)
		default:
			d.MinStay, d.MaxStay = c.Limits(day)
		}
		if d.MaxStay <= 0 || d.MaxStay > MaxNights {
			d.MaxStay = MaxNights
		}
		cal.Days = append(cal.Days, d)
	}
	return cal, nil
}

// grid is the free/taken state of consecutive nights from start, on the
// property's units, and the stay rules that say which of them a stay may
// start or end on. Each day's arrival rules and stay limits are worked
// out once: the walks below ask them for every pair of days. Departures
// are asked of rules.Checker.Departs, which builds no refusal, and only
// when some rule restricts them.
//
// A stay holds one unit for all its nights, so the walks ask how long a
// run of free nights one unit has from a day on (run) and up to a day
// (back): the longest over the units. A stay of k nights from day i fits
// a unit exactly when k ≤ run[i], whatever the units, so the walks cost
// the same for one unit as for many (occupy computes the runs once).
type grid struct {
	c     *rules.Checker
	start civil.Date
	maxN  int
	// free is, before occupy, the nights that are open (not past, before
	// the horizon, not closed); after, those free on at least one unit.
	free []bool
	// units is how many units are free for each night; run[i] the most
	// free nights in a row from night i on one unit, back[i] the most up
	// to the night before day i (len(free)+1 days).
	units            []int32
	run, back        []int32
	minStay, maxStay []int  // c.Limits of a check-in on each day
	arrive           []bool // c.Arrives on each day
	// days are the dates of the nights, and of the day after; nil when no
	// rule restricts departures (every stay may end on any day).
	days []civil.Date
	// unitNights, when set, is told by occupy each unit's free nights.
	unitNights func(unit int64, nights []bool)
}

// occupy takes the holds off the open nights of g, unit by unit, each
// widened by gap days (rules.Set.Reserved), and computes free, units,
// run and back. A hold on every unit (Unit 0) takes all; one on a unit
// that is not an active unit of p (retired) takes none. A property read
// without units counts as one unit that every hold takes.
func (g *grid) occupy(p *Property, holds []Hold, gap int) {
	n := len(g.free)
	open := g.free
	g.free = make([]bool, n)
	g.units = make([]int32, n)
	g.run = make([]int32, n+1)
	g.back = make([]int32, n+1)
	take := func(nights []bool, h Hold) {
		lo, hi := max(0, g.start.DaysUntil(h.Start)-gap), min(n, g.start.DaysUntil(h.End)+gap)
		for i := lo; i < hi; i++ {
			nights[i] = false
		}
	}
	// Nights open on every unit: the holds of all units taken off.
	common := slices.Clone(open)
	ids := UnitIDs(p.Units)
	for _, h := range holds {
		if h.Unit == 0 || len(ids) == 0 {
			take(common, h)
		}
	}
	if len(ids) == 0 {
		ids = []int64{0}
	}
	nights := make([]bool, n)
	for _, id := range ids {
		copy(nights, common)
		if id != 0 {
			for _, h := range holds {
				if h.Unit == id {
					take(nights, h)
				}
			}
		}
		if g.unitNights != nil {
			g.unitNights(id, nights)
		}
		var run int32
		for i := n - 1; i >= 0; i-- {
			if nights[i] {
				run++
				g.units[i]++
				g.free[i] = true
			} else {
				run = 0
			}
			g.run[i] = max(g.run[i], run)
		}
		run = 0
		for i := 1; i <= n; i++ {
			if nights[i-1] {
				run++
			} else {
				run = 0
			}
			g.back[i] = max(g.back[i], run)
		}
	}
}

// fits reports whether a stay of nights nights from day i keeps to its
// limits, as rules.Checker.Length with MaxNights.
func (g grid) fits(i, nights int) bool {
	minN, maxN := g.minStay[i], g.maxStay[i]
	if maxN == 0 || maxN > MaxNights {
		maxN = MaxNights
	}
	return (minN <= 0 || nights >= minN) && nights <= maxN
}

// day returns the date of index i.
func (g grid) day(i int) civil.Date {
	if i >= 0 && i < len(g.days) {
		return g.days[i]
	}
	return g.start.AddDays(i)
}

// departs reports whether a stay from day s may end on day i, as
// rules.Checker.Departure accepts it.
func (g grid) departs(s, i int) bool {
	return g.days == nil || g.c.Departs(g.day(s), g.day(i))
}

// canCheckIn: a stay may start on day i — its arrival rules hold, and some
// stay of an allowed length from it has free nights on one unit and may
// end where it ends. Exactly the stays that rules.Checker.Check accepts.
func (g grid) canCheckIn(i int) bool {
	if !g.arrive[i] {
		return false
	}
	for k := i; k < len(g.free) && k-i < g.maxN; k++ {
		if k-i >= int(g.run[i]) {
			return false
		}
		nights := k - i + 1
		if g.fits(i, nights) && g.departs(i, k+1) {
			return true
		}
	}
	return false
}

// canCheckOut: some allowed stay ends on day i — a check-in day s before it
// whose arrival rules hold, whose nights up to i are free on one unit and
// whose length fits s's limits, and day i accepts departures of a stay
// from s.
func (g grid) canCheckOut(i int) bool {
	for s := i - 1; s >= 0 && i-s <= g.maxN; s-- {
		if i-s > int(g.back[i]) {
			return false
		}
		if g.arrive[s] && g.fits(s, i-s) && g.departs(s, i) {
			return true
		}
	}
	return false
}

// nextDay is d.AddDays(1) without the round trip through time.Time: the
// calendar steps through hundreds of days per request.
func nextDay(d civil.Date) civil.Date {
	if d.Day < daysIn(d.Year, d.Month) {
		d.Day++
		return d
	}
	d.Day = 1
	if d.Month == time.December {
		d.Month, d.Year = time.January, d.Year+1
	} else {
		d.Month++
	}
	return d
}

// daysIn is the number of days of a month of the proleptic Gregorian
// calendar.
func daysIn(year int, m time.Month) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// CalendarVersioner is what a read model (package store/cache) may offer
// beside its CatalogStore so that a property's calendar is computed and
// encoded once per change rather than per request
// (OrgService.AvailabilityVersion, package httpapi).
type CalendarVersioner interface {
	// CalendarVersion returns a number that differs whenever
	// Property(orgID, propertyID), CalendarDays(propertyID, …) or
	// Occupied(propertyID, …) may answer differently since, other than
	// by time alone; and lapse, the earliest instant after now at which a
	// hold taking nights at now lapses (zero: none) — until then,
	// Occupied answers as at now. ok is false when it cannot tell.
	CalendarVersion(orgID, propertyID int64, now time.Time) (v uint64, lapse time.Time, ok bool)
}

// AvailabilityVersion returns a key of what Availability(propertyID, r)
// answers now: while the key is the same, so is the answer. It names the
// store's version of the property's rates, rules, per-day calendar and
// holds, the next lapse of a pending hold, the organisation's fields a
// calendar depends on, today and, when the property has a same-day cutoff,
// whether it has passed — everything Availability reads, the instant
// included. ok is false when the store cannot tell; errors are
// Availability's to report.
func (o *OrgService) AvailabilityVersion(ctx context.Context, propertyID int64, r CalendarRequest) (string, bool) {
	b, _, ok := o.calendarVersion(ctx, propertyID, make([]byte, 0, 128))
	if !ok {
		return "", false
	}
	b = append(b, '/')
	b = append(b, r.From.String()...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(r.Months), 10)
	return string(b), true
}

// calendarVersion appends to b what AvailabilityVersion names of the
// store, the instant and the organisation, and returns the read model and
// today. ok is false when the store cannot tell.
func (o *OrgService) calendarVersion(ctx context.Context, propertyID int64, b []byte) (_ []byte, today civil.Date, ok bool) {
	vs, ok := o.s.store.CatalogStore.(CalendarVersioner)
	if !ok {
		return b, civil.Date{}, false
	}
	// The version speaks for the three seams only when one read model
	// serves them all.
	if bs, _ := o.s.store.BookingStore.(CalendarVersioner); bs != vs {
		return b, civil.Date{}, false
	}
	if cs, _ := o.s.store.CalendarStore.(CalendarVersioner); cs != vs {
		return b, civil.Date{}, false
	}
	now := o.s.clock.Now()
	v, lapse, ok := vs.CalendarVersion(o.org.ID, propertyID, now)
	if !ok {
		return b, civil.Date{}, false
	}
	// Read after the version: a property changed since has another
	// version, so the cutoff read here never names an older one.
	p, err := o.s.store.Property(ctx, o.org.ID, propertyID)
	if err != nil {
		return b, civil.Date{}, false
	}
	local := now.In(o.s.location(o.org))
	cutoff := "-"
	if h := p.Rates.Rules.SameDayCutoffHour; h != nil {
		// rules.Checker refuses today's arrivals from hour *h on.
		cutoff = strconv.FormatBool(local.Hour() >= *h)
	}
	opt := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	today = civil.Of(local)
	b = strconv.AppendUint(b, v, 10)
	b = append(b, '/')
	if !lapse.IsZero() {
		b = strconv.AppendInt(b, lapse.UnixNano(), 10)
	}
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(today.Year), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(today.Month), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(today.Day), 10)
	b = append(b, '/')
	b = append(b, cutoff...)
	b = append(b, '/')
	b = append(b, o.org.Currency...)
	b = append(b, '/')
	b = append(b, o.org.Timezone...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(o.org.BookingHorizonDays), 10)
	b = append(b, '/')
	b = append(b, opt(o.org.MinStayNights)...)
	b = append(b, '/')
	b = append(b, opt(o.org.MaxStayNights)...)
	return b, today, true
}

// cheapestNights returns, for the n nights from start, the price of the
// cheapest unit of p free that night — its own price (own) where it has
// one, the property's otherwise — or the property's price when no unit is
// free; it is filled in as g.occupy walks the units (g.unitNights).
func cheapestNights(p *Property, start civil.Date, n int, own []UnitPrice, g *grid) []decimal.Decimal {
	cheapest := make([]decimal.Decimal, n)
	for i, day := 0, start; i < n; i, day = i+1, nextDay(day) {
		cheapest[i] = p.Rates.NightPrice(day)
	}
	base := slices.Clone(cheapest)
	// Each unit's price of each night: its own where set, else base.
	byUnit := make(map[int64][]decimal.Decimal)
	for _, o := range own {
		i := start.DaysUntil(o.Date)
		if i < 0 || i >= n {
			continue
		}
		prices := byUnit[o.UnitID]
		if prices == nil {
			prices = slices.Clone(base)
			byUnit[o.UnitID] = prices
		}
		prices[i] = o.Price
	}
	seen := make([]bool, n)
	g.unitNights = func(unit int64, nights []bool) {
		prices := byUnit[unit]
		if prices == nil {
			prices = base
		}
		for i, free := range nights {
			if free && (!seen[i] || prices[i].LessThan(cheapest[i])) {
				cheapest[i], seen[i] = prices[i], true
			}
		}
	}
	return cheapest
}
