package storetest

import (
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// t0 is the suite's "now". Instants are whole milliseconds, the precision
// stores must keep.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// day parses a YYYY-MM-DD literal.
func day(s string) civil.Date { return civil.MustParse(s) }

// dec parses a decimal literal.
func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func intp(n int) *int { return &n }

// wantCode fails the test unless err carries the code want.
func wantCode(t *testing.T, err error, want string) {
	t.Helper()
	if got := booking.ErrorCode(err); got != want {
		t.Fatalf("error code = %q (err: %v), want %q", got, err, want)
	}
}

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// sameJSON fails the test unless got and want encode to the same JSON:
// a deep comparison in which decimals compare by value (1.50 = 1.5) and
// instants by their UTC text.
func sameJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	must(t, err)
	w, err := json.Marshal(want)
	must(t, err)
	if string(g) != string(w) {
		t.Fatalf("%s differs\n got: %s\nwant: %s", what, g, w)
	}
}

// orgFixture is an organisation with every setting away from its zero value.
func orgFixture(slug string) *booking.Organization {
	return &booking.Organization{
		Slug:                slug,
		Name:                "Villa " + slug,
		Logo:                "https://example.com/logo.png",
		PaymentMode:         pricing.ModeDeposit,
		DefaultLocale:       "en",
		Branding:            map[string]string{"primary_color": "#123456", "font": "Inter"},
		TermsURL:            "https://example.com/terms",
		MinStayNights:       intp(2),
		MaxStayNights:       intp(28),
		Currency:            "EUR",
		Timezone:            "Europe/Paris",
		DepositPercent:      dec("30.50"),
		BalanceDueDays:      14,
		HoldMinutes:         30,
		RequestHoldHours:    48,
		CustomDomain:        slug + ".example.com",
		AllowedOrigins:      []string{"https://a.example.com", "http://localhost:3000"},
		PublicEngineEnabled: true,
		Country:             "BE",
		BookingHorizonDays:  400,
	}
}

// newOrg stores an organisation fixture.
func newOrg(t *testing.T, s Stores, slug string) *booking.Organization {
	t.Helper()
	o := orgFixture(slug)
	must(t, s.CreateOrganization(t.Context(), o))
	if o.ID == 0 {
		t.Fatal("CreateOrganization left ID 0")
	}
	return o
}

// propertyFixture is a property of orgID with full rates, fees, tax and two
// blocks given out of order.
func propertyFixture(orgID int64) *booking.Property {
	weekend := dec("150.00")
	return &booking.Property{
		OrgID:         orgID,
		Name:          "Sea view",
		Description:   "Two rooms facing the sea.",
		Photos:        []string{"https://example.com/1.jpg", "https://example.com/2.jpg"},
		City:          "Nice",
		Country:       "FR",
		MaxGuests:     4,
		Bedrooms:      2,
		MinStayNights: intp(3),
		Active:        true,
		Rates: pricing.RatePlan{
			BaseRate:      dec("120.50"),
			WeekendRate:   &weekend,
			WeekendNights: []time.Weekday{time.Friday, time.Saturday},
			Seasons: []pricing.Season{{Name: "Summer", Start: day("2026-07-01"), End: day("2026-08-31"),
				Rate: dec("180"), MinStayNights: 7}},
			Overrides:              []pricing.DateOverride{{Date: day("2026-12-31"), Price: dec("300.00")}},
			WeeklyDiscountPercent:  dec("10"),
			MonthlyDiscountPercent: dec("20.5"),
		},
		Fees: pricing.Fees{Cleaning: dec("60.00"), ExtraGuest: dec("15.25"), GuestsIncluded: 2},
		Tax:  pricing.TouristTax{PerGuestPerNight: dec("2.30"), MaxNights: 7},
		Blocks: []booking.Block{
			{Start: day("2026-10-10"), End: day("2026-10-12"), Reason: "painting"},
			{Start: day("2026-09-01"), End: day("2026-09-05")},
		},
	}
}

// newProperty stores a property of orgID without blocks.
func newProperty(t *testing.T, s Stores, orgID int64) *booking.Property {
	t.Helper()
	p := propertyFixture(orgID)
	p.Blocks = nil
	must(t, s.CreateProperty(t.Context(), p))
	if p.ID == 0 {
		t.Fatal("CreateProperty left ID 0")
	}
	return p
}

