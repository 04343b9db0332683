package seed_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// now is 21 November 2026 in Paris: yearly seasons expand for 2026–2028.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db := sqlitetest.Open(t)
	return db
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
func day(s string) civil.Date      { return civil.MustParse(s) }
func ptr[T any](v T) *T            { return &v }

func TestLoadFileStoresEveryField(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if err := seed.LoadFile(ctx, db, "testdata/full.json", now); err != nil {
		t.Fatalf("LoadFile: %v", err)
	}

	orgs, err := db.Organizations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(orgs), 2; got != want {
		t.Fatalf("organisations = %d, want %d", got, want)
	}

	org, err := db.OrganizationBySlug(ctx, "villa-soleil")
	if err != nil {
		t.Fatal(err)
	}
	wantOrg := booking.Organization{
		ID: org.ID, Slug: "villa-soleil", Name: "Villa Soleil", Logo: "https://villa-soleil.fr/logo.png",
		PaymentMode: pricing.ModeDeposit, DefaultLocale: "en",
		Branding: map[string]string{"primary_color": "#123456"}, TermsURL: "https://villa-soleil.fr/terms",
		MinStayNights: ptr(3), MaxStayNights: ptr(21), Currency: "EUR", Timezone: "Europe/Paris",
		DepositPercent: dec("30"), BalanceDueDays: 21, HoldMinutes: 20, RequestHoldHours: 24,
		CustomDomain: "villa-soleil.fr", AllowedOrigins: []string{"http://localhost:3000", "https://preview.example.com"},
		PublicEngineEnabled: true, Country: "BE", BookingHorizonDays: 365,
	}
	if !org.DepositPercent.Equal(wantOrg.DepositPercent) {
		t.Errorf("deposit_percent = %s, want 30", org.DepositPercent)
	}
	org.DepositPercent = wantOrg.DepositPercent
	if !reflect.DeepEqual(*org, wantOrg) {
		t.Errorf("organisation:\n got %+v\nwant %+v", *org, wantOrg)
	}

	hidden, err := db.OrganizationBySlug(ctx, "hidden")
	if err != nil {
		t.Fatal(err)
	}
	if hidden.PublicEngineEnabled {
		t.Error("hidden: public_engine_enabled = true, want false as the file says")
	}
	if got, want := hidden.Currency+" "+hidden.Timezone+" "+hidden.DefaultLocale+" "+string(hidden.PaymentMode)+" "+hidden.Country+" "+strconv.Itoa(hidden.BookingHorizonDays), "EUR Europe/Paris fr full FR 730"; got != want {
		t.Errorf("hidden defaults = %q, want %q", got, want)
	}

	props, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 2 {
		t.Fatalf("properties = %d, want 2", len(props))
	}
	villa, studio := props[0], props[1]
	if villa.Name != "Villa" || studio.Name != "Studio" {
		t.Fatalf("property names = %q, %q; want Villa, Studio", villa.Name, studio.Name)
	}
	if got, want := []any{villa.Description, villa.Photos, villa.City, villa.Country, villa.MaxGuests, villa.Bedrooms, *villa.MinStayNights, *villa.MaxStayNights, villa.Active},
		[]any{"Sea view", []string{"https://villa-soleil.fr/1.jpg"}, "Nice", "FR", 6, 3, 4, 14, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("villa fields = %v, want %v", got, want)
	}
	r := villa.Rates
	if !r.BaseRate.Equal(dec("120")) || r.WeekendRate == nil || !r.WeekendRate.Equal(dec("150.50")) ||
		!r.WeeklyDiscountPercent.Equal(dec("5")) || !r.MonthlyDiscountPercent.Equal(dec("15")) {
		t.Errorf("villa rates = base %s weekend %v weekly %s monthly %s; want 120, 150.50, 5, 15",
			r.BaseRate, r.WeekendRate, r.WeeklyDiscountPercent, r.MonthlyDiscountPercent)
	}
	if got, want := r.WeekendNights, []time.Weekday{time.Friday, time.Saturday}; !reflect.DeepEqual(got, want) {
		t.Errorf("weekend nights = %v, want %v", got, want)
	}
	type span struct {
		name       string
		start, end civil.Date
		rate       string
		minStay    int
	}
	var gotSeasons []span
	for _, s := range r.Seasons {
		gotSeasons = append(gotSeasons, span{s.Name, s.Start, s.End, s.Rate.String(), s.MinStayNights})
	}
	wantSeasons := []span{
		{"Summer", day("2026-06-15"), day("2026-09-15"), "180", 5},
		{"Summer", day("2027-06-15"), day("2027-09-15"), "180", 5},
		{"Summer", day("2028-06-15"), day("2028-09-15"), "180", 5},
		{"New Year", day("2026-12-26"), day("2027-01-02"), "220", 0},
	}
	if !reflect.DeepEqual(gotSeasons, wantSeasons) {
		t.Errorf("seasons:\n got %v\nwant %v", gotSeasons, wantSeasons)
	}
	if len(r.Overrides) != 1 || r.Overrides[0].Date != day("2027-07-14") || !r.Overrides[0].Price.Equal(dec("250")) {
		t.Errorf("overrides = %v, want 2027-07-14 at 250", r.Overrides)
	}
	if !villa.Fees.Cleaning.Equal(dec("60")) || !villa.Fees.ExtraGuest.Equal(dec("15")) || villa.Fees.GuestsIncluded != 2 {
		t.Errorf("fees = %+v, want cleaning 60, extra guest 15 above 2", villa.Fees)
	}
	if !villa.Tax.PerGuestPerNight.Equal(dec("2.5")) || villa.Tax.MaxNights != 7 {
		t.Errorf("tax = %+v, want 2.5 for at most 7 nights", villa.Tax)
	}
	if len(villa.Blocks) != 1 || villa.Blocks[0].Start != day("2027-08-01") || villa.Blocks[0].End != day("2027-08-08") || villa.Blocks[0].Reason != "owner" {
		t.Errorf("blocks = %+v, want 2027-08-01..08 owner", villa.Blocks)
	}
	if studio.Active {
		t.Error("studio active = true, want false as the file says")
	}
	if studio.Rates.WeekendNights == nil || len(studio.Rates.WeekendNights) != 0 {
		t.Errorf("studio weekend nights = %#v, want an empty list (no weekend)", studio.Rates.WeekendNights)
	}

	welcome, err := db.CouponByCode(ctx, org.ID, "WELCOME10")
	if err != nil {
		t.Fatalf("coupon WELCOME10 (written lower case in the file): %v", err)
	}
	if welcome.Code != "WELCOME10" || welcome.Kind != pricing.DiscountPercent || !welcome.Value.Equal(dec("10")) || !welcome.Active || len(welcome.PropertyIDs) != 0 {
		t.Errorf("WELCOME10 = %+v", welcome)
	}
	villa50, err := db.CouponByCode(ctx, org.ID, "villa50")
	if err != nil {
		t.Fatal(err)
	}
	want50 := []any{villa50.Label, villa50.Kind, villa50.Value.String(), villa50.Active, villa50.ValidFrom, villa50.ValidUntil,
		villa50.StayFrom, villa50.StayUntil, villa50.MinNights, villa50.MinAmount.String(), villa50.MaxRedemptions, villa50.PropertyIDs}
	if !reflect.DeepEqual(want50, []any{"Villa offer", pricing.DiscountFixed, "50", false, day("2026-01-01"), day("2027-12-31"),
		day("2026-06-01"), day("2027-09-30"), 3, "200", 100, []int64{villa.ID}}) {
		t.Errorf("VILLA50 fields = %v", want50)
	}
}

