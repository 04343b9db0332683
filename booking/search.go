package booking

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// SearchSort is the order of a search's results.
type SearchSort string

// Orders of a search.
const (
	// SortID is the order of Properties: by property ID (the default).
	SortID SearchSort = ""
	// SortPrice orders by the stay's nightly rates summed — the nights'
	// prices before length-of-stay discounts, fees, taxes and coupons, as
	// the calendar shows them — then by ID. A property whose units have
	// prices of their own (UnitPrice) counts its cheapest unit's for the
	// stay, free or not, so that the order depends on prices alone.
	SortPrice SearchSort = "price"
	// SortName orders by name (byte order), then by ID.
	SortName SearchSort = "name"
)

// SearchRequest asks which properties are bookable for a stay.
type SearchRequest struct {
	Stay
	// Locale words the quotes' labels, as in QuoteRequest.
	Locale string
	// Limit, when above zero, asks for a page of at most Limit results
	// and the cursor of the next one; zero asks for them all.
	Limit int
	// After is the cursor: the ID of the last property of the previous
	// page, in the order Sort; the page starts after it (0: from the
	// start).
	After int64
	// Sort orders the results; SortID when empty.
	Sort SearchSort
}

// SearchResult is a property bookable for the stay searched, and its quote.
type SearchResult struct {
	Listing Listing
	Quote   pricing.Quote
}

// SearchIndex is what a read model (package store/cache) may offer a
// search beside the BookingStore it serves: whether a property's nights
// are taken, and the nightly rates of a stay, from memory, without reading
// the property's holds and calendar per search. Search uses it when the
// BookingStore of its Stores implements it, and answers the same from
// Occupied and CalendarDays otherwise.
type SearchIndex interface {
	// Taken reports whether holds at now take a night of r on every
	// unit of p (p.Units): whether UnitFree(p, Occupied(r, now), r) is
	// false.
	Taken(ctx context.Context, p *Property, r civil.Range, now time.Time) (bool, error)
	// StayRate returns the sum of the nightly prices of r at p — each
	// night's per-day calendar price, else p.Rates.NightPrice — in
	// millionths (StayRateMicros); ok is false when a price does not fit.
	StayRate(ctx context.Context, p *Property, r civil.Range) (micros int64, ok bool, err error)
}

// StayRateMicros returns the sum of prices in millionths of a unit, and
// whether every price and the sum fit exactly (six decimal places at most,
// MaxDecimalPlaces, and the sum within int64).
func StayRateMicros(prices iter.Seq[decimal.Decimal]) (int64, bool) {
	var sum int64
	for p := range prices {
		m, ok := Micros(p)
		if !ok {
			return 0, false
		}
		sum += m // within int64: |m| <= 2^50, and a stay is at most MaxNights
	}
	return sum, true
}

// maxMicros bounds a price in millionths, so that a few thousand of them
// add up within int64.
const maxMicros = 1 << 50

// Micros returns d in millionths of a unit, and whether it is exactly
// that (at most six decimal places) and within ±2^50.
func Micros(d decimal.Decimal) (int64, bool) {
	m := d.Shift(MaxDecimalPlaces)
	if !m.IsInteger() || m.Abs().GreaterThan(decimal.NewFromInt(maxMicros)) {
		return 0, false
	}
	return m.IntPart(), true
}

// Search lists the active properties of an organisation that accept a
// stay — rules, capacity, guest categories, extras and free dates on one
// of their units — each
// with its quote, in the order of Properties (or r.Sort). A property that
// refuses the stay (a 422 of Quote) is left out. With r.Limit, it returns
// one page and the cursor of the next (0 when it is the last): only the
// page's properties are quoted, the others are tested for free dates and
// capacity alone (through SearchIndex when the store offers it). Errors:
// CodeNotFound (organisation), CodeInvalid (dates missing or inverted,
// guests below one, a sorted search's cursor that is not an active
// property), and the date rules that no property can change
// (CodeCheckInPast, CodeBeyondHorizon).
func (s *Service) Search(ctx context.Context, slug string, r SearchRequest) ([]SearchResult, int64, error) {
	f := FieldErrors{}
	r.Stay.validateShape(f)
	if err := f.Err(); err != nil {
		return nil, 0, err
	}
	org, err := s.Organization(ctx, slug)
	if err != nil {
		return nil, 0, err
	}
	now := s.clock.Now()
	if err := checkDates(org, r.Stay, s.today(org, now)); err != nil {
		return nil, 0, err
	}
	// The active properties, in the order of Properties; each one's
	// listing is built only for the results (with thousands of
	// properties, building them all is most of a page's cost).
	props, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, 0, fmt.Errorf("list properties of %q: %w", org.Slug, err)
	}
	today := s.today(org, now)
	cands := make([]*Property, 0, len(props))
	for i := range props {
		if props[i].Active {
			cands = append(cands, &props[i])
		}
	}
	ix, ok := s.store.BookingStore.(SearchIndex)
	if !ok {
		ix = storeIndex{s}
	}
	if cands, err = s.searchOrder(ctx, ix, cands, r); err != nil {
		return nil, 0, err
	}
	var out []SearchResult
	if r.Limit > 0 {
		out = make([]SearchResult, 0, r.Limit+1)
	} else {
		out = make([]SearchResult, 0, len(cands))
	}
	for _, p := range cands {
		if r.Limit > 0 && len(out) > r.Limit {
			break
		}
		// The free dates and capacity first: from memory with an index,
		// they leave out most refusals without a quote. Quote checks
		// them again.
		if r.Guests > p.MaxGuests {
			continue
		}
		gap := p.Rates.Rules.Gap()
		taken, err := ix.Taken(ctx, p, civil.Range{Start: r.CheckIn.AddDays(-gap), End: r.CheckOut.AddDays(gap)}, now)
		if err != nil {
			return nil, 0, fmt.Errorf("search property %d: %w", p.ID, err)
		}
		if taken {
			continue
		}
		q, err := s.quote(ctx, fixedOrg(org), p.ID, QuoteRequest{Stay: r.Stay, Locale: r.Locale})
		switch code := ErrorCode(err); {
		case err == nil:
			out = append(out, SearchResult{Listing: s.listing(org, p, today), Quote: *q})
		case code == CodeInternal || code == CodePaymentUnavailable:
			return nil, 0, fmt.Errorf("search property %d: %w", p.ID, err)
		}
	}
	if r.Limit > 0 && len(out) > r.Limit {
		return out[:r.Limit], out[r.Limit-1].Listing.Property.ID, nil
	}
	return out, 0, nil
}

