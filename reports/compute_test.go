package reports_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/reports"
)

var paris, _ = time.LoadLocation("Europe/Paris")

func day(s string) civil.Date           { return civil.MustParse(s) }
func dec(s string) decimal.Decimal      { return decimal.RequireFromString(s) }
func month(s string) reports.Month      { m, _ := reports.ParseMonth(s); return m }
func span(from, to string) reports.Span { return reports.Span{From: month(from), To: month(to)} }

// stay is a booking of property 1 for [in, out) at price a night, with
// the quote's other lines.
type stay struct {
	id       int64
	prop     int64
	status   booking.Status
	in, out  string
	prices   []string // one per night; empty: 100 each
	discount string
	fees     string
	taxes    []pricing.Line
	included []pricing.Line
	currency string
}

func (s stay) booking() booking.Booking {
	ci, co := day(s.in), day(s.out)
	q := pricing.Quote{CheckIn: ci, CheckOut: co, Nights: ci.DaysUntil(co), Currency: "EUR", Taxes: s.taxes, IncludedTaxes: s.included}
	for i := range q.Nights {
		p := dec("100")
		if len(s.prices) > 0 {
			p = dec(s.prices[i])
		}
		q.NightsDetail = append(q.NightsDetail, pricing.Night{Date: ci.AddDays(i), Price: p})
		q.Accommodation = q.Accommodation.Add(p)
	}
	if s.discount != "" {
		q.Discounts = []pricing.Line{{Code: pricing.LineWeeklyDiscount, Amount: dec(s.discount)}}
	}
	if s.fees != "" {
		q.Fees = []pricing.Line{{Code: pricing.LineCleaningFee, Amount: dec(s.fees)}}
	}
	b := booking.Booking{ID: s.id, OrgID: 1, PropertyID: s.prop, Status: s.status, CheckIn: ci, CheckOut: co, Currency: "EUR", Quote: q}
	if b.PropertyID == 0 {
		b.PropertyID = 1
	}
	if b.Status == "" {
		b.Status = booking.StatusConfirmed
	}
	if s.currency != "" {
		b.Currency = s.currency
	}
	return b
}

func input(sp reports.Span, stays ...stay) reports.Input {
	in := reports.Input{Currency: "EUR", Location: paris, Span: sp,
		Properties: []booking.Property{{ID: 1, Name: "Soleil"}, {ID: 2, Name: "Mistral"}}}
	for _, s := range stays {
		in.Bookings = append(in.Bookings, s.booking())
	}
	return in
}

// monthOf is property prop's figures of month m in r.
func monthOf(t *testing.T, r *reports.Report, prop int64, m string) reports.Figures {
	t.Helper()
	for _, p := range r.Properties {
		if p.ID != prop {
			continue
		}
		for _, mf := range p.Months {
			if mf.Month == month(m) {
				return mf.Figures
			}
		}
	}
	t.Fatalf("no figures for property %d in %s", prop, m)
	return reports.Figures{}
}

// want are expected figures; empty amounts are not checked.
type want struct {
	prop                           int64
	month                          string
	booked, available              int
	room, fees, cancelled, collect string
	occupancy, adr, revpar         string // "" = null
}

func check(t *testing.T, r *reports.Report, w want) {
	t.Helper()
	if w.prop == 0 {
		w.prop = 1
	}
	f := monthOf(t, r, w.prop, w.month)
	if f.NightsBooked != w.booked || f.NightsAvailable != w.available {
		t.Errorf("%s: nights booked/available = %d/%d, want %d/%d", w.month, f.NightsBooked, f.NightsAvailable, w.booked, w.available)
	}
	amounts := []struct {
		name string
		got  decimal.Decimal
		want string
	}{{"room revenue", f.RoomRevenue, w.room}, {"fees", f.Fees, w.fees}, {"cancellation revenue", f.CancellationRevenue, w.cancelled},
		{"collected", f.Collected, w.collect}}
	for _, a := range amounts {
		if a.want != "" && !a.got.Equal(dec(a.want)) {
			t.Errorf("%s: %s = %s, want %s", w.month, a.name, a.got, a.want)
		}
	}
	opt := func(name string, v decimal.Decimal, ok bool, want string) {
		switch {
		case want == "null" && ok:
			t.Errorf("%s: %s = %s, want null", w.month, name, v)
		case want != "null" && want != "" && (!ok || !v.Equal(dec(want))):
			t.Errorf("%s: %s = %s (%v), want %s", w.month, name, v, ok, want)
		}
	}
	occ, ok := f.Occupancy()
	opt("occupancy", occ, ok, w.occupancy)
	adr, ok := f.ADR("EUR")
	opt("ADR", adr, ok, w.adr)
	revpar, ok := f.RevPAR("EUR")
	opt("RevPAR", revpar, ok, w.revpar)
}

