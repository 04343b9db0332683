// Package cache is staykit's read model: it keeps in memory what the public
// read routes ask for on every request — organisations, properties with
// their rates, blocks and per-day calendars, coupons, cancellation and
// deposit settings, and each property's occupancy — over the store that
// holds them (SQLite, PostgreSQL).
//
// A Store wraps only the seams whose reads it serves: the catalogue
// (booking.CatalogStore), bookings (booking.BookingStore: Occupied),
// per-day calendars (booking.CalendarStore) and settings
// (booking.TermsStore). Their cached reads (OrganizationBySlug,
// OrganizationByID, Properties, Property, CouponByCode, Occupied,
// CalendarDays, Settings) are served from memory; their other reads pass
// through. Writes of those seams, and the writes of other seams that
// change what is cached (the host's calendar, HostStore.ApplyCalendar and
// UpdatePropertyFields; an iCal feed's blocks, FeedStore.ApplyFeedSync and
// DeleteFeed), go straight to the underlying store — the database stays
// the authority: CreateBooking and Transition check the dates there, in one
// atomic step, so a stale calendar in memory can never cause a double
// booking — and then forget what they may have changed, in this process at
// once and in the others through a Publisher (PostgreSQL LISTEN/NOTIFY,
// see Run). A write is counted as changing the read model whether it
// succeeded or not: a refused checkout is also news that the dates are
// taken. Seams the read model does not serve (the ledger, the outbox,
// payment accounts) are not wrapped: Stores hands them on as they are.
//
// Wiring: rm := cache.New(db.Stores(), db, opts); then rm.Stores() for
// booking.Service and the host, rm.Feeds(db) for the calendar sync,
// rm.UnitStore(db) for the host's units and links (package units).
//
// Entries older than Options.MaxAge are read again: a bound on staleness
// when a message between replicas is lost, or when another process writes
// to the database without this cache (a command-line tool on the SQLite
// file).
//
// Values returned are copies of the cached structs, but slices and maps
// inside them are shared: callers must not modify their elements.
package cache

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
)

// DefaultMaxAge is how long an entry is trusted without news of a write.
const DefaultMaxAge = 5 * time.Second

// Publisher tells other replicas about a write (postgres.DB).
type Publisher interface {
	Publish(ctx context.Context, msg string) error
}

// Subscriber hears what other replicas publish (postgres.DB): Listen calls
// ready once listening, then fn with each message, until ctx ends or the
// connection fails.
type Subscriber interface {
	Listen(ctx context.Context, ready func(), fn func(msg string)) error
}

