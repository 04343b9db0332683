package booking

import (
	"time"

	"github.com/shopspring/decimal"
	"golang.org/x/text/language"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// Defaults applied by Organization.WithDefaults.
const (
	DefaultCurrency         = "EUR"
	DefaultTimezone         = "Europe/Paris"
	DefaultLocale           = "fr"
	DefaultHoldMinutes      = 30
	DefaultRequestHoldHours = 48
	DefaultCountry          = "FR"
	// DefaultBookingHorizonDays is how far ahead a stay may end: two years.
	DefaultBookingHorizonDays = 730
	// MaxBookingHorizonDays bounds the horizon an organisation may set, so
	// that no stay or calendar day ever leaves the four-digit years.
	MaxBookingHorizonDays = 3650
)

// ValidSlug reports whether s has the shape of an organisation slug,
// ^[a-z0-9][a-z0-9-]{0,62}$: a lowercase letter or digit, then up to 62
// more or hyphens. Every public request checks its organisation's, so it
// is a loop over the bytes rather than a regular expression.
func ValidSlug(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Organization is a host business and the configuration of its booking engine.
type Organization struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// Logo is a URL, or empty.
	Logo          string              `json:"logo,omitempty"`
	PaymentMode   pricing.PaymentMode `json:"payment_mode"`
	DefaultLocale string              `json:"default_locale"`
	// Branding is free-form presentation data for the guest site, such as
	// "primary_color".
	Branding map[string]string `json:"branding,omitempty"`
	// TermsURL is a URL, or empty.
	TermsURL string `json:"terms_url,omitempty"`
	// MinStayNights and MaxStayNights apply to properties that set none;
	// nil means no limit.
	MinStayNights *int `json:"min_stay_nights,omitempty"`
	MaxStayNights *int `json:"max_stay_nights,omitempty"`
	// Currency is an ISO 4217 code in upper case.
	Currency string `json:"currency"`
	// Timezone is an IANA zone name; dates are civil dates there.
	Timezone string `json:"timezone"`
	// DepositPercent (0–100) is charged at checkout in deposit mode.
	DepositPercent decimal.Decimal `json:"deposit_percent"`
	// BalanceDueDays: the balance is due this many days before check-in.
	BalanceDueDays int `json:"balance_due_days"`
	// HoldMinutes is how long a checkout holds the dates unpaid.
	HoldMinutes int `json:"hold_minutes"`
	// RequestHoldHours is how long a request waits for the host's answer.
	RequestHoldHours int `json:"request_hold_hours"`
	// CustomDomain (e.g. "villa-soleil.fr") allows https://{it} and
	// https://www.{it} as origins.
	CustomDomain string `json:"custom_domain,omitempty"`
	// AllowedOrigins are further origins, exactly as browsers send them.
	AllowedOrigins []string `json:"allowed_origins,omitempty"`
	// PublicEngineEnabled: when false the public API answers 404.
	PublicEngineEnabled bool `json:"public_engine_enabled"`
	// Country is the ISO 3166-1 alpha-2 code (upper case) of the country
	// the organisation works in: guests' national phone numbers are read as
	// numbers of this country. Empty means DefaultCountry, so that an
	// organisation stored before the field existed keeps working.
	Country string `json:"country"`
	// BookingHorizonDays is how many days after today a stay may end at the
	// latest; the calendar shows later days as unavailable. Zero means
	// DefaultBookingHorizonDays.
	BookingHorizonDays int `json:"booking_horizon_days"`
}

// WithDefaults returns o with empty settings set to their defaults.
func (o Organization) WithDefaults() Organization {
	if o.Currency == "" {
		o.Currency = DefaultCurrency
	}
	if o.Timezone == "" {
		o.Timezone = DefaultTimezone
	}
	if o.DefaultLocale == "" {
		o.DefaultLocale = DefaultLocale
	}
	if o.PaymentMode == "" {
		o.PaymentMode = pricing.ModeFull
	}
	if o.HoldMinutes == 0 {
		o.HoldMinutes = DefaultHoldMinutes
	}
	if o.RequestHoldHours == 0 {
		o.RequestHoldHours = DefaultRequestHoldHours
	}
	if o.Country == "" {
		o.Country = DefaultCountry
	}
	if o.BookingHorizonDays == 0 {
		o.BookingHorizonDays = DefaultBookingHorizonDays
	}
	return o
}

// Validate checks an organisation before it is stored.
func (o Organization) Validate() error {
	f := FieldErrors{}
	if !ValidSlug(o.Slug) {
		f.Add("slug", "invalid_slug")
	}
	if o.Name == "" {
		f.Add("name", "required")
	}
	if !o.PaymentMode.Valid() {
		f.Add("payment_mode", "invalid_choice")
	}
	if o.DefaultLocale != "fr" && o.DefaultLocale != "en" {
		f.Add("default_locale", "invalid_choice")
	}
	if !pricing.ValidCurrency(o.Currency) {
		f.Add("currency", "invalid_currency")
	}
	if _, err := time.LoadLocation(o.Timezone); err != nil || o.Timezone == "" {
		f.Add("timezone", "invalid_timezone")
	}
	if o.DepositPercent.IsNegative() || o.DepositPercent.GreaterThan(decimal.NewFromInt(100)) {
		f.Add("deposit_percent", "out_of_range")
	}
	if o.PaymentMode == pricing.ModeDeposit && !o.DepositPercent.IsPositive() {
		f.Add("deposit_percent", "required")
	}
	if o.BalanceDueDays < 0 {
		f.Add("balance_due_days", "out_of_range")
	}
	if o.HoldMinutes < 1 {
		f.Add("hold_minutes", "out_of_range")
	}
	if o.RequestHoldHours < 1 || o.RequestHoldHours > MaxAuthorizationHours {
		f.Add("request_hold_hours", "out_of_range")
	}
	if o.MinStayNights != nil && *o.MinStayNights < 1 {
		f.Add("min_stay_nights", "out_of_range")
	}
	if o.MaxStayNights != nil && (*o.MaxStayNights < 1 || (o.MinStayNights != nil && *o.MaxStayNights < *o.MinStayNights)) {
		f.Add("max_stay_nights", "out_of_range")
	}
	if o.Country != "" && !ValidCountry(o.Country) {
		f.Add("country", "invalid_country")
	}
	if o.BookingHorizonDays < 0 || o.BookingHorizonDays > MaxBookingHorizonDays {
		f.Add("booking_horizon_days", "out_of_range")
	}
	return f.Err()
}

// ValidCountry reports whether c is an ISO 3166-1 alpha-2 country code in
// upper case, such as "FR" (not a macro-region nor a private-use code).
func ValidCountry(c string) bool {
	if len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' {
		return false
	}
	r, err := language.ParseRegion(c)
	return err == nil && r.IsCountry() && r.String() == c
}

// country is the organisation's country, DefaultCountry when unset.
func (o Organization) country() string {
	if o.Country == "" {
		return DefaultCountry
	}
	return o.Country
}

// Horizon returns the last day a stay may end on, given today: the
// booking horizon (BookingHorizonDays, DefaultBookingHorizonDays when unset
// or out of range).
func (o Organization) Horizon(today civil.Date) civil.Date {
	days := o.BookingHorizonDays
	if days < 1 || days > MaxBookingHorizonDays {
		days = DefaultBookingHorizonDays
	}
	return today.AddDays(days)
}

// Location returns the organisation's time zone (UTC if it cannot be loaded,
// which Validate prevents).
func (o Organization) Location() *time.Location {
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}