// fixedOrg resolves to org.
func fixedOrg(org *Organization) orgFunc {
	return func(context.Context) (*Organization, error) { return org, nil }
}

// searchOrder returns the properties a search tries, in order: sorted as
// r.Sort asks, from after its cursor on.
func (s *Service) searchOrder(ctx context.Context, ix SearchIndex, ls []*Property, r SearchRequest) ([]*Property, error) {
	switch r.Sort {
	case SortID:
		// Properties come by ID.
		i, _ := slices.BinarySearchFunc(ls, r.After+1, func(p *Property, id int64) int { return cmp.Compare(p.ID, id) })
		return ls[i:], nil
	case SortName:
		slices.SortStableFunc(ls, func(a, b *Property) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
		})
	case SortPrice:
		if err := s.sortByRate(ctx, ix, ls, r.Range()); err != nil {
			return nil, err
		}
	default:
		f := FieldErrors{}
		f.Add("sort", "invalid")
		return nil, f.Err()
	}
	if r.After == 0 {
		return ls, nil
	}
	i := slices.IndexFunc(ls, func(p *Property) bool { return p.ID == r.After })
	if i < 0 {
		f := FieldErrors{}
		f.Add("cursor", "invalid")
		return nil, f.Err()
	}
	return ls[i+1:], nil
}

// sortByRate sorts properties by the nightly rates of stay, then by ID.
func (s *Service) sortByRate(ctx context.Context, ix SearchIndex, ls []*Property, stay civil.Range) error {
	// Keys and positions are sorted, then the properties put in order
	// once at the end.
	type keyed struct {
		micros int64
		id     int64
		dec    decimal.Decimal
		at     int
	}
	ks := make([]keyed, len(ls))
	exact := true
	for i, p := range ls {
		var m int64
		var ok bool
		var err error
		if unitPriced(p) {
			// The index knows the property's nightly prices, not its
			// units' own: read them.
			if p, err = s.cheapestUnitPriced(ctx, p, stay); err == nil {
				m, ok = StayRateMicros(nightPrices(p, stay))
			}
		} else {
			m, ok, err = ix.StayRate(ctx, p, stay)
		}
		if err != nil {
			return fmt.Errorf("rates of property %d: %w", ls[i].ID, err)
		}
		ks[i] = keyed{micros: m, id: ls[i].ID, at: i}
		exact = exact && ok
	}
	if !exact {
		// A price beyond millionths: compare the decimals (slow, rare).
		for i := range ks {
			// Priced as the first loop priced it.
			p, err := s.cheapestUnitPriced(ctx, ls[i], stay)
			if err != nil {
				return fmt.Errorf("rates of property %d: %w", ls[i].ID, err)
			}
			sum := decimal.Zero
			for d := range nightPrices(p, stay) {
				sum = sum.Add(d)
			}
			ks[i].dec = sum
		}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		c := cmp.Compare(a.micros, b.micros)
		if !exact {
			c = a.dec.Cmp(b.dec)
		}
		return cmp.Or(c, cmp.Compare(a.id, b.id))
	})
	sorted := make([]*Property, len(ls))
	for i, k := range ks {
		sorted[i] = ls[k.at]
	}
	copy(ls, sorted)
	return nil
}

// storeIndex answers SearchIndex from the store's Occupied and
// CalendarDays: a search over a store without a read model.
type storeIndex struct{ s *Service }

func (x storeIndex) Taken(ctx context.Context, p *Property, r civil.Range, now time.Time) (bool, error) {
	taken, err := x.s.store.Occupied(ctx, p.ID, r.Start, r.End, now)
	return !UnitFree(p, taken, r), err
}

func (x storeIndex) StayRate(ctx context.Context, p *Property, r civil.Range) (int64, bool, error) {
	p, err := x.s.withCalendar(ctx, p, r.Start, r.End)
	if err != nil {
		return 0, false, err
	}
	m, ok := StayRateMicros(nightPrices(p, r))
	return m, ok, nil
}

// nightPrices yields the price of each night of r at p.
func nightPrices(p *Property, r civil.Range) iter.Seq[decimal.Decimal] {
	return func(yield func(decimal.Decimal) bool) {
		for d := r.Start; d.Before(r.End); d = nextDay(d) {
			if !yield(p.Rates.NightPrice(d)) {
				return
			}
		}
	}
}