func entry(id, bookingID int64, kind ledger.Kind, status ledger.Status, intent string, amount int64, at string) reports.Entry {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		panic(err)
	}
	return reports.Entry{PropertyID: 1, Entry: ledger.Entry{ID: id, BookingID: bookingID, Kind: kind, Status: status, IntentID: intent,
		Amount: amount, Currency: "EUR", CreatedAt: t, UpdatedAt: t}}
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name  string
		in    func() reports.Input
		wants []want
	}{
		{
			name: "NightsSplitAtMonthBoundary",
			in: func() reports.Input {
				return input(span("2026-04", "2026-05"), stay{id: 1, in: "2026-04-29", out: "2026-05-02", fees: "60"})
			},
			wants: []want{
				{month: "2026-04", booked: 2, available: 30, room: "200", fees: "40", occupancy: "6.7", adr: "100", revpar: "6.67"},
				{month: "2026-05", booked: 1, available: 31, room: "100", fees: "20", occupancy: "3.2", adr: "100", revpar: "3.23"},
			},
		},
		{
			name: "StayPartlyOutsideTheSpan",
			in: func() reports.Input {
				return input(span("2026-05", "2026-05"), stay{id: 1, in: "2026-04-29", out: "2026-05-02", fees: "60"})
			},
			wants: []want{{month: "2026-05", booked: 1, available: 31, room: "100", fees: "20"}},
		},
		{
			name: "DiscountsFollowPricesFeesAreEven",
			in: func() reports.Input {
				return input(span("2026-04", "2026-05"), stay{id: 1, in: "2026-04-30", out: "2026-05-03", prices: []string{"100", "200", "100"},
					discount: "40", fees: "10"})
			},
			// discount 40 over 100/200/100 → 10/20/10; fees 10 → 3.34/3.33/3.33.
			wants: []want{
				{month: "2026-04", booked: 1, available: 30, room: "90", fees: "3.34", adr: "90"},
				{month: "2026-05", booked: 2, available: 31, room: "270", fees: "6.66", adr: "135"},
			},
		},
		{
			name: "RemainderGoesToTheEarliestNight",
			in: func() reports.Input {
				return input(span("2026-04", "2026-05"), stay{id: 1, in: "2026-04-30", out: "2026-05-02", discount: "0.01"})
			},
			wants: []want{{month: "2026-04", booked: 1, room: "99.99", available: 30}, {month: "2026-05", booked: 1, room: "100", available: 31}},
		},
		{
			name: "CancelledCountsOnlyWhatItKept",
			in: func() reports.Input {
				in := input(span("2026-05", "2026-05"), stay{id: 7, status: booking.StatusCancelled, in: "2026-05-10", out: "2026-05-12"})
				in.Ledgers = map[int64][]ledger.Entry{7: {
					{Kind: ledger.KindCharge, Status: ledger.StatusSucceeded, IntentID: "pi_7", Amount: 20000, Currency: "EUR"},
					{Kind: ledger.KindDecision, Status: ledger.StatusSucceeded, Amount: 5000, Currency: "EUR"},
				}}
				return in
			},
			wants: []want{{month: "2026-05", booked: 0, available: 31, room: "0", cancelled: "50", occupancy: "0", adr: "null", revpar: "0"}},
		},
		{
			name: "CancelledWithoutDecisionKeepsNothing",
			in: func() reports.Input {
				return input(span("2026-05", "2026-05"), stay{id: 7, status: booking.StatusCancelled, in: "2026-05-10", out: "2026-05-12"})
			},
			wants: []want{{month: "2026-05", booked: 0, available: 31, cancelled: "0"}},
		},
		{
			name: "OnlyConfirmedStaysCount",
			in: func() reports.Input {
				return input(span("2026-05", "2026-05"),
					stay{id: 1, status: booking.StatusPending, in: "2026-05-01", out: "2026-05-03"},
					stay{id: 2, status: booking.StatusRequested, in: "2026-05-03", out: "2026-05-05"},
					stay{id: 3, status: booking.StatusExpired, in: "2026-05-05", out: "2026-05-07"},
					stay{id: 4, status: booking.StatusDeclined, in: "2026-05-07", out: "2026-05-09"},
					stay{id: 5, in: "2026-05-20", out: "2026-05-21"})
			},
			wants: []want{{month: "2026-05", booked: 1, available: 31, room: "100"}},
		},
		{
			name: "ClosedNightsAndBlocksAreNotAvailable",
			in: func() reports.Input {
				in := input(span("2026-05", "2026-05"), stay{id: 1, in: "2026-05-20", out: "2026-05-21"})
				in.Closed = map[int64][]civil.Date{1: {day("2026-05-03"), day("2026-05-20")}}
				in.Properties[0].Blocks = []booking.Block{{Start: day("2026-05-30"), End: day("2026-06-04")}}
				return in
			},
			// 31 − 3 May − 30 and 31 May (the block); 20 May is booked.
			wants: []want{{month: "2026-05", booked: 1, available: 28, occupancy: "3.6", revpar: "3.57"}},
		},
		{
			name: "WholeMonthClosed",
			in: func() reports.Input {
				in := input(span("2026-05", "2026-05"))
				in.Properties[0].Blocks = []booking.Block{{Start: day("2026-04-20"), End: day("2026-06-01")}}
				return in
			},
			wants: []want{{month: "2026-05", booked: 0, available: 0, occupancy: "null", adr: "null", revpar: "null"}},
		},
		{
			name: "CollectedIsReceivedLessRefundedWhenItMoved",
			in: func() reports.Input {
				in := input(span("2026-04", "2026-05"))
				in.Entries = []reports.Entry{
					// Received before the span: not collected in it, but the
					// intent's receipt is known.
					entry(1, 9, ledger.KindCharge, ledger.StatusSucceeded, "pi_old", 10000, "2026-03-20T10:00:00Z"),
					entry(2, 9, ledger.KindBalance, ledger.StatusSucceeded, "", 0, "2026-04-02T10:00:00Z"),
					entry(3, 10, ledger.KindCharge, ledger.StatusSucceeded, "pi_a", 20000, "2026-04-10T10:00:00Z"),
					// 30 April 22:30 UTC is 1 May in Paris.
					entry(4, 10, ledger.KindRefund, ledger.StatusSucceeded, "pi_a", 5000, "2026-04-30T22:30:00Z"),
					entry(5, 10, ledger.KindRefund, ledger.StatusPending, "pi_a", 1000, "2026-05-03T10:00:00Z"),
					entry(6, 10, ledger.KindRefund, ledger.StatusFailed, "pi_a", 700, "2026-05-03T10:00:00Z"),
					// The same money recorded twice for one intent.
					entry(7, 10, ledger.KindCharge, ledger.StatusSucceeded, "pi_a", 20000, "2026-05-05T10:00:00Z"),
					// A claimed security deposit is not revenue.
					entry(8, 10, ledger.KindDepositClaim, ledger.StatusSucceeded, "pi_dep", 3000, "2026-05-06T10:00:00Z"),
					entry(9, 10, ledger.KindDispute, ledger.StatusSucceeded, "pi_a", 2000, "2026-05-07T10:00:00Z"),
					// Money after the span.
					entry(10, 9, ledger.KindRefund, ledger.StatusSucceeded, "pi_old", 4000, "2026-06-01T10:00:00Z"),
				}
				return in
			},
			wants: []want{{month: "2026-04", available: 30, collect: "200"}, {month: "2026-05", available: 31, collect: "-50"}},
		},
		{
			name: "BalanceIsReceivedOnItsOwnIntent",
			in: func() reports.Input {
				in := input(span("2026-05", "2026-05"))
				bal := entry(2, 9, ledger.KindBalance, ledger.StatusSucceeded, "pi_dep", 7000, "2026-05-12T10:00:00Z")
				bal.ProviderID = "pi_bal"
				in.Entries = []reports.Entry{entry(1, 9, ledger.KindCharge, ledger.StatusSucceeded, "pi_dep", 3000, "2026-05-02T10:00:00Z"), bal}
				return in
			},
			wants: []want{{month: "2026-05", available: 31, collect: "100"}},
		},
		{
			name: "OtherPropertyApart",
			in: func() reports.Input {
				return input(span("2026-05", "2026-05"), stay{id: 1, prop: 2, in: "2026-05-01", out: "2026-05-04", prices: []string{"80", "80", "80"}})
			},
			wants: []want{{prop: 1, month: "2026-05", booked: 0, available: 31, room: "0"},
				{prop: 2, month: "2026-05", booked: 3, available: 31, room: "240", adr: "80"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := reports.Compute(tt.in())
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.wants {
				check(t, r, w)
			}
		})
	}
}

