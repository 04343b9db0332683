package reports

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// Entry is a ledger entry with the property of its booking, as
// Store.LedgerEntriesMoved lists them.
type Entry struct {
	ledger.Entry
	PropertyID int64
}

// Input is what Compute reads: an organisation's data as the Service
// gathers it from the Store.
type Input struct {
	// Currency is the organisation's; Location its time zone (ledger
	// instants become dates there).
	Currency string
	Location *time.Location
	Span     Span
	// Properties are those reported, in the order given.
	Properties []booking.Property
	// Closed are the dates each property's per-day calendar closes
	// (booking.CalendarDay.Closed), within the span.
	Closed map[int64][]civil.Date
	// Bookings are the bookings whose stays overlap the span; only
	// confirmed and cancelled ones count.
	Bookings []booking.Booking
	// Ledgers are the entries of the cancelled bookings, by booking ID:
	// their decision says what they kept.
	Ledgers map[int64][]ledger.Entry
	// Entries are the ledger entries of the bookings whose money moved in
	// the span (Store.LedgerEntriesMoved), each booking's entries all
	// there.
	Entries []Entry
}

// Compute returns the report of in. Errors: CodeConflict when a counted
// booking or ledger entry is in another currency than in.Currency.
func Compute(in Input) (*Report, error) {
	if in.Location == nil {
		in.Location = time.UTC
	}
	months := in.Span.Months()
	index := make(map[Month]int, len(months))
	for i, m := range months {
		index[m] = i
	}
	type acc struct {
		months []Figures
		taxes  []map[string]*TaxLine
	}
	props := make(map[int64]*acc, len(in.Properties))
	for _, p := range in.Properties {
		a := &acc{months: make([]Figures, len(months)), taxes: make([]map[string]*TaxLine, len(months))}
		for i := range a.taxes {
			a.taxes[i] = map[string]*TaxLine{}
		}
		props[p.ID] = a
	}
	monthOf := func(d civil.Date) (int, bool) { i, ok := index[MonthOf(d)]; return i, ok }
	span := in.Span.Range()

	// The stored quotes word a tax in the guest's language: its labels
	// by locale are the property's (pricing.PercentTax.Labels).
	labels := map[int64]map[string]map[string]string{}
	for _, p := range in.Properties {
		labels[p.ID] = map[string]map[string]string{}
		for _, t := range p.Fees.Taxes {
			labels[p.ID][t.Code] = t.Labels.Map()
		}
	}
	booked := map[int64]map[civil.Date]bool{}
	for i := range in.Bookings {
		b := &in.Bookings[i]
		a := props[b.PropertyID]
		if a == nil || (b.Status != booking.StatusConfirmed && b.Status != booking.StatusCancelled) {
			continue
		}
		if b.Currency != in.Currency {
			return nil, currencyConflict(b.Currency, in.Currency)
		}
		if b.Status == booking.StatusCancelled {
			mi, ok := monthOf(b.CheckIn)
			if !ok {
				continue
			}
			p := ledger.PositionOf(in.Ledgers[b.ID])
			if !p.Decided || p.Kept == 0 {
				continue
			}
			a.months[mi].CancellationRevenue = a.months[mi].CancellationRevenue.Add(pricing.FromMinor(p.Kept, in.Currency))
			continue
		}
		nights := spreadStay(b, in.Currency)
		for _, n := range nights {
			mi, ok := monthOf(n.date)
			if !ok || !span.Contains(n.date) {
				continue
			}
			if booked[b.PropertyID] == nil {
				booked[b.PropertyID] = map[civil.Date]bool{}
			}
			booked[b.PropertyID][n.date] = true
			f := &a.months[mi]
			f.NightsBooked++
			f.RoomRevenue = f.RoomRevenue.Add(n.room)
			f.Fees = f.Fees.Add(n.fees)
			for _, t := range n.taxes {
				key := t.Code + "|" + boolKey(t.Inclusive)
				if a.taxes[mi][key] == nil {
					line := t
					line.Amount = decimal.Zero
					if l, ok := labels[b.PropertyID][t.Code]; ok {
						line.Labels = l
					}
					a.taxes[mi][key] = &line
				}
				a.taxes[mi][key].Amount = a.taxes[mi][key].Amount.Add(t.Amount)
			}
		}
	}

	for _, p := range in.Properties {
		a := props[p.ID]
		closed := map[civil.Date]bool{}
		for _, d := range in.Closed[p.ID] {
			closed[d] = true
		}
		for _, bl := range p.Blocks {
			for d := bl.Start; d.Before(bl.End); d = d.AddDays(1) {
				if span.Contains(d) {
					closed[d] = true
				}
			}
		}
		for mi, m := range months {
			n := m.Nights()
			for d := m.First(); d.Before(m.Next().First()); d = d.AddDays(1) {
				if closed[d] && !booked[p.ID][d] {
					n--
				}
			}
			a.months[mi].NightsAvailable = n
		}
	}

	figures := make(map[int64][]Figures, len(props))
	for id, a := range props {
		figures[id] = a.months
	}
	if err := collect(in, figures, index); err != nil {
		return nil, err
	}

	r := &Report{Currency: in.Currency, Span: in.Span, Months: make([]MonthFigures, len(months)), TaxTotals: []TaxLine{},
		Taxes: []TaxRow{}, Properties: make([]PropertyReport, 0, len(in.Properties))}
	for i, m := range months {
		r.Months[i].Month = m
	}
	totals := map[string]*TaxLine{}
	var totalOrder []string
	for _, p := range in.Properties {
		a := props[p.ID]
		pr := PropertyReport{ID: p.ID, Name: p.Name, Months: make([]MonthFigures, len(months))}
		for i, m := range months {
			pr.Months[i] = MonthFigures{Month: m, Figures: a.months[i]}
			pr.Total.add(a.months[i])
			r.Months[i].add(a.months[i])
			r.Total.add(a.months[i])
			for _, t := range sortedTaxes(a.taxes[i]) {
				r.Taxes = append(r.Taxes, TaxRow{Month: m, PropertyID: p.ID, PropertyName: p.Name, TaxLine: t})
				key := t.Code + "|" + boolKey(t.Inclusive)
				if totals[key] == nil {
					line := t
					line.Amount = decimal.Zero
					totals[key] = &line
					totalOrder = append(totalOrder, key)
				}
				totals[key].Amount = totals[key].Amount.Add(t.Amount)
			}
		}
		r.Properties = append(r.Properties, pr)
	}
	slices.Sort(totalOrder)
	for _, k := range totalOrder {
		r.TaxTotals = append(r.TaxTotals, *totals[k])
	}
	r.TouristTax, r.VAT = declarations(in)
	return r, nil
}

