// Package storedform holds the forms in which the stores write structured
// values into JSON columns, shared by store/sqlite and store/postgres so
// that both write the same bytes and read the same history.
//
// A stored form is a contract with every database ever written: its field
// names are explicit and never follow a Go rename, and it reads the forms
// written before it.
package storedform

import (
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// quoteVersion is written in every stored quote. Rows without it were
// written before the stored form existed, as encoding/json's rendering of
// pricing.Quote (Go field names).
const quoteVersion = 1

// quote is the stored form of a pricing.Quote. Money is the decimal's exact
// string; dates are YYYY-MM-DD, "" for the zero date.
type quote struct {
	Version        int             `json:"version"`
	CheckIn        civil.Date      `json:"check_in"`
	CheckOut       civil.Date      `json:"check_out"`
	Nights         int             `json:"nights"`
	Guests         int             `json:"guests"`
	Currency       string          `json:"currency"`
	NightsDetail   []night         `json:"nights_detail"`
	Accommodation  decimal.Decimal `json:"accommodation"`
	Discounts      []line          `json:"discounts"`
	Fees           []line          `json:"fees"`
	Taxes          []line          `json:"taxes"`
	Total          decimal.Decimal `json:"total"`
	Mode           string          `json:"mode"`
	Charge         decimal.Decimal `json:"charge"`
	Balance        decimal.Decimal `json:"balance"`
	BalanceDueDate civil.Date      `json:"balance_due_date"`
	CouponCode     string          `json:"coupon_code"`
	CouponBase     decimal.Decimal `json:"coupon_base"`

	// IncludedTaxes are the inclusive taxes (VAT in the prices), kept
	// for the tax report (package reports); absent from rows written
	// before they were kept, and when there are none.
	IncludedTaxes []line `json:"included_taxes,omitempty"`
}

// night is the stored form of a pricing.Night.
type night struct {
	Date  civil.Date      `json:"date"`
	Price decimal.Decimal `json:"price"`
}

// line is the stored form of a pricing.Line.
type line struct {
	Code   string          `json:"code"`
	Label  string          `json:"label"`
	Amount decimal.Decimal `json:"amount"`
}

// EncodeQuote returns the stored form of q.
func EncodeQuote(q pricing.Quote) ([]byte, error) {
	s := quote{
		Version: quoteVersion, CheckIn: q.CheckIn, CheckOut: q.CheckOut, Nights: q.Nights,
		Guests: q.Guests, Currency: q.Currency, Accommodation: q.Accommodation,
		Discounts: toLines(q.Discounts), Fees: toLines(q.Fees), Taxes: toLines(q.Taxes), IncludedTaxes: toLines(q.IncludedTaxes),
		Total: q.Total, Mode: string(q.Mode), Charge: q.Charge, Balance: q.Balance,
		BalanceDueDate: q.BalanceDueDate, CouponCode: q.CouponCode, CouponBase: q.CouponBase,
	}
	if q.NightsDetail != nil {
		s.NightsDetail = make([]night, len(q.NightsDetail))
		for i, n := range q.NightsDetail {
			s.NightsDetail[i] = night{Date: n.Date, Price: n.Price}
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode quote: %w", err)
	}
	return b, nil
}

// DecodeQuote reads a stored quote, in the stored form or in the form
// written before it.
func DecodeQuote(b []byte) (pricing.Quote, error) {
	var v struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return pricing.Quote{}, fmt.Errorf("decode quote: %w", err)
	}
	switch {
	case v.Version == nil:
		// Written before the stored form: Go field names.
		var q pricing.Quote
		if err := json.Unmarshal(b, &q); err != nil {
			return pricing.Quote{}, fmt.Errorf("decode quote (unversioned): %w", err)
		}
		return q, nil
	case *v.Version != quoteVersion:
		return pricing.Quote{}, fmt.Errorf("decode quote: unknown version %d", *v.Version)
	}
	var s quote
	if err := json.Unmarshal(b, &s); err != nil {
		return pricing.Quote{}, fmt.Errorf("decode quote: %w", err)
	}
	q := pricing.Quote{
		CheckIn: s.CheckIn, CheckOut: s.CheckOut, Nights: s.Nights, Guests: s.Guests,
		Currency: s.Currency, Accommodation: s.Accommodation, Discounts: fromLines(s.Discounts),
		Fees: fromLines(s.Fees), Taxes: fromLines(s.Taxes), IncludedTaxes: fromLines(s.IncludedTaxes), Total: s.Total,
		Mode: pricing.PaymentMode(s.Mode), Charge: s.Charge, Balance: s.Balance,
		BalanceDueDate: s.BalanceDueDate, CouponCode: s.CouponCode, CouponBase: s.CouponBase,
	}
	if s.NightsDetail != nil {
		q.NightsDetail = make([]pricing.Night, len(s.NightsDetail))
		for i, n := range s.NightsDetail {
			q.NightsDetail[i] = pricing.Night{Date: n.Date, Price: n.Price}
		}
	}
	return q, nil
}

func toLines(ls []pricing.Line) []line {
	if ls == nil {
		return nil
	}
	out := make([]line, len(ls))
	for i, l := range ls {
		out[i] = line{Code: l.Code, Label: l.Label, Amount: l.Amount}
	}
	return out
}

func fromLines(ls []line) []pricing.Line {
	if ls == nil {
		return nil
	}
	out := make([]pricing.Line, len(ls))
	for i, l := range ls {
		out[i] = pricing.Line{Code: l.Code, Label: l.Label, Amount: l.Amount}
	}
	return out
}