func TestComputeTotals(t *testing.T) {
	in := input(span("2026-04", "2026-05"),
		stay{id: 1, in: "2026-04-29", out: "2026-05-02", fees: "30"},
		stay{id: 2, prop: 2, in: "2026-05-10", out: "2026-05-12", prices: []string{"50", "70"}})
	r, err := reports.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	// All properties, per month: April 2 of 60 nights, May 3 of 62.
	if got := r.Months[1].Figures; got.NightsBooked != 3 || got.NightsAvailable != 62 || !got.RoomRevenue.Equal(dec("220")) {
		t.Errorf("May, all properties = %+v, want 3 of 62 nights, 220 room revenue", got)
	}
	if got := r.Total; got.NightsBooked != 5 || got.NightsAvailable != 122 || !got.RevenueBooked().Equal(dec("450")) {
		t.Errorf("total = %+v (booked %s), want 5 of 122 nights, 450 booked", got, got.RevenueBooked())
	}
	// The total's occupancy is of the summed nights: 5/122, not the mean
	// of the months' percents.
	if occ, _ := r.Total.Occupancy(); !occ.Equal(dec("4.1")) {
		t.Errorf("total occupancy = %s, want 4.1", occ)
	}
	if adr, _ := r.Total.ADR("EUR"); !adr.Equal(dec("84")) {
		t.Errorf("total ADR = %s, want 84 (420 / 5)", adr)
	}
	if got := r.Properties[0].Total; got.NightsBooked != 3 || !got.Fees.Equal(dec("30")) {
		t.Errorf("Soleil's total = %+v, want 3 nights and 30 of fees", got)
	}
}

