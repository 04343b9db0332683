package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

func TestAvailability(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cal, err := e.svc.Availability(ctx, "demo", e.property["demo"], booking.CalendarRequest{From: civil.MustParse("2026-05-10"), Months: 3})
	if err != nil {
		t.Fatal(err)
	}
	if cal.From.String() != "2026-05-01" || cal.To.String() != "2026-07-31" || len(cal.Days) != 92 || cal.Currency != "EUR" {
		t.Fatalf("calendar %s..%s with %d days in %s", cal.From, cal.To, len(cal.Days), cal.Currency)
	}
	day := func(s string) booking.Day {
		d := civil.MustParse(s)
		return cal.Days[cal.From.DaysUntil(d)]
	}
	// Today is Monday 1 June; the owner blocks the nights of 20–22 June;
	// minimum stay 2, or 5 for check-ins in July.
	tests := []struct {
		date                         string
		available, checkIn, checkOut bool
		price                        string
		minStay                      int
	}{
		{"2026-05-31", false, false, false, "100", 2}, // past
		{"2026-06-01", true, true, false, "100", 2},   // today: bookable, nothing ends today
		{"2026-06-02", true, true, false, "100", 2},   // a stay from today would be 1 night
		{"2026-06-03", true, true, true, "100", 2},    // 1–3 June is 2 nights
		{"2026-06-05", true, true, true, "120", 2},    // Friday night
		{"2026-06-06", true, true, true, "120", 2},    // Saturday night
		{"2026-06-18", true, true, true, "100", 2},
		{"2026-06-19", true, false, true, "120", 2},  // 2 nights from here hit the block
		{"2026-06-20", false, false, true, "120", 2}, // blocked night; 18–20 ends here
		{"2026-06-22", false, false, false, "100", 2},
		{"2026-06-23", true, true, false, "100", 2}, // the night before is blocked
		{"2026-06-30", true, true, true, "100", 2},  // June check-in, runs into July
		{"2026-07-01", true, true, true, "150", 5},  // summer season
		{"2026-07-27", true, true, true, "150", 5},  // 27–31 July: 5 nights fit
	}
	for _, tt := range tests {
		d := day(tt.date)
		if d.Available != tt.available || d.CheckIn != tt.checkIn || d.CheckOut != tt.checkOut || !d.Price.Equal(dec(tt.price)) || d.MinStay != tt.minStay {
			t.Errorf("%s = available %v check-in %v check-out %v price %s min %d; want %v %v %v %s %d",
				tt.date, d.Available, d.CheckIn, d.CheckOut, d.Price, d.MinStay, tt.available, tt.checkIn, tt.checkOut, tt.price, tt.minStay)
		}
	}

	// A held stay shows as taken.
	if _, err := e.svc.Checkout(ctx, "demo", e.order("demo")); err != nil { // nights of 8–10 June
		t.Fatal(err)
	}
	cal, _ = e.svc.Availability(ctx, "demo", e.property["demo"], booking.CalendarRequest{})
	if got := cal.Days[7]; got.Date.String() != "2026-06-08" || got.Available || got.CheckIn || !got.CheckOut {
		t.Errorf("8 June after a booking = %+v; want taken, not a check-in, a check-out", got)
	}
	if len(cal.Days) != 365 {
		t.Errorf("default calendar has %d days, want 12 months = 365", len(cal.Days))
	}
}

func TestAvailabilityErrors(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	_, err := e.svc.Availability(ctx, "demo", e.property["demo"], booking.CalendarRequest{Months: 25})
	wantCode(t, err, booking.CodeInvalid)
	_, err = e.svc.Availability(ctx, "demo", e.property["demo-deposit"], booking.CalendarRequest{})
	wantCode(t, err, booking.CodeNotFound) // another organisation's property
	_, err = e.svc.Availability(ctx, "nope", e.property["demo"], booking.CalendarRequest{})
	wantCode(t, err, booking.CodeNotFound)
}

func TestQuoteStayRules(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	stay := func(in, out string, guests int) booking.Stay {
		return booking.Stay{CheckIn: civil.MustParse(in), CheckOut: civil.MustParse(out), Guests: guests}
	}
	tests := []struct {
		name string
		stay booking.Stay
		want string
	}{
		{"CheckInPast", stay("2026-05-31", "2026-06-03", 2), booking.CodeCheckInPast},
		{"CheckOutBeforeCheckIn", stay("2026-06-10", "2026-06-08", 2), booking.CodeInvalid},
		{"SameDay", stay("2026-06-10", "2026-06-10", 2), booking.CodeInvalid},
		{"NoGuests", stay("2026-06-08", "2026-06-11", 0), booking.CodeInvalid},
		{"ShorterThanOrgMinimum", stay("2026-06-08", "2026-06-09", 2), booking.CodeMinStay},
		{"ShorterThanSeasonMinimum", stay("2026-07-06", "2026-07-10", 2), booking.CodeMinStay},
		{"LongerThanMaximum", stay("2026-08-01", "2026-08-30", 2), booking.CodeMaxStay},
		{"TooManyGuests", stay("2026-06-08", "2026-06-11", 5), booking.CodeMaxGuests},
		{"Blocked", stay("2026-06-19", "2026-06-21", 2), booking.CodeUnavailable},
		{"CheckOutOnBlockStartOK", stay("2026-06-18", "2026-06-20", 2), ""},
		{"SeasonMinimumMetOK", stay("2026-07-06", "2026-07-11", 2), ""},
		{"MaximumOK", stay("2026-08-01", "2026-08-29", 2), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.svc.Quote(ctx, "demo", e.property["demo"], booking.QuoteRequest{Stay: tt.stay})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				return
			}
			wantCode(t, err, tt.want)
		})
	}
}