// Options configure a Store.
type Options struct {
	// MaxAge bounds how old an entry may be; zero means DefaultMaxAge.
	MaxAge time.Duration
	// Publisher, when set, is told of every write that changes the read
	// model, for the other replicas.
	Publisher Publisher
	// Subscriber, when set, is what Run listens to.
	Subscriber Subscriber
	// Now is the clock of entries' ages; nil means time.Now.
	Now func() time.Time
	// Logger receives publish and listen failures; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Store is the read model: the catalogue, booking, calendar and terms seams
// with what the public routes read kept in memory. It is safe for
// concurrent use.
type Store struct {
	// The wrapped seams serve the reads that are not cached; their writes
	// are overridden to forget what they change.
	booking.CatalogStore
	booking.BookingStore
	booking.CalendarStore
	booking.TermsStore

	// base are the seams New was given; holds serves occupancy.
	base  booking.Stores
	holds booking.ReadModelStore

	maxAge time.Duration
	pub    Publisher
	sub    Subscriber
	now    func() time.Time
	log    *slog.Logger

	// invalidations counts writes that forgot something (tests).
	invalidations atomic.Uint64

	mu sync.RWMutex
	// catalogSeq counts the forgettings of the catalogue (organisations,
	// properties, coupons, calendars, settings); allForgotten,
	// orgForgotten and propForgotten are its value at the last forgetting
	// of everything, of an organisation and of a property. A read from
	// the database is kept only if nothing it read was forgotten while it
	// ran (kept), so a read that raced a write never stores what the write
	// replaced. occGen does the same for occupancy.
	catalogSeq    uint64
	allForgotten  uint64
	orgForgotten  map[int64]uint64
	propForgotten map[int64]uint64
	occGen        uint64
	orgSlug       map[string]entry[*booking.Organization]
	orgID         map[int64]entry[*booking.Organization]
	props         map[int64]entry[[]booking.Property] // by organisation
	// propsVer numbers each organisation's props entry when stored,
	// counting with propsSeq (PropertiesVersion).
	propsVer map[int64]uint64
	propsSeq uint64
	// entrySeq counts the entries a calendar is computed from (a
	// property's prop, cal and occ entries) as they are stored, so that
	// a newer entry always has a greater number (CalendarVersion).
	entrySeq uint64
	prop     map[[2]int64]entry[*booking.Property]
	coupons  map[couponKey]entry[*coupon.Coupon]
	occ      map[int64]occEntry // by property
	// cal and settings are per-day calendars (by property) and saved
	// settings (by organisation and property), forgotten with the catalog.
	cal map[int64]calEntry
	// unitPrices are the own prices of a property's units (by property).
	unitPrices map[int64]unitPriceEntry
	settings   map[[2]int64]entry[settingsEntry]
	// rates are each property's nightly prices for searches (index.go),
	// forgotten with the catalogue.
	rates map[int64]rateEntry
	// feedProps is the property of each iCal feed seen (feeds never
	// move), so that a feed's sync forgets only its property's occupancy.
	feedProps map[int64]int64
	// propOrg is the organisation of each property seen (properties
	// never move), so that a search refreshes its organisation's holds
	// at once (orgholds.go).
	propOrg map[int64]int64
	// orgProps are the properties of each organisation in propOrg.
	orgProps map[int64]map[int64]struct{}
	// occAllForgotten and occForgotten are occGen at the last forgetting
	// of every property's occupancy and of each property's, so that an
	// organisation's holds read while another property's were forgotten
	// are still kept.
	occAllForgotten uint64
	occForgotten    map[int64]uint64
	// linked are the properties linked to each property seen
	// (booking.Property.Linked, links of package units): a hold on one
	// takes the other's nights, so forgetting one's occupancy forgets the
	// other's. Learned from the catalogue reads; a link written forgets
	// both properties, so an edge missing here is never needed.
	linked map[int64][]int64
	// refreshing are the organisations whose holds are being read, each
	// with a channel closed when done.
	refreshing map[int64]chan struct{}
	// orgHeld is when each organisation's holds were last read at once
	// (cache clock): until it ages, a property's missing holds were
	// forgotten by a write since, and are read alone.
	orgHeld map[int64]time.Time
	// calRefreshing and orgCal are refreshing and orgHeld of the
	// organisations' per-day calendars (orgholds.go).
	calRefreshing map[int64]chan struct{}
	orgCal        map[int64]time.Time
}

type entry[T any] struct {
	v  T
	at time.Time
	// seq numbers the entries of properties and settings when stored (stamp).
	seq uint64
}

type couponKey struct {
	org  int64
	code string
}

// occEntry is a property's holds from a date on, read at an instant, and
// the index of the nights they take (see Taken).
type occEntry struct {
	holds []booking.Hold
	from  civil.Date
	now   time.Time // the holds' reading instant (booking time)
	at    time.Time // when read (cache clock)
	// taken has a bit per night from from on, set when a lasting hold
	// (Until zero) takes it on every unit (Unit 0), over the nights up to
	// the end of the last lasting hold, at most maxIndexNights; units has
	// the same bits of each unit's own lasting holds (nil: none); rest
	// are the holds the bits do not answer for: pending ones, which
	// lapse, and lasting ones reaching past the bits.
	taken []uint64
	units map[int64][]uint64
	rest  []booking.Hold
	seq   uint64 // stamp
}

// The seams a Store serves.
var (
	_ booking.CatalogStore  = (*Store)(nil)
	_ booking.BookingStore  = (*Store)(nil)
	_ booking.CalendarStore = (*Store)(nil)
	_ booking.TermsStore    = (*Store)(nil)
)

// New returns the read model over the seams of s, with holds serving each
// property's occupancy (both are usually one database: New(db.Stores(), db,
// o)).
func New(s booking.Stores, holds booking.ReadModelStore, o Options) *Store {
	c := &Store{CatalogStore: s.CatalogStore, BookingStore: s.BookingStore, CalendarStore: s.CalendarStore,
		TermsStore: s.TermsStore, base: s, holds: holds, maxAge: o.MaxAge, pub: o.Publisher, sub: o.Subscriber, now: o.Now, log: o.Logger}
	if c.maxAge <= 0 {
		c.maxAge = DefaultMaxAge
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	c.resetCatalog()
	c.orgForgotten, c.propForgotten = map[int64]uint64{}, map[int64]uint64{}
	c.occ = map[int64]occEntry{}
	c.feedProps = map[int64]int64{}
	c.propOrg = map[int64]int64{}
	c.orgProps = map[int64]map[int64]struct{}{}
	c.occForgotten = map[int64]uint64{}
	c.linked = map[int64][]int64{}
	c.refreshing = map[int64]chan struct{}{}
	c.orgHeld = map[int64]time.Time{}
	c.calRefreshing = map[int64]chan struct{}{}
	c.orgCal = map[int64]time.Time{}
	return c
}

// Messages between replicas.
const (
	msgCatalog = "catalog"
	msgOccAll  = "occ:*"
	msgOccOf   = "occ:"
)

// Run listens to the other replicas' writes until ctx ends, reconnecting
// after a failure (everything cached is forgotten then, since messages may
// have been missed). Without a Subscriber it only waits for ctx.
func (c *Store) Run(ctx context.Context) error {
	if c.sub == nil {
		<-ctx.Done()
		return nil
	}
	for {
		err := c.sub.Listen(ctx, c.forgetAll, c.apply)
		c.forgetAll()
		if ctx.Err() != nil {
			return nil
		}
		c.log.WarnContext(ctx, "read model: listening to other replicas failed; retrying", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

// apply forgets what another replica's write changed.
func (c *Store) apply(msg string) {
	if ch, ok := parseChange(msg); ok {
		c.forgetCatalog(ch)
		return
	}
	switch {
	case msg == msgOccAll:
		c.forgetOccupancy(0)
	case strings.HasPrefix(msg, msgOccOf):
		id, err := strconv.ParseInt(msg[len(msgOccOf):], 10, 64)
		if err != nil || id <= 0 {
			id = 0
		}
		c.forgetOccupancy(id)
	default:
		c.forgetAll()
	}
}

func (c *Store) fresh(at time.Time) bool { return c.now().Sub(at) < c.maxAge }

func (c *Store) resetCatalog() {
	c.orgSlug = map[string]entry[*booking.Organization]{}
	c.orgID = map[int64]entry[*booking.Organization]{}
	c.props = map[int64]entry[[]booking.Property]{}
	c.propsVer = map[int64]uint64{}
	c.prop = map[[2]int64]entry[*booking.Property]{}
	c.coupons = map[couponKey]entry[*coupon.Coupon]{}
	c.cal = map[int64]calEntry{}
	c.unitPrices = map[int64]unitPriceEntry{}
	c.settings = map[[2]int64]entry[settingsEntry]{}
	c.rates = map[int64]rateEntry{}
}

// forgetOccupancy forgets a property's occupancy, or every property's when
// id is 0.
func (c *Store) forgetOccupancy(id int64) {
	c.mu.Lock()
	c.occGen++
	if id == 0 {
		c.occ = map[int64]occEntry{}
		c.occAllForgotten = c.occGen
		clear(c.occForgotten)
		clear(c.orgHeld)
	} else {
		for _, p := range append([]int64{id}, c.linked[id]...) {
			delete(c.occ, p)
			c.occForgotten[p] = c.occGen
		}
	}
	c.mu.Unlock()
}

func (c *Store) forgetAll() {
	c.forgetCatalog(everything)
	c.forgetOccupancy(0)
}

// changed forgets what a write may have changed — ch of the catalogue,
// and the occupancy of propertyIDs (0: every property's) — here and,
// through the Publisher, in the other replicas. Within a unit of work
// (Units), it is forgotten again when the unit ends.
func (c *Store) changed(ctx context.Context, ch change, propertyIDs ...int64) {
	c.invalidations.Add(1)
	note(ctx, ch, propertyIDs)
	var msgs []string
	if ch != (change{}) {
		c.forgetCatalog(ch)
		msgs = append(msgs, ch.message())
	}
	for _, id := range propertyIDs {
		c.forgetOccupancy(id)
		if id == 0 {
			msgs = append(msgs, msgOccAll)
		} else {
			msgs = append(msgs, msgOccOf+strconv.FormatInt(id, 10))
		}
	}
	if c.pub == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	for _, m := range msgs {
		if err := c.pub.Publish(ctx, m); err != nil {
			// The other replicas re-read within MaxAge anyway.
			c.log.ErrorContext(ctx, "read model: publish write", "msg", m, "err", err)
		}
	}
}

// Cached reads.

// OrganizationBySlug is served from memory when cached.
func (c *Store) OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error) {
	c.mu.RLock()
	e, ok := c.orgSlug[slug]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		return copyOrg(e.v), nil
	}
	at := c.now()
	o, err := c.CatalogStore.OrganizationBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.kept(gen, o.ID) {
		c.orgSlug[slug] = entry[*booking.Organization]{v: copyOrg(o), at: at}
	}
	c.mu.Unlock()
	return o, nil
}

// OrganizationByID is served from memory when cached.
func (c *Store) OrganizationByID(ctx context.Context, id int64) (*booking.Organization, error) {
	c.mu.RLock()
	e, ok := c.orgID[id]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		return copyOrg(e.v), nil
	}
	at := c.now()
	o, err := c.CatalogStore.OrganizationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.kept(gen, id) {
		c.orgID[id] = entry[*booking.Organization]{v: copyOrg(o), at: at}
	}
	c.mu.Unlock()
	return o, nil
}

// Properties is served from memory when cached.
func (c *Store) Properties(ctx context.Context, orgID int64) ([]booking.Property, error) {
	c.mu.RLock()
	e, ok := c.props[orgID]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		return slices.Clone(e.v), nil
	}
	at := c.now()
	list, err := c.CatalogStore.Properties(ctx, orgID)
	if err != nil {
		return nil, err
	}
	kept := make([]booking.Property, len(list))
	ids := make([]int64, len(list))
	for i := range list {
		kept[i] = clipProperty(list[i])
		ids[i] = list[i].ID
	}
	c.mu.Lock()
	if c.kept(gen, orgID, ids...) {
		c.props[orgID] = entry[[]booking.Property]{v: kept, at: at}
		c.propsSeq++
		c.propsVer[orgID] = c.propsSeq
	}
	for i, id := range ids {
		c.seeProperty(orgID, id)
		c.seeLinks(id, list[i].Linked)
	}
	c.mu.Unlock()
	return slices.Clone(kept), nil
}

// PropertiesVersion returns the number of the organisation's properties
// list in memory (booking.PropertiesVersioner): a list read again, after
// a write of the organisation or of one of its properties forgot it or
// once it aged, has another. ok is false when none is in memory.
func (c *Store) PropertiesVersion(orgID int64) (uint64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.props[orgID]
	if !ok || !c.fresh(e.at) {
		return 0, false
	}
	return c.propsVer[orgID], true
}

// Property is served from memory when cached. On a miss, a property in
// its organisation's properties list in memory (Properties: blocks, units
// and links included, forgotten by the same writes) is kept from there,
// sharing the list's copy and its age, rather than read again: a search
// over every property reads the list first, and then each property.
func (c *Store) Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error) {
	key := [2]int64{orgID, propertyID}
	c.mu.RLock()
	e, ok := c.prop[key]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		p := *e.v
		return &p, nil
	}
	if p, ok := c.keepListed(gen, orgID, propertyID); ok {
		return p, nil
	}
	at := c.now()
	p, err := c.CatalogStore.Property(ctx, orgID, propertyID)
	if err != nil {
		return nil, err
	}
	kept := clipProperty(*p)
	c.mu.Lock()
	if c.kept(gen, orgID, propertyID) {
		c.prop[key] = entry[*booking.Property]{v: &kept, at: at, seq: c.stamp()}
	}
	c.seeProperty(orgID, propertyID)
	c.seeLinks(propertyID, p.Linked)
	c.mu.Unlock()
	out := kept
	return &out, nil
}

