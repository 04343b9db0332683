package booking_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/pricing"
)

func TestOrganizationValidate(t *testing.T) {
	valid := booking.Organization{Slug: "villa-soleil", Name: "Villa Soleil"}.WithDefaults()
	tests := []struct {
		name  string
		edit  func(o *booking.Organization)
		field string // "" = valid
	}{
		{"DefaultsOK", func(*booking.Organization) {}, ""},
		{"SlugUpperCase", func(o *booking.Organization) { o.Slug = "Villa" }, "slug"},
		{"SlugLeadingDash", func(o *booking.Organization) { o.Slug = "-villa" }, "slug"},
		{"NameMissing", func(o *booking.Organization) { o.Name = "" }, "name"},
		{"ModeUnknown", func(o *booking.Organization) { o.PaymentMode = "later" }, "payment_mode"},
		{"LocaleUnknown", func(o *booking.Organization) { o.DefaultLocale = "de" }, "default_locale"},
		{"CurrencyUnknown", func(o *booking.Organization) { o.Currency = "XYZ" }, "currency"},
		{"TimezoneUnknown", func(o *booking.Organization) { o.Timezone = "Mars/Olympus" }, "timezone"},
		{"DepositWithoutPercent", func(o *booking.Organization) { o.PaymentMode = pricing.ModeDeposit }, "deposit_percent"},
		{"DepositOver100", func(o *booking.Organization) { o.DepositPercent = dec("101") }, "deposit_percent"},
		{"RequestHoldPastAuthorisation", func(o *booking.Organization) { o.RequestHoldHours = 169 }, "request_hold_hours"},
		{"MaxBelowMin", func(o *booking.Organization) { o.MinStayNights, o.MaxStayNights = ptr(5), ptr(3) }, "max_stay_nights"},
		{"CountryOK", func(o *booking.Organization) { o.Country = "GB" }, ""},
		{"CountryLowerCase", func(o *booking.Organization) { o.Country = "fr" }, "country"},
		{"CountryUnknown", func(o *booking.Organization) { o.Country = "ZZ" }, "country"},
		{"CountryNotAlpha2", func(o *booking.Organization) { o.Country = "FRA" }, "country"},
		// Unset means the default, so organisations stored before these
		// settings existed stay valid.
		{"CountryUnsetMeansDefault", func(o *booking.Organization) { o.Country = "" }, ""},
		{"HorizonUnsetMeansDefault", func(o *booking.Organization) { o.BookingHorizonDays = 0 }, ""},
		{"HorizonNegative", func(o *booking.Organization) { o.BookingHorizonDays = -1 }, "booking_horizon_days"},
		{"HorizonTooFar", func(o *booking.Organization) { o.BookingHorizonDays = booking.MaxBookingHorizonDays + 1 }, "booking_horizon_days"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := valid
			tt.edit(&o)
			checkFieldError(t, o.Validate(), tt.field)
		})
	}
}

func TestPropertyValidate(t *testing.T) {
	valid := booking.Property{Name: "Loft", MaxGuests: 2, Rates: pricing.RatePlan{BaseRate: dec("80")}}
	tests := []struct {
		name  string
		edit  func(p *booking.Property)
		field string
	}{
		{"OK", func(*booking.Property) {}, ""},
		{"NoName", func(p *booking.Property) { p.Name = "" }, "name"},
		{"NoGuests", func(p *booking.Property) { p.MaxGuests = 0 }, "max_guests"},
		{"NegativeRate", func(p *booking.Property) { p.Rates.BaseRate = dec("-1") }, "rates"},
		{"NegativeCleaning", func(p *booking.Property) { p.Fees.Cleaning = dec("-5") }, "fees"},
		{"NegativeTax", func(p *booking.Property) { p.Tax.PerGuestPerNight = dec("-0.5") }, "tax"},
		{"EmptyBlock", func(p *booking.Property) {
			p.Blocks = []booking.Block{{Start: civil.MustParse("2026-07-01"), End: civil.MustParse("2026-07-01")}}
		}, "blocks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := valid
			tt.edit(&p)
			checkFieldError(t, p.Validate(), tt.field)
		})
	}
}

func checkFieldError(t *testing.T, err error, field string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	var e *booking.Error
	if !errorsAs(err, &e) || e.Code != booking.CodeInvalid || len(e.Fields[field]) == 0 {
		t.Fatalf("err = %v, want invalid %s", err, field)
	}
}