// collect adds the money that moved in the span to the figures of its
// booking's property and month (the package doc's revenue collected).
func collect(in Input, figures map[int64][]Figures, index map[Month]int) error {
	byBooking := map[int64][]Entry{}
	var order []int64
	for _, e := range in.Entries {
		if _, ok := byBooking[e.BookingID]; !ok {
			order = append(order, e.BookingID)
		}
		byBooking[e.BookingID] = append(byBooking[e.BookingID], e)
	}
	for _, id := range order {
		entries := byBooking[id]
		months := figures[entries[0].PropertyID]
		if months == nil {
			continue
		}
		claimed := map[string]bool{}
		for _, e := range entries {
			if e.Kind == ledger.KindDepositClaim && e.Status == ledger.StatusSucceeded {
				claimed[e.IntentID] = true
			}
		}
		slices.SortStableFunc(entries, func(a, b Entry) int {
			return cmp.Or(a.UpdatedAt.Compare(b.UpdatedAt), cmp.Compare(a.ID, b.ID))
		})
		received := map[string]int64{}
		for _, e := range entries {
			var moved int64
			if in, ok := e.ReceivedOn(); ok && !claimed[in] {
				moved = max(0, e.Amount-received[in])
				received[in] = max(received[in], e.Amount)
			} else if e.Kind == ledger.KindRefund && e.Status == ledger.StatusSucceeded && !claimed[e.IntentID] {
				moved = -e.Amount
			}
			if moved == 0 {
				continue
			}
			mi, ok := index[MonthOf(civil.Of(e.UpdatedAt.In(in.Location)))]
			if !ok {
				continue
			}
			if e.Currency != in.Currency {
				return currencyConflict(e.Currency, in.Currency)
			}
			months[mi].Collected = months[mi].Collected.Add(pricing.FromMinor(moved, in.Currency))
		}
	}
	return nil
}

// ReasonCurrency is the booking.ParamReason of the CodeConflict of a
// report over amounts in several currencies.
const ReasonCurrency = "currency"