// keepListed keeps the property's entry from its organisation's
// properties list when that list is in memory and fresh, and no change
// came since gen; it returns a copy of the property.
func (c *Store) keepListed(gen uint64, orgID, propertyID int64) (*booking.Property, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	list, ok := c.props[orgID]
	if !ok || !c.fresh(list.at) || !c.kept(gen, orgID, propertyID) {
		return nil, false
	}
	i, found := slices.BinarySearchFunc(list.v, propertyID, func(p booking.Property, id int64) int { return cmp.Compare(p.ID, id) })
	if !found {
		return nil, false
	}
	// The list's elements are never written once stored: the entry
	// points into it.
	c.prop[[2]int64{orgID, propertyID}] = entry[*booking.Property]{v: &list.v[i], at: list.at, seq: c.stamp()}
	p := list.v[i]
	return &p, true
}

// CouponByCode is served from memory when cached. Redemptions are not
// cached: CouponRedemptions reads them from the database.
func (c *Store) CouponByCode(ctx context.Context, orgID int64, code string) (*coupon.Coupon, error) {
	key := couponKey{orgID, code}
	c.mu.RLock()
	e, ok := c.coupons[key]
	gen := c.catalogSeq
	c.mu.RUnlock()
	if ok && c.fresh(e.at) {
		cp := *e.v
		return &cp, nil
	}
	at := c.now()
	cp, err := c.CatalogStore.CouponByCode(ctx, orgID, code)
	if err != nil {
		return nil, err
	}
	kept := *cp
	c.mu.Lock()
	if c.kept(gen, orgID) {
		c.coupons[key] = entry[*coupon.Coupon]{v: &kept, at: at}
	}
	c.mu.Unlock()
	return cp, nil
}

