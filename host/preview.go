package host

import (
	"context"
	"errors"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// PreviewDays bounds a preview's window of nightly prices.
const (
	PreviewDefaultDays = 28
	PreviewMaxDays     = 366
)

// Preview asks what a property's prices would be under a change not
// saved yet.
type Preview struct {
	Change PropertyChange
	// From is the window's first night (zero: today in the
	// organisation's time zone); Days its length (0: PreviewDefaultDays,
	// at most PreviewMaxDays).
	From civil.Date
	Days int
	// Stay is the sample stay to quote; its check-in and check-out are
	// required, Guests 0 means 2 (at most the property's maximum).
	Stay booking.Stay
	// Locale labels the quote's lines ("" : the organisation's).
	Locale string
}

// RatesPreview is a property's prices under a change not saved yet: the
// price of each night of the window and the quote of the sample stay, as
// the guest would see them (seasons, weekend nights, overrides,
// length-of-stay discounts, fees and taxes).
type RatesPreview struct {
	Nights []pricing.Night
	Quote  pricing.Quote
}

// PreviewRates prices a property under a change without saving it.
// Errors: CodeNotFound, CodeInvalid (the change, the window or the stay,
// field by field).
func (s *Service) PreviewRates(ctx context.Context, org *booking.Organization, id int64, r Preview) (*RatesPreview, error) {
	if err := booking.CheckBounds(r.Change, org.Currency); err != nil {
		return nil, err
	}
	before, err := s.Property(ctx, org, id)
	if err != nil {
		return nil, err
	}
	p := *before
	if err := r.Change.apply(&p); err != nil {
		return nil, err
	}
	today := civil.Today(s.clock.Now(), org.Location())
	f := booking.FieldErrors{}
	if r.From.IsZero() {
		r.From = today
	}
	switch {
	case r.Days == 0:
		r.Days = PreviewDefaultDays
	case r.Days < 1 || r.Days > PreviewMaxDays:
		f.Add("days", "out_of_range")
	}
	st := r.Stay
	if st.CheckIn.IsZero() {
		f.Add("check_in", "required")
	}
	if st.CheckOut.IsZero() {
		f.Add("check_out", "required")
	}
	if !st.CheckIn.IsZero() && !st.CheckOut.IsZero() && (!st.CheckIn.Before(st.CheckOut) || st.CheckIn.DaysUntil(st.CheckOut) > PreviewMaxDays) {
		f.Add("check_out", "invalid_range")
	}
	if st.Guests == 0 {
		st.Guests = min(2, max(p.MaxGuests, 1))
	}
	if st.Guests < 1 || st.Guests > max(p.MaxGuests, 1) {
		f.Add("guests", "out_of_range")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	// The window's nights: one guest, no fees, no taxes, paid in full —
	// the nightly prices alone.
	window, err := pricing.Compute(pricing.Stay{CheckIn: r.From, CheckOut: r.From.AddDays(r.Days), Guests: 1,
		Currency: org.Currency, Plan: p.Rates, Mode: pricing.ModeFull})
	if err != nil {
		return nil, previewError(err)
	}
	q, err := booking.PriceStay(org, &p, st, today, r.Locale)
	if err != nil {
		return nil, previewError(err)
	}
	return &RatesPreview{Nights: window.NightsDetail, Quote: q}, nil
}

// previewError is a pricing refusal as the API's invalid input.
func previewError(err error) error {
	for _, e := range []error{pricing.ErrInvalidPlan, pricing.ErrInvalidAmount, pricing.ErrInvalidDates, pricing.ErrInvalidGuests} {
		if errors.Is(err, e) {
			return &booking.Error{Code: booking.CodeInvalid, Message: "These prices cannot be computed: " + err.Error(), Err: err}
		}
	}
	return err
}