func TestHoldsDates(t *testing.T) {
	now := start
	tests := []struct {
		status  booking.Status
		expires time.Time
		want    bool
	}{
		{booking.StatusPending, now.Add(time.Minute), true},
		{booking.StatusPending, now, false}, // lapses at ExpiresAt itself
		{booking.StatusRequested, now.Add(-time.Hour), true},
		{booking.StatusConfirmed, time.Time{}, true},
		{booking.StatusExpired, now.Add(time.Hour), false},
		{booking.StatusDeclined, time.Time{}, false},
		{booking.StatusCancelled, time.Time{}, false},
	}
	for _, tt := range tests {
		b := booking.Booking{Status: tt.status, ExpiresAt: tt.expires}
		if got := b.HoldsDates(now); got != tt.want {
			t.Errorf("%s expiring %v: HoldsDates = %v, want %v", tt.status, tt.expires, got, tt.want)
		}
	}
}

func TestQuoteRefusesInvalidCoupon(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, _ := e.store.OrganizationBySlug(ctx, "demo")
	expired := coupon.Coupon{OrgID: org.ID, Code: "GONE", Kind: pricing.DiscountFixed, Value: dec("20"), Active: true,
		ValidUntil: civil.MustParse("2026-05-31")}
	if err := e.store.CreateCoupon(ctx, &expired); err != nil {
		t.Fatal(err)
	}
	r := e.order("demo")
	_, err := e.svc.Quote(ctx, "demo", r.PropertyID, booking.QuoteRequest{Stay: r.Stay, CouponCode: "gone"})
	wantCode(t, err, coupon.CodeExpired)
	var be *booking.Error
	if errorsAs(err, &be); be.Params["date"] != "2026-05-31" || len(be.Fields["coupon_code"]) == 0 {
		t.Errorf("expired coupon error = %+v; want the date and a coupon_code field", be)
	}
	// A checkout with the single-use coupon held by someone else is refused too.
	r.CouponCode = "LAST1"
	if _, err := e.svc.Checkout(ctx, "demo", r); err != nil {
		t.Fatal(err)
	}
	other := e.order("demo")
	other.Stay.CheckIn, other.Stay.CheckOut = civil.MustParse("2026-06-15"), civil.MustParse("2026-06-17")
	other.CouponCode = "LAST1"
	_, err = e.svc.Checkout(ctx, "demo", other)
	wantCode(t, err, coupon.CodeExhausted)
}

func TestConfirmIdempotencyKey(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	first := booking.ConfirmRequest{PaymentIntentID: res.Booking.PaymentIntentID, IdempotencyKey: "confirm-1"}
	for range 2 {
		d, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, first)
		if err != nil || d.Booking.Status != booking.StatusConfirmed {
			t.Fatalf("confirm with key = %v, %v", d, err)
		}
	}
	_, err := e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{IdempotencyKey: "confirm-1"})
	wantCode(t, err, booking.CodeConflict)
	_, err = e.svc.Confirm(ctx, "demo", res.Booking.Token, booking.ConfirmRequest{PaymentIntentID: "pi_someone_else"})
	wantCode(t, err, booking.CodeInvalid)
}

func TestCanceledIntentEventExpiresHold(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	if _, err := e.pay.SimulateCanceled(res.Booking.PaymentIntentID); err != nil {
		t.Fatal(err)
	}
	ev, _ := e.pay.Event(payment.EventCanceled, res.Booking.PaymentIntentID)
	if err := e.money.HandlePaymentEvent(ctx, *ev); err != nil {
		t.Fatal(err)
	}
	if got := e.status(t, "demo", res.Booking.Token); got != booking.StatusExpired {
		t.Fatalf("status after a cancelled intent = %s, want expired", got)
	}
	if got := e.notified.Kinds(res.Booking.Token); !slices.Equal(got, []string{booking.NotifyExpired}) {
		t.Errorf("notifications = %v", got)
	}
	// A failed attempt leaves the hold so the guest can try another card.
	res2, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulateDeclined(res2.Booking.PaymentIntentID)
	failed, _ := e.pay.Event(payment.EventFailed, res2.Booking.PaymentIntentID)
	if err := e.money.HandlePaymentEvent(ctx, *failed); err != nil {
		t.Fatal(err)
	}
	if got := e.status(t, "demo", res2.Booking.Token); got != booking.StatusPending {
		t.Errorf("status after a declined card = %s, want pending", got)
	}
}

