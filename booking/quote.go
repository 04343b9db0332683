package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// QuoteRequest asks what a stay costs.
type QuoteRequest struct {
	Stay
	// CouponCode, when not empty, must apply to the stay.
	CouponCode string
	// Locale ("fr" or "en") is the language of the lines' labels; empty
	// means the organisation's default.
	Locale string
}

// quote prices a stay, enforcing the stay rules and availability. Errors:
// CodeNotFound, CodeInvalid, the stay rule codes, CodeUnavailable,
// CodeCouponNotFound and the coupon codes of package coupon.
func (s *Service) quote(ctx context.Context, resolve orgFunc, propertyID int64, r QuoteRequest) (*pricing.Quote, error) {
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.bookableProperty(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	if p, err = s.withCalendar(ctx, p, r.CheckIn, r.CheckOut.AddDays(1)); err != nil {
		return nil, fmt.Errorf("read calendar of property %d: %w", p.ID, err)
	}
	now := s.clock.Now()
	if err := checkRules(org, p, r.Stay, s.ruleChecker(org, p, now)); err != nil {
		return nil, err
	}
	taken, err := s.checkFree(ctx, p, r.Stay, now)
	if err != nil {
		return nil, err
	}
	if err := s.checkSameDay(ctx, org, p.ID, r.Stay, now); err != nil {
		return nil, err
	}
	tier, err := s.unitPricing(ctx, p, r.Range(), taken)
	if err != nil {
		return nil, err
	}
	q, _, err := s.price(ctx, org, tier.p, r, now)
	if err != nil {
		return nil, err
	}
	q = s.foldSmallBalance(q)
	if err := s.checkChargeable(q); err != nil {
		return nil, err
	}
	return &q, nil
}

// checkFree reports CodeUnavailable when a night of the stay is taken on
// every unit,
// closed, or kept for preparing the property before or after another
// stay. It gives quotes a clear early answer. A checkout reads no
// occupancy (checkOpen only): the store is the authority, CreateBooking
// checks the same three things in its atomic step (CreateOptions from
// freeGuard), so that two checkouts, or a checkout and a host closing a
// night, cannot both pass. Keep the two in step: the range read here is
// CreateOptions.Guarded of the stay, and CreateOptions.ClosedNight
// decides as set.Days does after withCalendar. It returns the holds it
// read (holdsNear), for the stay's pricing by unit.
func (s *Service) checkFree(ctx context.Context, p *Property, st Stay, now time.Time) ([]Hold, error) {
	guarded, taken, err := s.holdsNear(ctx, p, st.Range(), now)
	if err != nil {
		return nil, err
	}
	if !UnitFree(p, taken, guarded) {
		return nil, errUnavailable()
	}
	return taken, checkOpen(p, st)
}

// holdsNear reads the holds that decide whether a unit of p is free for
// stay: those overlapping guarded, the stay widened by p's preparation
// days (DateGuard.Guarded).
func (s *Service) holdsNear(ctx context.Context, p *Property, stay civil.Range, now time.Time) (guarded civil.Range, taken []Hold, err error) {
	gap := p.Rates.Rules.Gap()
	guarded = civil.Range{Start: stay.Start.AddDays(-gap), End: stay.End.AddDays(gap)}
	if taken, err = s.store.Occupied(ctx, p.ID, guarded.Start, guarded.End, now); err != nil {
		return guarded, nil, fmt.Errorf("read occupancy of property %d: %w", p.ID, err)
	}
	return guarded, taken, nil
}

// checkOpen reports CodeUnavailable when a night of the stay is closed by
// p's calendar (as withCalendar merged it): the part of checkFree that
// needs no read.
func checkOpen(p *Property, st Stay) error {
	for _, d := range p.Rates.Rules.Days {
		if d.Closed && st.Range().Contains(d.Date) {
			return errUnavailable()
		}
	}
	return nil
}

// price computes the quote of a stay whose rules were checked, applying the
// coupon if one is asked for. It returns the coupon applied, or nil.
func (s *Service) price(ctx context.Context, org *Organization, p *Property, r QuoteRequest, now time.Time) (pricing.Quote, *coupon.Coupon, error) {
	today := s.today(org, now)
	in := pricingStay(org, p, r.Stay, today)
	in.Decimals = s.chargeDecimals(org.Currency)
	q, err := pricing.Compute(in)
	if err != nil {
		return pricing.Quote{}, nil, chargeError(fmt.Errorf("price stay at property %d: %w", p.ID, err))
	}
	if r.CouponCode == "" {
		labelQuote(&q, org, p, r.Locale)
		return q, nil, nil
	}
	c, err := s.applicableCoupon(ctx, org, r.CouponCode, coupon.Use{
		Today: today, PropertyID: p.ID, CheckIn: r.CheckIn, Nights: q.Nights, Amount: q.CouponBase,
	}, now)
	if err != nil {
		return pricing.Quote{}, nil, err
	}
	d := c.Discount()
	in.Coupon = &d
	if q, err = pricing.Compute(in); err != nil {
		return pricing.Quote{}, nil, fmt.Errorf("price stay with coupon at property %d: %w", p.ID, err)
	}
	labelQuote(&q, org, p, r.Locale)
	return q, c, nil
}

// pricingStay is what pricing needs to price st at property p of org.
func pricingStay(org *Organization, p *Property, st Stay, today civil.Date) pricing.Stay {
	return pricing.Stay{
		CheckIn: st.CheckIn, CheckOut: st.CheckOut, Guests: st.Guests, Currency: org.Currency,
		Plan: p.Rates, Fees: p.Fees, Tax: p.Tax, Party: st.Party, Extras: st.Extras,
		Mode: org.PaymentMode, DepositPercent: org.DepositPercent, BalanceDueDays: org.BalanceDueDays,
		Today: today,
	}
}

// applicableCoupon finds a coupon and checks it against a use, counting its
// current holders. Errors: CodeCouponNotFound, the codes of package coupon.
func (s *Service) applicableCoupon(ctx context.Context, org *Organization, code string, use coupon.Use, now time.Time) (*coupon.Coupon, error) {
	c, err := s.store.CouponByCode(ctx, org.ID, coupon.Normalize(code))
	if err != nil {
		if ErrorCode(err) == CodeNotFound {
			return nil, &Error{Code: CodeCouponNotFound, Message: "This coupon code does not exist.",
				Fields: map[string][]string{"coupon_code": {"coupon_not_found"}}}
		}
		return nil, fmt.Errorf("find coupon: %w", err)
	}
	if c.MaxRedemptions > 0 {
		if use.Redemptions, err = s.store.CouponRedemptions(ctx, c.ID, now); err != nil {
			return nil, fmt.Errorf("count redemptions of coupon %d: %w", c.ID, err)
		}
	}
	if err := coupon.Validate(*c, use); err != nil {
		return nil, couponError(err)
	}
	return c, nil
}

// couponError turns a coupon.Error into the domain's Error.
func couponError(err error) error {
	var ce *coupon.Error
	if !errors.As(err, &ce) {
		return fmt.Errorf("validate coupon: %w", err)
	}
	return &Error{Code: ce.Code, Message: ce.Message, Params: ce.Params,
		Fields: map[string][]string{"coupon_code": {ce.Code}}}
}

// CouponCheck asks whether a code applies, optionally to a given stay.
type CouponCheck struct {
	Code string
	// PropertyID, CheckIn, CheckOut and Guests are optional; with a
	// property and both dates the discount amount is computed. A stay given
	// obeys the rules of a quote: both dates, in order, check-in not past,
	// check-out within the booking horizon and, with a property, its stay
	// limits and party size.
	PropertyID int64
	CheckIn    civil.Date
	CheckOut   civil.Date
	// Guests is the party size; zero means one guest.
	Guests int
}

// CouponResult says how a valid coupon discounts.
type CouponResult struct {
	Code     string
	Label    string
	Kind     pricing.DiscountKind
	Value    decimal.Decimal
	Currency string
	// DiscountAmount is set when a stay was given.
	DiscountAmount *decimal.Decimal
}

// stay returns the stay a check is for, and whether dates were given.
func (r CouponCheck) stay() (Stay, bool) {
	st := Stay{CheckIn: r.CheckIn, CheckOut: r.CheckOut, Guests: r.Guests}
	if st.Guests == 0 {
		st.Guests = 1
	}
	return st, !r.CheckIn.IsZero() || !r.CheckOut.IsZero()
}

// validateCoupon checks a coupon code before checkout. Errors: CodeInvalid,
// CodeNotFound (organisation or property), the stay rule codes (when a stay
// is given), CodeCouponNotFound and the codes of package coupon.
func (s *Service) validateCoupon(ctx context.Context, resolve orgFunc, r CouponCheck) (*CouponResult, error) {
	f := FieldErrors{}
	if coupon.Normalize(r.Code) == "" {
		f.Add("code", "required")
	}
	st, dated := r.stay()
	if dated {
		st.validateShape(f)
	} else if st.Guests < 1 {
		f.Add("guests_count", "min_one")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	org, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	today := s.today(org, now)
	if dated {
		if err := checkDates(org, st, today); err != nil {
			return nil, err
		}
	}
	// Stay conditions (dates, nights, amount) are checked only when the
	// stay can be priced: a property and both dates.
	use := coupon.Use{Today: today, PropertyID: r.PropertyID}
	var base *pricing.Quote
	if r.PropertyID != 0 {
		p, err := s.bookableProperty(ctx, org, r.PropertyID)
		if err != nil {
			return nil, err
		}
		if dated {
			if p, err = s.withCalendar(ctx, p, st.CheckIn, st.CheckOut.AddDays(1)); err != nil {
				return nil, fmt.Errorf("read calendar of property %d: %w", r.PropertyID, err)
			}
			if err := checkRules(org, p, st, s.ruleChecker(org, p, now)); err != nil {
				return nil, err
			}
			q, err := pricing.Compute(pricingStay(org, p, st, today))
			if err != nil {
				return nil, chargeError(fmt.Errorf("price stay for coupon: %w", err))
			}
			base = &q
			use.CheckIn, use.Nights, use.Amount = r.CheckIn, q.Nights, q.CouponBase
		} else if st.Guests > p.MaxGuests {
			return nil, errMaxGuests(p.MaxGuests)
		}
	}
	c, err := s.applicableCoupon(ctx, org, r.Code, use, now)
	if err != nil {
		return nil, err
	}
	res := &CouponResult{Code: c.Code, Label: c.Label, Kind: c.Kind, Value: c.Value, Currency: org.Currency}
	if base != nil {
		amount := c.Discount().Amount(base.CouponBase, org.Currency)
		res.DiscountAmount = &amount
	}
	return res, nil
}

// chargeError turns the pricing errors a guest causes (an unknown extra, a
// quantity out of range, a party that does not add up) into CodeInvalid;
// others stay server faults.
func chargeError(err error) error {
	f := FieldErrors{}
	switch {
	case errors.Is(err, pricing.ErrUnknownExtra):
		f.Add("extras", "unknown_extra")
	case errors.Is(err, pricing.ErrInvalidQuantity):
		f.Add("extras", "invalid_quantity")
	case errors.Is(err, pricing.ErrInvalidGuests):
		f.Add("guests_count", "mismatch")
	default:
		return err
	}
	return f.Err()
}
