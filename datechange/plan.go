package datechange

import (
	"github.com/shopspring/decimal"
)

// PlanInput is what the money of a change is decided from, in minor
// units of the booking's currency.
type PlanInput struct {
	// OldTotal is the booking's total before the change; NewPrice the
	// new stay's price (its quote's total).
	OldTotal, NewPrice int64
	// Percent is the share of the total the booking's cancellation
	// policy refunds now (0–100), counted from the policy's anchor
	// (booking.PolicyAnchor).
	Percent decimal.Decimal
	// Held is what the booking holds for the stay at the provider now:
	// received, less what went or is going back.
	Held int64
	// BalanceOpen: a deposit-mode balance is still to be collected later
	// (scheduled on the saved card, or by the host): what the change adds
	// is added to it rather than charged now.
	BalanceOpen bool
}

// Plan is the money of a change, in minor units.
type Plan struct {
	// Retained is the part of a price decrease the cancellation policy
	// keeps, as it would keep it if that part of the stay were cancelled
	// now: the decrease less the policy's percent of it (rounded down,
	// as policy.Evaluate rounds a refund). It stays in the total and
	// becomes non-refundable, so that changing a stay and then
	// cancelling it never gives back more than cancelling it would.
	Retained int64
	// Total is the booking's new total: the new price and Retained.
	Total int64
	// Charge is what is charged now (the new total beyond what is held,
	// when no balance is left to collect later); Refund what goes back
	// now (what is held beyond the new total); Balance what is left to
	// collect later (a deposit's balance, recomputed).
	Charge, Refund, Balance int64
}

var hundred = decimal.NewFromInt(100)

// Decide is the pure rule of a change's money: see Plan's fields. A
// change that costs more is charged now, or added to an open balance; one
// that costs less gives back, now, what the booking holds beyond its new
// total, which keeps what the policy keeps of the decrease.
func Decide(in PlanInput) Plan {
	var p Plan
	if dec := in.OldTotal - in.NewPrice; dec > 0 {
		pct := in.Percent
		if pct.IsNegative() {
			pct = decimal.Zero
		}
		if pct.GreaterThan(hundred) {
			pct = hundred
		}
		back := decimal.NewFromInt(dec).Mul(pct).Div(hundred).RoundDown(0).IntPart()
		p.Retained = dec - back
	}
	p.Total = in.NewPrice + p.Retained
	switch diff := p.Total - in.Held; {
	case diff < 0:
		p.Refund = -diff
	case diff > 0 && in.BalanceOpen:
		p.Balance = diff
	case diff > 0:
		p.Charge = diff
	}
	return p
}