// Occupied is answered from the property's holds in memory when they were
// read at or before now and reach back to from; it asks the database for
// the holds otherwise.
func (c *Store) Occupied(ctx context.Context, propertyID int64, from, to civil.Date, now time.Time) ([]booking.Hold, error) {
	e, err := c.occupancy(ctx, propertyID, from, now)
	if err != nil {
		return nil, err
	}
	var out []booking.Hold
	for _, h := range e.holds {
		if h.Start.Before(to) && from.Before(h.End) && h.HoldsAt(now) {
			out = append(out, h)
		}
	}
	return out, nil
}

// occupancy returns the property's holds entry that answers for the
// nights from from on at now, reading them when none cached does.
func (c *Store) occupancy(ctx context.Context, propertyID int64, from civil.Date, now time.Time) (occEntry, error) {
	c.mu.RLock()
	e, ok := c.occ[propertyID]
	gen := c.occGen
	c.mu.RUnlock()
	if ok && c.fresh(e.at) && !from.Before(e.from) && !now.Before(e.now) {
		return e, nil
	}
	loadFrom := from
	if ok && e.from.Before(from) && c.fresh(e.at) {
		loadFrom = e.from // keep the wider reach
	}
	at := c.now()
	holds, err := c.holds.Holds(ctx, propertyID, loadFrom, now)
	if err != nil {
		return occEntry{}, err
	}
	e = newOccEntry(slices.Clip(holds), loadFrom, now, at)
	c.mu.Lock()
	if c.occGen == gen {
		e.seq = c.stamp()
		c.occ[propertyID] = e
	}
	c.mu.Unlock()
	return e, nil
}

// copyOrg copies an organisation's struct; its maps and slices are shared.
func copyOrg(o *booking.Organization) *booking.Organization {
	cp := *o
	return &cp
}

// clipProperty makes the property's top-level slices full, so that a
// caller appending to its copy does not write into the cached array.
func clipProperty(p booking.Property) booking.Property {
	p.Photos = slices.Clip(p.Photos)
	p.Blocks = slices.Clip(p.Blocks)
	p.Rates.Seasons = slices.Clip(p.Rates.Seasons)
	p.Rates.Overrides = slices.Clip(p.Rates.Overrides)
	p.Rates.WeekendNights = slices.Clip(p.Rates.WeekendNights)
	p.Units = slices.Clip(p.Units)
	p.Linked = slices.Clip(p.Linked)
	return p
}

// seeLinks records the properties linked to a property, both ways; c.mu
// is held for writing.
func (c *Store) seeLinks(id int64, linked []int64) {
	for _, l := range linked {
		if !slices.Contains(c.linked[id], l) {
			c.linked[id] = append(c.linked[id], l)
		}
		if !slices.Contains(c.linked[l], id) {
			c.linked[l] = append(c.linked[l], id)
		}
	}
}