func TestWebhookWithBadSignatureIsInvalid(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, _ := e.svc.Checkout(ctx, "demo", e.order("demo"))
	e.pay.SimulatePaid(res.Booking.PaymentIntentID)
	payload, sig, err := e.pay.SignedWebhook(payment.EventSucceeded, res.Booking.PaymentIntentID)
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, e.money.HandleWebhook(ctx, payload, sig+"0"), booking.CodeInvalid)
	if err := e.money.HandleWebhook(ctx, payload, sig); err != nil {
		t.Fatal(err)
	}
	if got := e.status(t, "demo", res.Booking.Token); got != booking.StatusConfirmed {
		t.Fatalf("status = %s, want confirmed", got)
	}
}

func TestOrganizationDefaultsCountryAndHorizon(t *testing.T) {
	o := booking.Organization{}.WithDefaults()
	if o.Country != "FR" || o.BookingHorizonDays != 730 {
		t.Errorf("Country, BookingHorizonDays = %q, %d; want FR, 730", o.Country, o.BookingHorizonDays)
	}
}

// TestCheckoutGuestDetails: what validate refuses in a guest's details and
// the form it stores them in. The organisation is in France.
func TestCheckoutGuestDetails(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(r *booking.CheckoutRequest)
		field string // "" = accepted
		code  string
		phone string // stored phone when accepted
	}{
		{"E164", func(r *booking.CheckoutRequest) { r.GuestPhone = "+33612345678" }, "", "", "+33612345678"},
		{"NationalFrench", func(r *booking.CheckoutRequest) { r.GuestPhone = "06 12 34 56 78" }, "", "", "+33612345678"},
		{"NationalWithParentheses", func(r *booking.CheckoutRequest) { r.GuestPhone = "(0)6-12-34-56-78" }, "", "", "+33612345678"},
		{"ForeignE164", func(r *booking.CheckoutRequest) { r.GuestPhone = "+49 30 901820" }, "", "", "+4930901820"},
		{"PhoneTooShort", func(r *booking.CheckoutRequest) { r.GuestPhone = "06 12" }, "guest_phone", "invalid_phone", ""},
		{"PhoneTwoPlus", func(r *booking.CheckoutRequest) { r.GuestPhone = "++33612345678" }, "guest_phone", "invalid_phone", ""},
		{"PhoneESC", func(r *booking.CheckoutRequest) { r.GuestPhone = "+336\x1b12345678" }, "guest_phone", "invalid_characters", ""},
		{"NameBidiOverride", func(r *booking.CheckoutRequest) { r.GuestName = "Camille \u202eniloM" }, "guest_name", "invalid_characters", ""},
		{"NameZeroWidthJoinerLikeFormat", func(r *booking.CheckoutRequest) { r.GuestName = "Camille\u2067" }, "guest_name", "invalid_characters", ""},
		{"NameNEL", func(r *booking.CheckoutRequest) { r.GuestName = "Camille\u0085" }, "guest_name", "invalid_characters", ""},
		{"NameAccentsOK", func(r *booking.CheckoutRequest) { r.GuestName = "Camille Hélène D'Aubigné" }, "", "", "+33612345678"},
		{"EmailNUL", func(r *booking.CheckoutRequest) { r.GuestEmail = "camille\x00@example.com" }, "guest_email", "invalid_characters", ""},
		{"EmailAt254", func(r *booking.CheckoutRequest) {
			r.GuestEmail = strings.Repeat("c", 64) + "@" + strings.Repeat("d", 185) + ".com"
		}, "", "", "+33612345678"},
		{"EmailAt255", func(r *booking.CheckoutRequest) {
			r.GuestEmail = strings.Repeat("c", 64) + "@" + strings.Repeat("d", 186) + ".com"
		}, "guest_email", "too_long", ""},
		{"MessageLineBreaksOK", func(r *booking.CheckoutRequest) { r.Message = "a\nb\r\n\tc" }, "", "", "+33612345678"},
		{"MessageC1", func(r *booking.CheckoutRequest) { r.Message = "a\u009bb" }, "message", "invalid_characters", ""},
		{"MessageRLM", func(r *booking.CheckoutRequest) { r.Message = "a\u200fb" }, "message", "invalid_characters", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			r := e.order("demo")
			r.GuestPhone = "+33612345678"
			tt.edit(&r)
			res, err := e.svc.Checkout(context.Background(), "demo", r)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if res.Booking.GuestPhone != tt.phone {
					t.Errorf("stored phone = %q, want %q", res.Booking.GuestPhone, tt.phone)
				}
				return
			}
			var be *booking.Error
			if !errorsAs(err, &be) || be.Code != booking.CodeInvalid || !slices.Equal(be.Fields[tt.field], []string{tt.code}) {
				t.Fatalf("err = %v, want invalid %s: %s", err, tt.field, tt.code)
			}
		})
	}
}

