// Package policy holds cancellation policies: tiers of "cancelled at least
// N days before check-in → this share of the stay refunded", plus an
// optional amount that is never refunded. It is pure: no I/O, the time and
// the time zone are arguments, like package pricing.
//
// A tier of N days lasts until midnight, in the organisation's time zone,
// at the start of the day N days before check-in. Deadlines are computed
// on the calendar, not by subtracting 24-hour periods, so a daylight
// saving change between now and check-in moves nobody into another tier.
package policy

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// Preset names.
const (
	Flexible      = "flexible"
	Moderate      = "moderate"
	Strict        = "strict"
	NonRefundable = "non_refundable"
	// Custom names a policy with its own tiers.
	Custom = "custom"
)

// ErrInvalid is returned, wrapped, by Validate and Preset.
var ErrInvalid = errors.New("invalid cancellation policy")

// Tier refunds RefundPercent of the refundable total to a guest who
// cancels at least DaysBefore days before check-in.
type Tier struct {
	DaysBefore    int             `json:"days_before"`
	RefundPercent decimal.Decimal `json:"refund_percent"`
}

// Policy is a cancellation policy. The zero value refunds nothing.
type Policy struct {
	// Name is a preset name or Custom.
	Name string `json:"name"`
	// Tiers, most generous first (largest DaysBefore first). A
	// cancellation that no tier covers is refunded nothing.
	Tiers []Tier `json:"tiers"`
	// NonRefundable is kept whatever the tier (a service fee), in the
	// booking's currency; zero for none.
	NonRefundable decimal.Decimal `json:"non_refundable"`
}

var hundred = decimal.NewFromInt(100)

// Preset returns a preset by name:
//
//   - flexible: everything back until 1 day before check-in;
//   - moderate: everything back until 5 days before, half after;
//   - strict: everything until 30 days before, half until 7 days before;
//   - non_refundable: nothing back.
//
// Errors: ErrInvalid for an unknown name.
func Preset(name string) (Policy, error) {
	p := Policy{Name: name}
	switch name {
	case Flexible:
		p.Tiers = []Tier{{1, hundred}}
	case Moderate:
		p.Tiers = []Tier{{5, hundred}, {0, decimal.NewFromInt(50)}}
	case Strict:
		p.Tiers = []Tier{{30, hundred}, {7, decimal.NewFromInt(50)}}
	case NonRefundable:
		p.Tiers = []Tier{}
	default:
		return Policy{}, fmt.Errorf("policy: unknown preset %q: %w", name, ErrInvalid)
	}
	return p, nil
}

// Presets lists the preset names.
func Presets() []string { return []string{Flexible, Moderate, Strict, NonRefundable} }

// Validate checks a policy: a known name, days before ≥ 0 strictly
// decreasing, percentages within 0–100 and not increasing as check-in
// nears, a non-negative non-refundable amount.
func (p Policy) Validate() error {
	if p.Name != Custom && !slices.Contains(Presets(), p.Name) {
		return fmt.Errorf("policy: name %q: %w", p.Name, ErrInvalid)
	}
	if p.NonRefundable.IsNegative() {
		return fmt.Errorf("policy: non-refundable amount %s is negative: %w", p.NonRefundable, ErrInvalid)
	}
	for i, t := range p.Tiers {
		switch {
		case t.DaysBefore < 0:
			return fmt.Errorf("policy: tier %d: days before %d is negative: %w", i, t.DaysBefore, ErrInvalid)
		case t.RefundPercent.IsNegative() || t.RefundPercent.GreaterThan(hundred):
			return fmt.Errorf("policy: tier %d: refund percent %s outside 0–100: %w", i, t.RefundPercent, ErrInvalid)
		case i > 0 && t.DaysBefore >= p.Tiers[i-1].DaysBefore:
			return fmt.Errorf("policy: tier %d: days before must decrease: %w", i, ErrInvalid)
		case i > 0 && t.RefundPercent.GreaterThan(p.Tiers[i-1].RefundPercent):
			return fmt.Errorf("policy: tier %d: refund percent must not grow nearer check-in: %w", i, ErrInvalid)
		}
	}
	return nil
}

// Deadline is the end of a tier: midnight in loc at the start of the day
// days before checkIn.
func Deadline(checkIn civil.Date, days int, loc *time.Location) time.Time {
	return checkIn.AddDays(-days).In(loc)
}

// Outcome is what a cancellation at a given moment refunds.
type Outcome struct {
	// Percent of the refundable total given back.
	Percent decimal.Decimal
	// Refund is the share of the total given back, rounded to decimals.
	Refund decimal.Decimal
	// Until is when this tier ends (the next one is less generous); zero
	// when no tier applies any more.
	Until time.Time
	// Next is the percentage after Until.
	Next decimal.Decimal
}

// Evaluate returns what cancelling at now refunds of total, for a stay
// starting on checkIn in loc, rounded to decimals places.
func (p Policy) Evaluate(total decimal.Decimal, checkIn civil.Date, loc *time.Location, now time.Time, decimals int32) Outcome {
	out := Outcome{Percent: decimal.Zero, Refund: decimal.Zero.Round(decimals), Next: decimal.Zero}
	for i, t := range p.Tiers {
		end := Deadline(checkIn, t.DaysBefore, loc)
		if !now.Before(end) {
			continue
		}
		out.Percent, out.Until = t.RefundPercent, end
		if i+1 < len(p.Tiers) {
			out.Next = p.Tiers[i+1].RefundPercent
		}
		break
	}
	base := total.Sub(p.NonRefundable)
	if base.IsNegative() {
		base = decimal.Zero
	}
	out.Refund = base.Mul(out.Percent).Div(hundred).RoundDown(decimals)
	return out
}
