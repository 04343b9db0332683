package booking

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// Property is a bookable place of an organisation, with its prices and rules.
type Property struct {
	ID          int64    `json:"id"`
	OrgID       int64    `json:"org_id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Photos      []string `json:"photos"`
	City        string   `json:"city"`
	Country     string   `json:"country"`
	MaxGuests   int      `json:"max_guests"`
	Bedrooms    int      `json:"bedrooms"`
	// RegistrationNumber is the number the authorities gave the property
	// as a short-term rental (Regulation (EU) 2024/1028), shown on every
	// listing; "" when it has none (package registration checks it).
	RegistrationNumber string `json:"registration_number,omitempty"`
	// PostalCode and MunicipalityCode say where the property is for the
	// tourist tax, which is declared per commune (package reports):
	// MunicipalityCode is the municipality's official code (the INSEE
	// code of a French commune, five characters). "" when unknown.
	PostalCode       string `json:"postal_code,omitempty"`
	MunicipalityCode string `json:"municipality_code,omitempty"`
	// MinStayNights and MaxStayNights override the organisation's when set.
	MinStayNights *int `json:"min_stay_nights,omitempty"`
	MaxStayNights *int `json:"max_stay_nights,omitempty"`
	// Active: only active properties are listed and bookable.
	Active bool               `json:"active"`
	Rates  pricing.RatePlan   `json:"rates"`
	Fees   pricing.Fees       `json:"fees"`
	Tax    pricing.TouristTax `json:"tax"`
	// Blocks are dates the owner keeps for themselves.
	Blocks []Block `json:"blocks,omitempty"`
	// Units are the property's active units (Unit), by Position then ID:
	// as many identical units as can be sold for a night. Stores fill it
	// in; CreateProperty creates the units named here, or one unit
	// (DefaultUnitName) when there are none, and UpdateProperty leaves
	// them as stored (package units changes them).
	Units []Unit `json:"units,omitempty"`
	// Linked are the properties linked to this one (package units): its
	// parts when it is let whole (the villa and its rooms), or the whole
	// it is a part of. A hold on a linked property takes every unit of
	// this one for its nights. Stores fill it in, by ID.
	Linked []int64 `json:"-"`
}

// UnitCount returns the number of units the property sells: len(Units),
// or 1 for a property read without them.
func (p *Property) UnitCount() int { return max(len(p.Units), 1) }

// Block is an owner's hold on the nights [Start, End).
type Block struct {
	ID     int64      `json:"id"`
	Start  civil.Date `json:"start"`
	End    civil.Date `json:"end"`
	Reason string     `json:"reason,omitempty"`
	// UnitID is the unit the block takes; 0 takes every unit of the
	// property.
	UnitID int64 `json:"unit_id,omitempty"`
}

// Range returns the nights the block holds.
func (b Block) Range() civil.Range { return civil.Range{Start: b.Start, End: b.End} }

// CheckBlocks reports CodeInvalid when a block does not end after it
// starts; stores call it before writing blocks.
func CheckBlocks(blocks []Block) error {
	for _, b := range blocks {
		if !b.Start.Before(b.End) {
			return &Error{Code: CodeInvalid, Message: "A block must end after it starts.",
				Fields: FieldErrors{"blocks": {"invalid_range"}}}
		}
	}
	return nil
}

// Validate checks a property before it is stored.
func (p Property) Validate() error {
	f := FieldErrors{}
	if p.Name == "" {
		f.Add("name", "required")
	}
	if p.MaxGuests < 1 {
		f.Add("max_guests", "out_of_range")
	}
	if p.Bedrooms < 0 {
		f.Add("bedrooms", "out_of_range")
	}
	if p.MinStayNights != nil && *p.MinStayNights < 1 {
		f.Add("min_stay_nights", "out_of_range")
	}
	if p.MaxStayNights != nil && (*p.MaxStayNights < 1 || (p.MinStayNights != nil && *p.MaxStayNights < *p.MinStayNights)) {
		f.Add("max_stay_nights", "out_of_range")
	}
	if err := p.Rates.Validate(); err != nil {
		f.Add("rates", err.Error())
	}
	if err := p.Rates.Rules.Validate(); err != nil {
		f.Add("rules", err.Error())
	}
	if err := pricing.CheckCharges(p.Rates, p.Fees, p.Tax); err != nil {
		f.Add("fees", "invalid_charges")
	}
	if p.Fees.Cleaning.IsNegative() || p.Fees.ExtraGuest.IsNegative() || p.Fees.GuestsIncluded < 0 {
		f.Add("fees", "out_of_range")
	}
	if p.Tax.PerGuestPerNight.IsNegative() || p.Tax.MaxNights < 0 {
		f.Add("tax", "out_of_range")
	}
	for _, b := range p.Blocks {
		if !b.Start.Before(b.End) {
			f.Add("blocks", "invalid_range")
		}
	}
	for _, u := range p.Units {
		if reason := unitNameProblem(strings.TrimSpace(u.Name)); reason != "" {
			f.Add("units", reason)
		}
	}
	if len(p.Units) > MaxUnits {
		f.Add("units", "too_many")
	}
	return f.Err()
}

// StayLimits returns the minimum and maximum nights of a stay checking in on
// checkIn: the property's limits, else the organisation's, with a season's
// minimum raising the floor. Zero means no limit.
func (p Property) StayLimits(org Organization, checkIn civil.Date) (minNights, maxNights int) {
	return p.stayLimits(&org, checkIn)
}

// stayLimits is StayLimits without copying p and org, which the calendar
// asks for each of its days.
func (p *Property) stayLimits(org *Organization, checkIn civil.Date) (minNights, maxNights int) {
	pick := func(prop, orgv *int) int {
		switch {
		case prop != nil:
			return *prop
		case orgv != nil:
			return *orgv
		}
		return 0
	}
	minNights = pick(p.MinStayNights, org.MinStayNights)
	maxNights = pick(p.MaxStayNights, org.MaxStayNights)
	if s := p.Rates.SeasonMinStay(checkIn); s > minNights {
		minNights = s
	}
	return minNights, maxNights
}

// priceFrom is the lowest nightly price among the given dates.
func (p Property) priceFrom(from civil.Date, days int) decimal.Decimal {
	lowest := p.Rates.NightPrice(from)
	for i := 1; i < days; i++ {
		if price := p.Rates.NightPrice(from.AddDays(i)); price.LessThan(lowest) {
			lowest = price
		}
	}
	return lowest
}