func TestLoadExpandsYearlySeasons(t *testing.T) {
	tests := []struct {
		name       string
		now        time.Time
		timezone   string
		start, end string
		want       []civil.Range
	}{
		{
			name: "summer: this year and the next two", now: now, start: "06-15", end: "09-15",
			want: []civil.Range{{Start: day("2026-06-15"), End: day("2026-09-15")}, {Start: day("2027-06-15"), End: day("2027-09-15")}, {Start: day("2028-06-15"), End: day("2028-09-15")}},
		},
		{
			name: "across new year: from last winter's to the one in two years", now: now, start: "12-20", end: "01-05",
			want: []civil.Range{{Start: day("2025-12-20"), End: day("2026-01-05")}, {Start: day("2026-12-20"), End: day("2027-01-05")},
				{Start: day("2027-12-20"), End: day("2028-01-05")}, {Start: day("2028-12-20"), End: day("2029-01-05")}},
		},
		{
			name: "the year is the organisation's: already 2027 in Tokyo", now: time.Date(2026, 12, 31, 20, 0, 0, 0, time.UTC),
			timezone: "Asia/Tokyo", start: "03-01", end: "03-31",
			want: []civil.Range{{Start: day("2027-03-01"), End: day("2027-03-31")}, {Start: day("2028-03-01"), End: day("2028-03-31")}, {Start: day("2029-03-01"), End: day("2029-03-31")}},
		},
		{
			name: "one day", now: now, start: "07-14", end: "07-14",
			want: []civil.Range{{Start: day("2026-07-14"), End: day("2026-07-14")}, {Start: day("2027-07-14"), End: day("2027-07-14")}, {Start: day("2028-07-14"), End: day("2028-07-14")}},
		},
		{
			name: "absolute dates are kept as they are", now: now, start: "2027-04-01", end: "2027-04-15",
			want: []civil.Range{{Start: day("2027-04-01"), End: day("2027-04-15")}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t)
			tz := tt.timezone
			if tz == "" {
				tz = "Europe/Paris"
			}
			doc := `{"organizations": [{"slug": "o", "name": "O", "timezone": "` + tz + `", "properties": [{"name": "P", "max_guests": 2,
				"rates": {"base_rate": 100, "seasons": [{"name": "S", "start": "` + tt.start + `", "end": "` + tt.end + `", "rate": 150}]}}]}]}`
			if err := seed.Load(ctx, db, strings.NewReader(doc), tt.now); err != nil {
				t.Fatalf("Load: %v", err)
			}
			org, err := db.OrganizationBySlug(ctx, "o")
			if err != nil {
				t.Fatal(err)
			}
			props, err := db.Properties(ctx, org.ID)
			if err != nil || len(props) != 1 {
				t.Fatalf("properties = %v, %v", props, err)
			}
			var got []civil.Range
			for _, s := range props[0].Rates.Seasons {
				got = append(got, civil.Range{Start: s.Start, End: s.End})
				if s.Name != "S" || !s.Rate.Equal(dec("150")) {
					t.Errorf("season = %q at %s, want S at 150", s.Name, s.Rate)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("seasons:\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

// base is a valid file with one organisation; cases patch it.
const base = `{"organizations": [
  {"slug": "a", "name": "A", "properties": [{"name": "P", "max_guests": 2, "rates": {"base_rate": 100}}]},
  %s
]}`

func TestLoadReportsProblemsWithTheirPath(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // each a problem's "path: reason" prefix
	}{
		{
			name: "invalid season in the second organisation's first property",
			doc: `{"organizations": [{"slug": "a", "name": "A"}, {"slug": "b", "name": "B", "properties": [
				{"name": "P", "max_guests": 2, "rates": {"base_rate": 100, "seasons": [{"name": "S", "start": "2027-09-15", "end": "2027-06-15", "rate": 1}]}}]}]}`,
			want: []string{"organizations[1].properties[0].rates.seasons[0]: invalid_season"},
		},
		{
			name: "organisation rules",
			doc:  `{"organizations": [{"slug": "Bad Slug", "payment_mode": "deposit", "default_locale": "de", "currency": "XYZ", "timezone": "Mars/Base", "min_stay_nights": 0, "country": "France", "booking_horizon_days": -1}]}`,
			want: []string{
				"organizations[0].booking_horizon_days: out_of_range",
				"organizations[0].country: invalid_country",
				"organizations[0].currency: invalid_currency",
				"organizations[0].default_locale: invalid_choice",
				"organizations[0].deposit_percent: required",
				"organizations[0].min_stay_nights: out_of_range",
				"organizations[0].name: required",
				"organizations[0].slug: invalid_slug",
				"organizations[0].timezone: invalid_timezone",
			},
		},
		{
			name: "property rules",
			doc: `{"organizations": [{"slug": "a", "name": "A", "properties": [{"name": "", "max_guests": 0, "bedrooms": -1,
				"rates": {"base_rate": -5}, "fees": {"cleaning": -1}, "tax": {"per_guest_per_night": -1}}]}]}`,
			want: []string{
				"organizations[0].properties[0].bedrooms: out_of_range",
				"organizations[0].properties[0].fees: out_of_range",
				"organizations[0].properties[0].max_guests: out_of_range",
				"organizations[0].properties[0].name: required",
				"organizations[0].properties[0].rates: negative_rate",
				"organizations[0].properties[0].tax: out_of_range",
			},
		},
		{
			name: "rate plan rules without a more precise place",
			doc: `{"organizations": [{"slug": "a", "name": "A", "properties": [{"name": "P", "max_guests": 2,
				"rates": {"base_rate": 100, "weekly_discount_percent": 120}}]}]}`,
			want: []string{"organizations[0].properties[0].rates: percent_out_of_range"},
		},
		{
			name: "base rate required",
			doc:  `{"organizations": [{"slug": "a", "name": "A", "properties": [{"name": "P", "max_guests": 2, "rates": {}}]}]}`,
			want: []string{"organizations[0].properties[0].rates.base_rate: required"},
		},
		{
			name: "coupon rules",
			doc: `{"organizations": [{"slug": "a", "name": "A", "coupons": [{"code": "OK", "kind": "percent", "value": 10},
				{"code": "bad code!", "kind": "bogo", "value": 0, "valid_from": "2026-05-01", "valid_until": "2026-04-01"}]}]}`,
			want: []string{
				"organizations[0].coupons[1].code: invalid_code",
				"organizations[0].coupons[1].kind: invalid_choice",
				"organizations[0].coupons[1].valid_until: invalid_range",
				"organizations[0].coupons[1].value: out_of_range",
			},
		},
		{
			name: "duplicates",
			doc: `{"organizations": [
				{"slug": "a", "name": "A", "properties": [{"name": "P", "max_guests": 2, "rates": {"base_rate": 1}}, {"name": "P", "max_guests": 2, "rates": {"base_rate": 1}}],
				 "coupons": [{"code": "x", "kind": "percent", "value": 1}, {"code": " X ", "kind": "percent", "value": 1}]},
				{"slug": "a", "name": "A again"}]}`,
			want: []string{
				"organizations[0].properties[1].name: duplicate",
				"organizations[0].coupons[1].code: duplicate",
				"organizations[1].slug: duplicate",
			},
		},
		{
			name: "coupon restricted to an unknown property",
			doc:  fmtBase(`{"slug": "b", "name": "B", "coupons": [{"code": "X", "kind": "fixed", "value": 5, "properties": ["Nope"]}]}`),
			want: []string{"organizations[1].coupons[0].properties[0]: unknown_property"},
		},
		{
			name: "dates, weekdays and origins",
			doc: fmtBase(`{"slug": "b", "name": "B", "allowed_origins": ["http://ok.example", "localhost:3000", "https://x.example/path"],
				"properties": [{"name": "P", "max_guests": 2, "rates": {"base_rate": 1, "weekend_nights": ["friday", "funday"],
				"seasons": [{"name": "S", "start": "02-29", "end": "03-10", "rate": 1}, {"name": "T", "start": "06-15", "end": "2027-09-15", "rate": 1},
				            {"name": "U", "start": "2027-13-01", "end": "2027-12-31", "rate": 1}, {"name": "V", "rate": 1}],
				"overrides": [{"date": "tomorrow", "price": 1}]},
				"blocks": [{"start": "2027-01-10", "end": "2027-01-05"}, {"start": "2027-01-01"}]}],
				"coupons": [{"code": "X", "kind": "fixed", "value": 5, "stay_from": "2027/01/01"}]}`),
			want: []string{
				"organizations[1].allowed_origins[1]: invalid_origin",
				"organizations[1].allowed_origins[2]: invalid_origin",
				"organizations[1].properties[0].rates.weekend_nights[1]: invalid_weekday",
				"organizations[1].properties[0].rates.seasons[0].start: invalid_date",
				"organizations[1].properties[0].rates.seasons[1]: mixed_dates",
				"organizations[1].properties[0].rates.seasons[2].start: invalid_date",
				"organizations[1].properties[0].rates.seasons[3].start: required",
				"organizations[1].properties[0].rates.seasons[3].end: required",
				"organizations[1].properties[0].rates.overrides[0].date: invalid_date",
				"organizations[1].properties[0].blocks[0]: invalid_range",
				"organizations[1].properties[0].blocks[1].end: required",
				"organizations[1].coupons[0].stay_from: invalid_date",
			},
		},
		{
			name: "values out of bounds",
			doc: `{"organizations": [{"slug": "a", "name": "A\u202e", "contact_email": "h\u0000@x.fr", "terms": {"security_deposit": 1e308},
				"properties": [{"name": "P\r\nQ", "max_guests": 4611686018427387904, "rates": {"base_rate": 1e308},
				"blocks": [{"start": "2027-01-01", "end": "2027-01-03", "reason": "a\u0000"}]}],
				"coupons": [{"code": "X", "kind": "fixed", "value": 1e308}]}]}`,
			want: []string{
				"organizations[0].contact_email: invalid_characters",
				"organizations[0].name: invalid_characters",
				"organizations[0].terms.security_deposit: amount_too_large",
				"organizations[0].properties[0].blocks: invalid_characters",
				"organizations[0].properties[0].max_guests: out_of_range",
				"organizations[0].properties[0].name: invalid_characters",
				"organizations[0].properties[0].rates: amount_too_large",
				"organizations[0].coupons[0].value: amount_too_large",
			},
		},
		{
			name: "no organisations",
			doc:  `{"organizations": []}`,
			want: []string{"organizations: required"},
		},
		{
			name: "unknown field (a typo) names its place",
			doc:  `{"organizations": [{"slug": "a", "name": "A", "properties": [{"name": "P", "max_guests": 2, "rates": {"bas_rate": 100}}]}]}`,
			want: []string{`organizations[0].properties[0].rates: unknown field "bas_rate"`},
		},
		{
			name: "unknown top-level field",
			doc:  `{"organisations": []}`,
			want: []string{`(file): unknown field "organisations"`},
		},
		{
			name: "wrong type names its place",
			doc:  fmtBase(`{"slug": "b", "name": "B", "properties": [{"name": "P", "max_guests": "four"}]}`),
			want: []string{`organizations[1].properties[0].max_guests: expected a whole number, got "four"`},
		},
		{
			name: "a number that is not one",
			doc:  fmtBase(`{"slug": "b", "name": "B", "coupons": [{"code": "X", "kind": "fixed", "value": "ten"}]}`),
			want: []string{`organizations[1].coupons[0].value: expected a number`},
		},
		{
			name: "syntax error gives line and column",
			doc:  "{\"organizations\": [\n  {\"slug\": \"a\",, \"name\": \"A\"}]}",
			want: []string{"line 2, column 16: invalid JSON"},
		},
		{
			name: "trailing data",
			doc:  `{"organizations": [{"slug": "a", "name": "A"}]} {}`,
			want: []string{"line 1, column 49: unexpected data after the JSON document"},
		},
		{
			name: "empty file",
			doc:  ``,
			want: []string{"(file): empty file"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t)
			err := seed.Load(ctx, db, strings.NewReader(tt.doc), now)
			var serr *seed.Error
			if !errors.As(err, &serr) {
				t.Fatalf("Load error = %v, want a *seed.Error", err)
			}
			var got []string
			for _, p := range serr.Problems {
				got = append(got, p.String())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems:\n got %q\nwant %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("problem %d = %q, want it to start with %q", i, got[i], tt.want[i])
				}
			}
			if !strings.Contains(err.Error(), tt.want[0]) {
				t.Errorf("Error() = %q, want it to contain %q", err.Error(), tt.want[0])
			}
			orgs, err := db.Organizations(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(orgs) != 0 {
				t.Errorf("an invalid file stored %d organisations, want none", len(orgs))
			}
		})
	}
}

func fmtBase(second string) string { return strings.Replace(base, "%s", second, 1) }

func TestLoadReportsStoreConflictWithPath(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	doc := fmtBase(`{"slug": "b", "name": "B"}`)
	if err := seed.Load(ctx, db, strings.NewReader(doc), now); err != nil {
		t.Fatalf("first Load: %v", err)
	}
	err := seed.Load(ctx, db, strings.NewReader(doc), now)
	if got, want := booking.ErrorCode(err), booking.CodeConflict; got != want {
		t.Fatalf("second Load code = %q (%v), want %q", got, err, want)
	}
	if !strings.Contains(err.Error(), `organizations[0] ("a")`) {
		t.Errorf("error %q does not name the record", err)
	}
}

func TestLoadFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(path, []byte(`{"organizations": [{"slug": "a"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := seed.LoadFile(context.Background(), openDB(t), path, now)
	if err == nil || !strings.HasPrefix(err.Error(), path+": seed: invalid file: organizations[0].name: required") {
		t.Errorf("LoadFile error = %v, want it to start with the path and the problem", err)
	}
	if err := seed.LoadFile(context.Background(), openDB(t), filepath.Join(t.TempDir(), "missing.json"), now); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile of a missing file = %v, want os.ErrNotExist", err)
	}
}

func TestLoadRefusesOversizedFile(t *testing.T) {
	big := strings.NewReader(`{"organizations": [` + strings.Repeat(" ", seed.MaxFileSize) + `]}`)
	err := seed.Load(context.Background(), openDB(t), big, now)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load of an oversized file = %v, want a size error", err)
	}
}
