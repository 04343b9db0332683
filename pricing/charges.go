package pricing

import (
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// civilEpoch stands for "today" where only the settings are checked.
var civilEpoch = civil.Date{Year: 2000, Month: 1, Day: 1}

// Guest categories, as Party fields, TouristTax.Exempt and Fee.Category
// name them.
const (
	CategoryAdults   = "adults"
	CategoryChildren = "children"
	CategoryInfants  = "infants"
	CategoryPets     = "pets"
)

// Party is the guests of a stay by category. Adults and children count as
// guests (capacity, extra-guest fee, tourist tax); infants and pets have
// their own limits only.
type Party struct {
	Adults   int `json:"adults"`
	Children int `json:"children"`
	Infants  int `json:"infants"`
	Pets     int `json:"pets"`
}

// Guests is the number of guests who count: adults and children.
func (p Party) Guests() int { return p.Adults + p.Children }

// count returns the number in a category ("" is Guests()).
func (p Party) count(category string) int {
	switch category {
	case CategoryAdults:
		return p.Adults
	case CategoryChildren:
		return p.Children
	case CategoryInfants:
		return p.Infants
	case CategoryPets:
		return p.Pets
	}
	return p.Guests()
}

// GuestPolicy is what a property accepts of each category and what
// children pay above the included guests. Ages are bands: an infant is
// younger than InfantAgeBelow, a child younger than ChildAgeBelow.
type GuestPolicy struct {
	// MaxChildren and MaxInfants, when set, cap the category (children
	// count towards the property's max guests too).
	MaxChildren *int `json:"max_children,omitempty"`
	MaxInfants  *int `json:"max_infants,omitempty"`
	// MaxPets is how many pets are welcome; 0 means none.
	MaxPets int `json:"max_pets,omitempty"`
	// ChildAgeBelow and InfantAgeBelow are the age bands (defaults 18 and 2).
	ChildAgeBelow  int `json:"child_age_below,omitempty"`
	InfantAgeBelow int `json:"infant_age_below,omitempty"`
	// ChildExtraGuest, when set, is the extra-guest fee of a child per
	// night; adults fill the included guests first. Nil: as an adult.
	ChildExtraGuest *decimal.Decimal `json:"child_extra_guest,omitempty"`
}

// Bands returns the age bands with their defaults.
func (g GuestPolicy) Bands() (infantBelow, childBelow int) {
	infantBelow, childBelow = g.InfantAgeBelow, g.ChildAgeBelow
	if infantBelow == 0 {
		infantBelow = 2
	}
	if childBelow == 0 {
		childBelow = 18
	}
	return infantBelow, childBelow
}

// Category returns the category of a guest of the given age.
func (g GuestPolicy) Category(age int) string {
	infant, child := g.Bands()
	switch {
	case age < infant:
		return CategoryInfants
	case age < child:
		return CategoryChildren
	}
	return CategoryAdults
}

// FeePer is what a Fee's amount is multiplied by.
type FeePer string

// The bases of a fee.
const (
	PerStay       FeePer = "stay"        // once
	PerNight      FeePer = "night"       // × nights
	PerGuest      FeePer = "guest"       // × guests of Category
	PerGuestNight FeePer = "guest_night" // × guests of Category × nights
	// PerPercent is Amount percent of the accommodation net of discounts.
	PerPercent FeePer = "percent"
)

// Fee is a charge on top of accommodation, never discounted. A mandatory
// fee is always charged once; an optional one (an extra) only when the
// guest chooses it, times the quantity chosen.
type Fee struct {
	// Code is the line's stable code, e.g. "breakfast"; unique per property.
	Code   string          `json:"code"`
	Labels Labels          `json:"labels"`
	Per    FeePer          `json:"per"`
	Amount decimal.Decimal `json:"amount"`
	// Category restricts PerGuest and PerGuestNight to one category
	// ("pets" for a pet fee); empty means adults and children.
	Category string `json:"category,omitempty"`
	Optional bool   `json:"optional,omitempty"`
	// MaxQuantity caps the quantity of an optional fee; 0 means 1.
	MaxQuantity int `json:"max_quantity,omitempty"`
}

// Labels are a line's words by locale.
type Labels struct {
	FR string `json:"fr"`
	EN string `json:"en"`
}

// Map returns the labels keyed by locale.
func (l Labels) Map() map[string]string { return map[string]string{"fr": l.FR, "en": l.EN} }

// Extra is an optional fee chosen, with its quantity (≥ 1).
type Extra struct {
	Code     string
	Quantity int
}

// PercentTax is a VAT-like tax: Percent of the lines named in On
// (LineAccommodation for the accommodation net of discounts, or fee
// codes). Exclusive taxes are added to the total; inclusive ones are
// already in the prices and are shown as IncludedTaxes.
type PercentTax struct {
	Code      string          `json:"code"`
	Labels    Labels          `json:"labels"`
	Percent   decimal.Decimal `json:"percent"`
	Inclusive bool            `json:"inclusive,omitempty"`
	On        []string        `json:"on"`
}

// TimedDiscount takes Percent off the accommodation when check-in is at
// least (early bird) or at most (last minute) Days days after today.
type TimedDiscount struct {
	Days    int             `json:"days"`
	Percent decimal.Decimal `json:"percent"`
}

// checkCharges refuses charge settings Compute cannot apply.
func (s Stay) checkCharges() error {
	if s.Party != nil {
		p := *s.Party
		if p.Adults < 1 || p.Children < 0 || p.Infants < 0 || p.Pets < 0 || p.Guests() != s.Guests {
			return fmt.Errorf("pricing: party %+v for %d guests: %w", p, s.Guests, ErrInvalidGuests)
		}
	}
	if g := s.Fees.Guests; g != nil && g.ChildExtraGuest != nil && g.ChildExtraGuest.IsNegative() {
		return fmt.Errorf("pricing: negative child fee: %w", ErrInvalidAmount)
	}
	seen := map[string]bool{}
	for _, f := range s.Fees.Items {
		switch {
		case f.Code == "" || seen[f.Code]:
			return fmt.Errorf("pricing: fee code %q missing or repeated: %w", f.Code, ErrInvalidAmount)
		case f.Amount.IsNegative() || f.MaxQuantity < 0:
			return fmt.Errorf("pricing: fee %q negative: %w", f.Code, ErrInvalidAmount)
		case !slices.Contains([]FeePer{PerStay, PerNight, PerGuest, PerGuestNight, PerPercent}, f.Per):
			return fmt.Errorf("pricing: fee %q per %q: %w", f.Code, f.Per, ErrInvalidAmount)
		}
		seen[f.Code] = true
	}
	chosen := map[string]bool{}
	for _, e := range s.Extras {
		f := s.Fees.item(e.Code)
		switch {
		case f == nil || !f.Optional:
			return fmt.Errorf("pricing: extra %q: %w", e.Code, ErrUnknownExtra)
		case chosen[e.Code] || e.Quantity < 1 || e.Quantity > max(f.MaxQuantity, 1):
			return fmt.Errorf("pricing: extra %q quantity %d: %w", e.Code, e.Quantity, ErrInvalidQuantity)
		}
		chosen[e.Code] = true
	}
	for _, t := range s.Fees.Taxes {
		if t.Code == "" || !validPercent(t.Percent) {
			return fmt.Errorf("pricing: tax %q: %w", t.Code, ErrInvalidAmount)
		}
	}
	tt := s.Tax
	if tt.Percent.IsNegative() || tt.Percent.GreaterThan(hundred) || tt.CeilingPerGuestNight.IsNegative() {
		return fmt.Errorf("pricing: tourist tax percent: %w", ErrInvalidAmount)
	}
	for _, d := range []*TimedDiscount{s.Plan.EarlyBird, s.Plan.LastMinute} {
		if d == nil {
			continue
		}
		if d.Days < 0 || !validPercent(d.Percent) {
			return fmt.Errorf("pricing: timed discount: %w", ErrInvalidAmount)
		}
		if s.Today.IsZero() {
			return fmt.Errorf("pricing: timed discount needs today's date: %w", ErrInvalidAmount)
		}
	}
	return nil
}

// item returns the fee with a code, or nil.
func (f Fees) item(code string) *Fee {
	for i := range f.Items {
		if f.Items[i].Code == code {
			return &f.Items[i]
		}
	}
	return nil
}

// exempt reports whether a category pays no tourist tax.
func (t TouristTax) exempt(category string) bool { return slices.Contains(t.Exempt, category) }

// CheckCharges checks the charge settings of a property — fees, extras,
// percentage taxes, tourist tax rule, early-bird and last-minute discounts
// — as Compute would, so that a host's mistake is refused when it is
// stored rather than at the guest's quote. Errors wrap ErrInvalidAmount.
func CheckCharges(plan RatePlan, fees Fees, tax TouristTax) error {
	s := Stay{Plan: plan, Fees: fees, Tax: tax, Today: civilEpoch}
	return s.checkCharges()
}
