package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/pricing"
)

// CouponChange creates or changes a coupon: nil fields stay as they are
// (on creation: empty, and Active true).
type CouponChange struct {
	Code           *string
	Label          *string
	Kind           *pricing.DiscountKind
	Value          *decimal.Decimal
	Active         *bool
	ValidFrom      *civil.Date
	ValidUntil     *civil.Date
	StayFrom       *civil.Date
	StayUntil      *civil.Date
	MinNights      *int
	MinAmount      *decimal.Decimal
	MaxRedemptions *int
	PropertyIDs    *[]int64
}

func (c CouponChange) apply(cp *coupon.Coupon) error {
	set(&cp.Code, c.Code)
	set(&cp.Label, c.Label)
	set(&cp.Kind, c.Kind)
	set(&cp.Value, c.Value)
	set(&cp.Active, c.Active)
	set(&cp.ValidFrom, c.ValidFrom)
	set(&cp.ValidUntil, c.ValidUntil)
	set(&cp.StayFrom, c.StayFrom)
	set(&cp.StayUntil, c.StayUntil)
	set(&cp.MinNights, c.MinNights)
	set(&cp.MinAmount, c.MinAmount)
	set(&cp.MaxRedemptions, c.MaxRedemptions)
	set(&cp.PropertyIDs, c.PropertyIDs)
	cp.Code = coupon.Normalize(cp.Code)
	if err := cp.Validate(); err != nil {
		var ce *coupon.ConfigError
		if errors.As(err, &ce) {
			return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: ce.Fields}
		}
		return err
	}
	return nil
}

// CouponCount is a coupon with the number of bookings holding it now.
type CouponCount struct {
	coupon.Coupon
	Redemptions int
}

// Coupons lists an organisation's coupons by code, with their redemptions.
func (s *Service) Coupons(ctx context.Context, org *booking.Organization) ([]CouponCount, error) {
	list, err := s.records.Coupons(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list coupons: %w", err)
	}
	out := make([]CouponCount, len(list))
	for i, c := range list {
		if out[i], err = s.count(ctx, &c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Coupon finds a coupon of org. Errors: CodeNotFound.
func (s *Service) Coupon(ctx context.Context, org *booking.Organization, id int64) (*CouponCount, error) {
	c, err := s.records.CouponByID(ctx, org.ID, id)
	if err != nil {
		return nil, notFoundAs(err, "coupon", "find coupon")
	}
	cc, err := s.count(ctx, c)
	if err != nil {
		return nil, err
	}
	return &cc, nil
}

func (s *Service) count(ctx context.Context, c *coupon.Coupon) (CouponCount, error) {
	n, err := s.store.CouponRedemptions(ctx, c.ID, s.clock.Now())
	if err != nil {
		return CouponCount{}, fmt.Errorf("count redemptions of coupon %d: %w", c.ID, err)
	}
	return CouponCount{Coupon: *c, Redemptions: n}, nil
}

// CreateCoupon adds a coupon to org. Errors: CodeInvalid, CodeConflict
// (the code exists).
func (s *Service) CreateCoupon(ctx context.Context, org *booking.Organization, c CouponChange, by Actor) (*CouponCount, error) {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return nil, err
	}
	cp := &coupon.Coupon{OrgID: org.ID, Active: true}
	if err := c.apply(cp); err != nil {
		return nil, err
	}
	if err := s.checkProperties(ctx, org, cp.PropertyIDs); err != nil {
		return nil, err
	}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.CreateCoupon(ctx, cp); err != nil {
			return couponConflict(err, "create coupon")
		}
		return s.audit(ctx, org, by, "coupon.create", target("coupon", cp.ID), nil, cp)
	})
	if err != nil {
		return nil, err
	}
	return &CouponCount{Coupon: *cp}, nil
}

// UpdateCoupon changes a coupon; bookings made with it keep their price.
// Errors: CodeNotFound, CodeInvalid, CodeConflict (the code exists).
func (s *Service) UpdateCoupon(ctx context.Context, org *booking.Organization, id int64, c CouponChange, by Actor) (*CouponCount, error) {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return nil, err
	}
	before, err := s.records.CouponByID(ctx, org.ID, id)
	if err != nil {
		return nil, notFoundAs(err, "coupon", "find coupon")
	}
	cp := *before
	if err := c.apply(&cp); err != nil {
		return nil, err
	}
	if err := s.checkProperties(ctx, org, cp.PropertyIDs); err != nil {
		return nil, err
	}
	action := "coupon.update"
	if before.Active && !cp.Active {
		action = "coupon.disable"
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.UpdateCoupon(ctx, &cp); err != nil {
			return couponConflict(notFoundAs(err, "coupon", "update coupon"), "update coupon")
		}
		return s.audit(ctx, org, by, action, target("coupon", id), before, cp)
	})
	if err != nil {
		return nil, err
	}
	return s.Coupon(ctx, org, id)
}

// DisableCoupon stops a coupon from applying to new bookings.
func (s *Service) DisableCoupon(ctx context.Context, org *booking.Organization, id int64, by Actor) (*CouponCount, error) {
	off := false
	return s.UpdateCoupon(ctx, org, id, CouponChange{Active: &off}, by)
}

// checkProperties refuses property IDs that are not org's.
func (s *Service) checkProperties(ctx context.Context, org *booking.Organization, ids []int64) error {
	for _, id := range ids {
		if _, err := s.store.Property(ctx, org.ID, id); err != nil {
			if booking.ErrorCode(err) == booking.CodeNotFound {
				return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
					Fields: booking.FieldErrors{"property_ids": {"not_found"}}}
			}
			return fmt.Errorf("check coupon property %d: %w", id, err)
		}
	}
	return nil
}

func couponConflict(err error, op string) error {
	if booking.ErrorCode(err) == booking.CodeConflict {
		return &booking.Error{Code: booking.CodeConflict, Message: "A coupon with this code exists already.",
			Params: map[string]string{booking.ParamReason: "code_taken"}, Err: err}
	}
	if booking.ErrorCode(err) == booking.CodeInternal {
		return fmt.Errorf("%s: %w", op, err)
	}
	return err
}