func currencyConflict(got, want string) error {
	return &booking.Error{Code: booking.CodeConflict,
		Message: fmt.Sprintf("Amounts in %s cannot be added to amounts in %s, the organisation's currency.", got, want),
		Params:  map[string]string{booking.ParamReason: ReasonCurrency, "currency": got}}
}

func boolKey(b bool) string {
	if b {
		return "incl"
	}
	return "excl"
}

// sortedTaxes lists a month's taxes by code, exclusive first.
func sortedTaxes(m map[string]*TaxLine) []TaxLine {
	out := make([]TaxLine, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b TaxLine) int {
		return cmp.Or(cmp.Compare(a.Code, b.Code), cmp.Compare(boolKey(a.Inclusive), boolKey(b.Inclusive)))
	})
	return out
}

// night is one night of a stay with its shares of the stay's lines.
type night struct {
	date  civil.Date
	room  decimal.Decimal
	fees  decimal.Decimal
	taxes []TaxLine
}

// spreadStay splits a confirmed booking's quote over its nights: each
// night's price less its share of the discounts (in proportion to the
// prices), and its even share of the fees and of each tax.
func spreadStay(b *booking.Booking, currency string) []night {
	q := b.Quote
	n := b.Nights()
	if n <= 0 {
		return nil
	}
	out := make([]night, n)
	prices := make([]int64, n)
	if len(q.NightsDetail) == n {
		for i, nd := range q.NightsDetail {
			out[i].date = nd.Date
			prices[i] = minor(nd.Price, currency)
		}
	} else {
		// A quote without its nights: the accommodation spread evenly.
		even := spread(minor(q.Accommodation, currency), ones(n))
		for i := range out {
			out[i].date = b.CheckIn.AddDays(i)
			prices[i] = even[i]
		}
	}
	var discount, fees int64
	for _, l := range q.Discounts {
		discount += minor(l.Amount, currency)
	}
	for _, l := range q.Fees {
		fees += minor(l.Amount, currency)
	}
	discounts := spread(discount, prices)
	feeShares := spread(fees, ones(n))
	for i := range out {
		out[i].room = pricing.FromMinor(prices[i]-discounts[i], currency)
		out[i].fees = pricing.FromMinor(feeShares[i], currency)
	}
	taxLines := func(lines []pricing.Line, inclusive bool) {
		for _, l := range lines {
			shares := spread(minor(l.Amount, currency), ones(n))
			for i := range out {
				out[i].taxes = append(out[i].taxes, TaxLine{Code: l.Code, Label: l.Label, Labels: l.Labels, Inclusive: inclusive,
					Amount: pricing.FromMinor(shares[i], currency)})
			}
		}
	}
	taxLines(q.Taxes, false)
	taxLines(q.IncludedTaxes, true)
	return out
}

// minor is an amount in minor units, rounded to them first.
func minor(amount decimal.Decimal, currency string) int64 {
	return pricing.Round(amount, currency).Shift(pricing.MinorUnits(currency)).IntPart()
}

func ones(n int) []int64 {
	w := make([]int64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// spread splits total (minor units) in proportion to weights into whole
// shares that add up to total exactly: each share is rounded down, and
// what is left goes one unit at a time to the largest remainders, the
// earliest first. Without positive weight it splits evenly.
func spread(total int64, weights []int64) []int64 {
	out := make([]int64, len(weights))
	if len(weights) == 0 || total == 0 {
		return out
	}
	sign := int64(1)
	if total < 0 {
		sign, total = -1, -total
	}
	var sum int64
	for _, w := range weights {
		sum += max(w, 0)
	}
	if sum == 0 {
		weights, sum = ones(len(weights)), int64(len(weights))
	}
	type rem struct {
		i int
		r *big.Int
	}
	rems := make([]rem, len(weights))
	bt, bs := big.NewInt(total), big.NewInt(sum)
	left := total
	for i, w := range weights {
		q, r := new(big.Int).QuoRem(new(big.Int).Mul(bt, big.NewInt(max(w, 0))), bs, new(big.Int))
		out[i] = q.Int64()
		left -= out[i]
		rems[i] = rem{i, r}
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return b.r.Cmp(a.r) })
	for k := 0; left > 0; k = (k + 1) % len(rems) {
		out[rems[k].i]++
		left--
	}
	for i := range out {
		out[i] *= sign
	}
	return out
}
