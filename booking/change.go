package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// Restay is a confirmed booking's stay priced again for a change of dates
// or party (package datechange).
type Restay struct {
	// Quote is the new stay's price, in the booking's payment mode.
	Quote pricing.Quote
	// Guard is the property's preparation days and rule-closed nights:
	// what the store checks, besides overlaps, when the new stay takes
	// its dates (as CreateOptions.DateGuard for a checkout).
	Guard DateGuard
	// CouponDropped: the booking had a coupon that does not apply to the
	// new stay (its dates, nights or minimum amount); the quote is
	// without it. A coupon that still applies stays, its redemption being
	// the booking's own (not counted again against its limit).
	CouponDropped bool
}

// RepriceStay prices st as the new stay of b, a booking of org, now: as a
// checkout of st would be priced (the stay rules, closed nights,
// preparation days, same-day cut-off and availability all apply), except
// that b's own stay does not count as taken, the booking's payment mode is
// kept, and b's coupon is kept when it still applies (see
// Restay.CouponDropped). Labels are in locale. It reads and decides;
// nothing is written: the store's atomic step that takes the new dates
// checks them again (Restay.Guard). Errors: CodeNotFound (property
// inactive or gone), CodeInvalid, the stay rule codes, CodeUnavailable,
// CodeAmountNotChargeable.
func (s *Service) RepriceStay(ctx context.Context, org *Organization, b *Booking, st Stay, locale string) (*Restay, error) {
	p, err := s.bookableProperty(ctx, org, b.PropertyID)
	if err != nil {
		return nil, err
	}
	out := &Restay{Guard: dateGuard(p)}
	if p, err = s.withCalendar(ctx, p, st.CheckIn, st.CheckOut.AddDays(1)); err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	now := s.clock.Now()
	if err := checkRules(org, p, st, s.ruleChecker(org, p, now)); err != nil {
		return nil, err
	}
	taken, err := s.checkFreeOf(ctx, p, st, b, now)
	if err != nil {
		return nil, err
	}
	if err := s.checkSameDay(ctx, org, p.ID, st, now); err != nil {
		return nil, err
	}
	tier, err := s.unitPricing(ctx, p, st.Range(), taken)
	if err != nil {
		return nil, err
	}
	p, out.Guard.Units = tier.p, tier.units
	today := s.today(org, now)
	in := pricingStay(org, p, st, today)
	in.Mode = b.PaymentMode
	in.Decimals = s.chargeDecimals(org.Currency)
	q, err := pricing.Compute(in)
	if err != nil {
		return nil, chargeError(fmt.Errorf("price stay at property %d: %w", p.ID, err))
	}
	if b.CouponCode != "" {
		c, err := s.store.CouponByCode(ctx, org.ID, coupon.Normalize(b.CouponCode))
		switch {
		case ErrorCode(err) == CodeNotFound:
			out.CouponDropped = true
		case err != nil:
			return nil, fmt.Errorf("find coupon of booking %d: %w", b.ID, err)
		case coupon.Validate(*c, coupon.Use{Today: today, PropertyID: p.ID, CheckIn: st.CheckIn, Nights: q.Nights, Amount: q.CouponBase}) != nil:
			// Redemptions left at zero: the booking holds its own.
			out.CouponDropped = true
		default:
			d := c.Discount()
			in.Coupon = &d
			if q, err = pricing.Compute(in); err != nil {
				return nil, fmt.Errorf("price stay with coupon at property %d: %w", p.ID, err)
			}
		}
	}
	labelQuote(&q, org, p, locale)
	q = s.foldSmallBalance(q)
	out.Quote = q
	return out, nil
}

// checkFreeOf is checkFree for booking b moving to st: its own hold does
// not count as taken (two stays of one unit never overlap, so the hold of
// b's range on b's unit is b's). It returns the holds it read, b's apart.
func (s *Service) checkFreeOf(ctx context.Context, p *Property, st Stay, b *Booking, now time.Time) ([]Hold, error) {
	guarded, taken, err := s.holdsNear(ctx, p, st.Range(), now)
	if err != nil {
		return nil, err
	}
	for i, h := range taken {
		if h.Range == b.Range() && h.Unit == b.UnitID {
			taken = append(taken[:i:i], taken[i+1:]...)
			break
		}
	}
	if !UnitFree(p, taken, guarded) {
		return nil, errUnavailable()
	}
	return taken, checkOpen(p, st)
}