func TestQuoteWithCoupon(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	r.Guests = 3
	q, err := e.svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay, CouponCode: "welcome10"})
	if err != nil {
		t.Fatal(err)
	}
	// 3 nights × 100 = 300; WELCOME10 −30; cleaning 50; extra guest
	// 1 × 3 nights × 10 = 30; tax 3 guests × 3 nights × 1.50 = 13.50;
	// total 300 − 30 + 50 + 30 + 13.50 = 363.50.
	if !q.Total.Equal(dec("363.50")) || q.CouponCode != "WELCOME10" || len(q.Discounts) != 1 || !q.Discounts[0].Amount.Equal(dec("30")) {
		t.Fatalf("quote total %s coupon %q discounts %+v; want 363.50 with WELCOME10 −30", q.Total, q.CouponCode, q.Discounts)
	}
	_, err = e.svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay, CouponCode: "NOPE"})
	wantCode(t, err, booking.CodeCouponNotFound)
}

func TestValidateCoupon(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.ValidateCoupon(ctx, "demo", booking.CouponCheck{Code: " welcome10 "})
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != "WELCOME10" || res.Kind != pricing.DiscountPercent || !res.Value.Equal(dec("10")) || res.DiscountAmount != nil {
		t.Fatalf("code only = %+v; want WELCOME10 10%% without amount", res)
	}
	res, err = e.svc.ValidateCoupon(ctx, "demo", booking.CouponCheck{Code: "WELCOME10", PropertyID: e.property["demo"],
		CheckIn: civil.MustParse("2026-06-08"), CheckOut: civil.MustParse("2026-06-11"), Guests: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.DiscountAmount == nil || !res.DiscountAmount.Equal(dec("30")) { // 10 % of 300
		t.Fatalf("with a stay = %+v; want discount 30", res)
	}
	_, err = e.svc.ValidateCoupon(ctx, "demo", booking.CouponCheck{})
	wantCode(t, err, booking.CodeInvalid)
	_, err = e.svc.ValidateCoupon(ctx, "demo", booking.CouponCheck{Code: "MISSING"})
	wantCode(t, err, booking.CodeCouponNotFound)
}

func TestPropertiesAndConfig(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	list, err := e.svc.Properties(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || !list[0].PriceFrom.Equal(dec("100")) || list[0].MinStayNights != 2 || list[0].MaxStayNights != 28 {
		t.Fatalf("properties = %+v; want the villa from 100, stays 2–28", list)
	}
	cfg, err := e.svc.Config(ctx, "demo-deposit")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Organization.PaymentMode != pricing.ModeDeposit || cfg.PaymentPublicKey == "" {
		t.Fatalf("config = %+v", cfg)
	}
	org, _ := e.store.OrganizationBySlug(ctx, "demo")
	org.PublicEngineEnabled = false
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	_, err = e.svc.Config(ctx, "demo")
	wantCode(t, err, booking.CodeNotFound)
	_, err = e.svc.Config(ctx, "Not A Slug")
	wantCode(t, err, booking.CodeNotFound)
}

func TestRequestHoldNeverOutlivesAuthorisation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, _ := e.store.OrganizationBySlug(ctx, "demo-request")
	org.RequestHoldHours = booking.MaxAuthorizationHours // 7 days
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	res, err := e.svc.Checkout(ctx, "demo-request", e.order("demo-request"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(10 * time.Minute) // the guest authorises 10 minutes after the intent was made
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	d, err := e.svc.Confirm(ctx, "demo-request", res.Booking.Token, booking.ConfirmRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// The authorisation was made 10 minutes after `start` and lasts 7 days
	// (the intent's CaptureBefore, as the card network set it); the hold
	// ends an hour before that.
	if want := start.Add(10*time.Minute + 7*24*time.Hour - time.Hour); !d.Booking.ExpiresAt.Equal(want) {
		t.Errorf("request hold ends %v, want %v", d.Booking.ExpiresAt, want)
	}
}

func TestCheckoutValidation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	r := e.order("demo")
	r.GuestName, r.GuestEmail, r.GuestPhone, r.Locale = " ", "camille@", "06 12", "de"
	_, err := e.svc.Checkout(ctx, "demo", r)
	var be *booking.Error
	wantCode(t, err, booking.CodeInvalid)
	if !errorsAs(err, &be) || len(be.Fields["guest_name"]) == 0 || len(be.Fields["guest_email"]) == 0 || len(be.Fields["guest_phone"]) == 0 || len(be.Fields["locale"]) == 0 {
		t.Fatalf("fields = %v; want guest_name, guest_email, guest_phone, locale", be.Fields)
	}
}