// TestStayRulesOfTheHorizon: a stay may end on today + BookingHorizonDays,
// not a day later, at quote, checkout and coupon validation alike.
func TestStayRulesOfTheHorizon(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	today := civil.Today(e.clock.Now(), booking.Organization{Timezone: booking.DefaultTimezone}.Location())
	last := today.AddDays(booking.DefaultBookingHorizonDays)
	ok := booking.Stay{CheckIn: last.AddDays(-3), CheckOut: last, Guests: 2}
	if _, err := e.svc.Quote(ctx, "demo", e.property["demo"], booking.QuoteRequest{Stay: ok}); err != nil {
		t.Fatalf("quote ending on the horizon: %v", err)
	}
	late := booking.Stay{CheckIn: last.AddDays(-2), CheckOut: last.AddDays(1), Guests: 2}
	_, err := e.svc.Quote(ctx, "demo", e.property["demo"], booking.QuoteRequest{Stay: late})
	wantCode(t, err, booking.CodeBeyondHorizon)
	r := e.order("demo")
	r.Stay = late
	_, err = e.svc.Checkout(ctx, "demo", r)
	wantCode(t, err, booking.CodeBeyondHorizon)
	_, err = e.svc.ValidateCoupon(ctx, "demo", booking.CouponCheck{Code: "WELCOME10", CheckIn: late.CheckIn, CheckOut: late.CheckOut})
	wantCode(t, err, booking.CodeBeyondHorizon)
}

// TestValidateCouponAppliesStayRules: a stay given to ValidateCoupon obeys
// the rules of a quote.
func TestValidateCouponAppliesStayRules(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	in, out := civil.MustParse("2026-06-08"), civil.MustParse("2026-06-11")
	tests := []struct {
		name  string
		check booking.CouponCheck
		code  string
	}{
		{"NegativeGuests", booking.CouponCheck{Guests: -1}, booking.CodeInvalid},
		{"TooManyGuests", booking.CouponCheck{CheckIn: in, CheckOut: out, Guests: 5, PropertyID: -1}, booking.CodeMaxGuests},
		{"CheckOutMissing", booking.CouponCheck{CheckIn: in}, booking.CodeInvalid},
		{"Reversed", booking.CouponCheck{CheckIn: out, CheckOut: in}, booking.CodeInvalid},
		{"Past", booking.CouponCheck{CheckIn: civil.MustParse("2026-01-01"), CheckOut: civil.MustParse("2026-01-04")}, booking.CodeCheckInPast},
		{"TooShort", booking.CouponCheck{CheckIn: in, CheckOut: in.AddDays(1), PropertyID: -1}, booking.CodeMinStay},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check
			c.Code = "WELCOME10"
			if c.PropertyID == -1 {
				c.PropertyID = e.property["demo"]
			}
			_, err := e.svc.ValidateCoupon(ctx, "demo", c)
			wantCode(t, err, tt.code)
		})
	}
}

// TestUnsetCountryAndHorizonMeanTheDefaults: an organisation stored before
// Country and BookingHorizonDays existed (or by an embedder that sets
// neither) reads national numbers as French and keeps the two-year
// horizon.
func TestUnsetCountryAndHorizonMeanTheDefaults(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, err := e.store.OrganizationBySlug(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	org.Country, org.BookingHorizonDays = "", 0
	if err := e.store.UpdateOrganization(ctx, org); err != nil {
		t.Fatal(err)
	}
	r := e.order("demo")
	r.GuestPhone = "06 12 34 56 78"
	res, err := e.svc.Checkout(ctx, "demo", r)
	if err != nil || res.Booking.GuestPhone != "+33612345678" {
		t.Fatalf("checkout = %v, %v; want the national number read as French", res, err)
	}
	today := civil.Today(e.clock.Now(), org.Location())
	late := booking.Stay{CheckIn: today.AddDays(booking.DefaultBookingHorizonDays - 2), CheckOut: today.AddDays(booking.DefaultBookingHorizonDays + 1), Guests: 2}
	_, err = e.svc.Quote(ctx, "demo", e.property["demo"], booking.QuoteRequest{Stay: late})
	wantCode(t, err, booking.CodeBeyondHorizon)
}