// couponFixture is a coupon of orgID with every field set.
func couponFixture(orgID int64, code string, maxRedemptions int) *coupon.Coupon {
	return &coupon.Coupon{
		OrgID:          orgID,
		Code:           code,
		Label:          "Welcome offer",
		Kind:           pricing.DiscountPercent,
		Value:          dec("10.0"),
		Active:         true,
		ValidFrom:      day("2026-01-01"),
		ValidUntil:     day("2026-12-31"),
		StayFrom:       day("2026-02-01"),
		MinNights:      2,
		MinAmount:      dec("100.00"),
		MaxRedemptions: maxRedemptions,
		PropertyIDs:    []int64{7, 9},
	}
}

// newCoupon stores a coupon of orgID.
func newCoupon(t *testing.T, s Stores, orgID int64, code string, maxRedemptions int) *coupon.Coupon {
	t.Helper()
	c := couponFixture(orgID, code, maxRedemptions)
	must(t, s.CreateCoupon(t.Context(), c))
	return c
}

// token returns a fresh booking token.
func token() string { return rand.Text() }

// pendingFixture is a pending booking of a property for [in, out), created
// at t0 and held until t0 + 30 minutes, with a full quote.
func pendingFixture(p *booking.Property, in, out string) *booking.Booking {
	ci, co := day(in), day(out)
	nights := ci.DaysUntil(co)
	var detail []pricing.Night
	accommodation := decimal.Zero
	for i := range nights {
		detail = append(detail, pricing.Night{Date: ci.AddDays(i), Price: dec("120.50")})
		accommodation = accommodation.Add(dec("120.50"))
	}
	total := accommodation.Add(dec("60.00"))
	return &booking.Booking{
		OrgID:          p.OrgID,
		PropertyID:     p.ID,
		Token:          token(),
		Status:         booking.StatusPending,
		CheckIn:        ci,
		CheckOut:       co,
		Guests:         2,
		GuestName:      "Ada Lovelace",
		GuestEmail:     "ada@example.com",
		GuestPhone:     "+33612345678",
		Message:        "Late arrival",
		Locale:         "fr",
		Currency:       "EUR",
		PaymentMode:    pricing.ModeFull,
		TotalAmount:    total,
		ChargeAmount:   total,
		PaidAmount:     decimal.Zero,
		BalanceAmount:  decimal.Zero,
		BalanceDueDate: civil.Date{},
		Quote: pricing.Quote{
			CheckIn: ci, CheckOut: co, Nights: nights, Guests: 2, Currency: "EUR",
			NightsDetail:  detail,
			Accommodation: accommodation,
			Fees:          []pricing.Line{{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: dec("60.00")}},
			Total:         total,
			Mode:          pricing.ModeFull,
			Charge:        total,
			Balance:       decimal.Zero,
			CouponBase:    accommodation,
		},
		CreatedAt: t0,
		ExpiresAt: t0.Add(30 * time.Minute),
		UpdatedAt: t0,
	}
}

// create stores b with CreateOptions{Now: now}.
func create(t *testing.T, s Stores, b *booking.Booking, now time.Time) {
	t.Helper()
	must(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: now}))
	if b.ID == 0 {
		t.Fatal("CreateBooking left ID 0")
	}
}

// newPending stores a pending booking of p for [in, out) expiring at
// expires, created at t0.
func newPending(t *testing.T, s Stores, p *booking.Property, in, out string, expires time.Time) *booking.Booking {
	t.Helper()
	b := pendingFixture(p, in, out)
	b.ExpiresAt = expires
	create(t, s, b, t0)
	return b
}

// moveTo transitions b to status at t0, from whatever it is.
func moveTo(t *testing.T, s Stores, b *booking.Booking, status booking.Status) *booking.Booking {
	t.Helper()
	got, err := s.Transition(t.Context(), b.ID, booking.Transition{From: []booking.Status{b.Status}, To: status, At: t0})
	must(t, err)
	return got
}

// world is an organisation with one property, ready for bookings.
type world struct {
	org  *booking.Organization
	prop *booking.Property
}

func newWorld(t *testing.T, s Stores) world {
	t.Helper()
	o := newOrg(t, s, "villa")
	return world{org: o, prop: newProperty(t, s, o.ID)}
}

// ids returns the IDs of bookings, in order.
func ids(list []booking.Booking) []int64 {
	out := make([]int64, 0, len(list))
	for _, b := range list {
		out = append(out, b.ID)
	}
	return out
}
