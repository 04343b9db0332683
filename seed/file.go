package seed

import (
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// The JSON shapes of a seed file, as documented in the package comment.
// Dates are kept as strings so that a bad one is reported with its path
// rather than as a decoding error, and fields with a default other than
// the zero value are pointers so that "absent" can be told apart.

type fileJSON struct {
	Organizations []orgJSON `json:"organizations"`
}

type orgJSON struct {
	Slug               string              `json:"slug"`
	Name               string              `json:"name"`
	Logo               string              `json:"logo"`
	PaymentMode        pricing.PaymentMode `json:"payment_mode"`
	DepositPercent     decimal.Decimal     `json:"deposit_percent"`
	BalanceDueDays     int                 `json:"balance_due_days"`
	DefaultLocale      string              `json:"default_locale"`
	Currency           string              `json:"currency"`
	Timezone           string              `json:"timezone"`
	MinStayNights      *int                `json:"min_stay_nights"`
	MaxStayNights      *int                `json:"max_stay_nights"`
	HoldMinutes        int                 `json:"hold_minutes"`
	RequestHoldHours   int                 `json:"request_hold_hours"`
	Country            string              `json:"country"`
	BookingHorizonDays int                 `json:"booking_horizon_days"`
	Branding           map[string]string   `json:"branding"`
	ContactEmail       string              `json:"contact_email"`
	// Terms are the cancellation policy and security deposit of every
	// property that sets none (see termsJSON).
	Terms               *termsJSON     `json:"terms"`
	TermsURL            string         `json:"terms_url"`
	CustomDomain        string         `json:"custom_domain"`
	AllowedOrigins      []string       `json:"allowed_origins"`
	PublicEngineEnabled *bool          `json:"public_engine_enabled"`
	Properties          []propertyJSON `json:"properties"`
	Coupons             []couponJSON   `json:"coupons"`
}

type propertyJSON struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Photos      []string `json:"photos"`
	City        string   `json:"city"`
	Country     string   `json:"country"`
	// RegistrationNumber is the number the authorities gave the property
	// (Regulation (EU) 2024/1028), checked against its country's format
	// (package registration).
	RegistrationNumber string             `json:"registration_number"`
	MaxGuests          int                `json:"max_guests"`
	Bedrooms           int                `json:"bedrooms"`
	MinStayNights      *int               `json:"min_stay_nights"`
	MaxStayNights      *int               `json:"max_stay_nights"`
	Active             *bool              `json:"active"`
	Rates              ratesJSON          `json:"rates"`
	Fees               pricing.Fees       `json:"fees"`
	Tax                pricing.TouristTax `json:"tax"`
	Blocks             []blockJSON        `json:"blocks"`
	// Rules are the stay rules (package rules): arrival and departure
	// days, seasons, notice, cut-off, window, preparation days, per-day
	// settings.
	Rules rules.Set `json:"rules"`
	// Terms, when set, replace the organisation's for this property.
	Terms *termsJSON `json:"terms"`
	// Units name the property's identical units (issue #27); absent:
	// one unit.
	Units []string `json:"units"`
	// Parts name the properties of the organisation this one is made
	// of (linked listings, package units): the villa and its rooms.
	Parts []string `json:"parts"`
}

type ratesJSON struct {
	BaseRate               *decimal.Decimal       `json:"base_rate"`
	WeekendRate            *decimal.Decimal       `json:"weekend_rate"`
	WeekendNights          []string               `json:"weekend_nights"`
	WeeklyDiscountPercent  decimal.Decimal        `json:"weekly_discount_percent"`
	MonthlyDiscountPercent decimal.Decimal        `json:"monthly_discount_percent"`
	Seasons                []seasonJSON           `json:"seasons"`
	Overrides              []overrideJSON         `json:"overrides"`
	EarlyBird              *pricing.TimedDiscount `json:"early_bird"`
	LastMinute             *pricing.TimedDiscount `json:"last_minute"`
}

type seasonJSON struct {
	Name          string          `json:"name"`
	Start         string          `json:"start"`
	End           string          `json:"end"`
	Rate          decimal.Decimal `json:"rate"`
	MinStayNights int             `json:"min_stay_nights"`
}

type overrideJSON struct {
	Date  string          `json:"date"`
	Price decimal.Decimal `json:"price"`
}

type blockJSON struct {
	Start  string `json:"start"`
	End    string `json:"end"`
	Reason string `json:"reason"`
}

type couponJSON struct {
	Code           string               `json:"code"`
	Label          string               `json:"label"`
	Kind           pricing.DiscountKind `json:"kind"`
	Value          decimal.Decimal      `json:"value"`
	Active         *bool                `json:"active"`
	ValidFrom      string               `json:"valid_from"`
	ValidUntil     string               `json:"valid_until"`
	StayFrom       string               `json:"stay_from"`
	StayUntil      string               `json:"stay_until"`
	MinNights      int                  `json:"min_nights"`
	MinAmount      decimal.Decimal      `json:"min_amount"`
	MaxRedemptions int                  `json:"max_redemptions"`
	// Properties names the properties of the organisation the coupon is
	// restricted to; IDs are only known once they are stored.
	Properties []string `json:"properties"`
}