func TestComputeTaxes(t *testing.T) {
	tourist := pricing.Line{Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: dec("6.00")}
	vat := pricing.Line{Code: "vat", Label: "VAT", Labels: map[string]string{"fr": "TVA", "en": "VAT"}, Amount: dec("20")}
	in := input(span("2026-04", "2026-05"),
		stay{id: 1, in: "2026-04-29", out: "2026-05-02", taxes: []pricing.Line{tourist}, included: []pricing.Line{vat}},
		stay{id: 2, status: booking.StatusCancelled, in: "2026-05-10", out: "2026-05-12", taxes: []pricing.Line{tourist}})
	r, err := reports.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		month, code string
		inclusive   bool
		amount      string
	}
	var got []row
	for _, tr := range r.Taxes {
		got = append(got, row{tr.Month.String(), tr.Code, tr.Inclusive, tr.Amount.String()})
	}
	want := []row{
		{"2026-04", "tourist_tax", false, "4"}, {"2026-04", "vat", true, "13.34"},
		{"2026-05", "tourist_tax", false, "2"}, {"2026-05", "vat", true, "6.66"},
	}
	if len(got) != len(want) {
		t.Fatalf("tax rows = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tax row %d = %v, want %v", i, got[i], want[i])
		}
	}
	if len(r.TaxTotals) != 2 || !r.TaxTotals[0].Amount.Equal(dec("6")) || !r.TaxTotals[1].Amount.Equal(dec("20")) ||
		r.TaxTotals[1].Labels["fr"] != "TVA" {
		t.Errorf("tax totals = %+v, want tourist tax 6 and VAT 20 (labelled TVA in French)", r.TaxTotals)
	}
}

func TestComputeRefusesAnotherCurrency(t *testing.T) {
	tests := []struct {
		name string
		in   func() reports.Input
	}{
		{"Booking", func() reports.Input {
			return input(span("2026-05", "2026-05"), stay{id: 1, in: "2026-05-01", out: "2026-05-02", currency: "USD"})
		}},
		{"LedgerEntry", func() reports.Input {
			in := input(span("2026-05", "2026-05"))
			e := entry(1, 9, ledger.KindCharge, ledger.StatusSucceeded, "pi", 100, "2026-05-02T10:00:00Z")
			e.Currency = "USD"
			in.Entries = []reports.Entry{e}
			return in
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reports.Compute(tt.in())
			if booking.ErrorCode(err) != booking.CodeConflict {
				t.Fatalf("err = %v, want %s", err, booking.CodeConflict)
			}
		})
	}
}
