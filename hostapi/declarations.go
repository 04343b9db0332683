package hostapi

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/reports"
)

// touristTaxRowView is a month's tourist tax in one municipality.
type touristTaxRowView struct {
	Month             string `json:"month"`
	Country           string `json:"country"`
	MunicipalityCode  string `json:"municipality_code"`
	PostalCode        string `json:"postal_code"`
	City              string `json:"city"`
	Stays             int    `json:"stays"`
	Nights            int    `json:"nights"`
	Arrivals          int    `json:"arrivals"`
	Guests            int    `json:"guests"`
	ExemptGuests      int    `json:"exempt_guests"`
	GuestNights       int    `json:"guest_nights"`
	ExemptGuestNights int    `json:"exempt_guest_nights"`
	Amount            string `json:"amount"`
}

// vatRowView is a month's percentage tax at one rate.
type vatRowView struct {
	Month     string  `json:"month"`
	Code      string  `json:"code"`
	Label     string  `json:"label"`
	Rate      *string `json:"rate"`
	Inclusive bool    `json:"inclusive"`
	Base      string  `json:"base"`
	Amount    string  `json:"amount"`
}

// declarationView is GET /reports/tourist-tax and /reports/vat.
type declarationView[T any] struct {
	Currency   string `json:"currency"`
	From       string `json:"from"`
	To         string `json:"to"`
	PropertyID *int64 `json:"property_id"`
	Rows       []T    `json:"rows"`
}

// vatLabel is a tax's label in loc, else the quote's.
func vatLabel(v reports.VATRow, loc string) string {
	if l := v.Labels[loc]; l != "" {
		return l
	}
	return v.Label
}

func (h *handler) touristTaxReport(r *http.Request, c *call) (int, any, error) {
	rep, q, err := h.report(r, c)
	if err != nil {
		return 0, nil, err
	}
	if wantsCSV(r) {
		var buf bytes.Buffer
		if err := rep.WriteTouristTaxCSV(&buf); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, fileAnswer{contentType: "text/csv; charset=utf-8", body: buf.Bytes(),
			name: fmt.Sprintf("tourist-tax-%s-%s-%s.csv", c.org.Slug, q.Span.From, q.Span.To)}, nil
	}
	places := pricing.MinorUnits(rep.Currency)
	v := declarationView[touristTaxRowView]{Currency: rep.Currency, From: rep.Span.From.String(), To: rep.Span.To.String(),
		PropertyID: optID(q.PropertyID), Rows: make([]touristTaxRowView, 0, len(rep.TouristTax))}
	for _, t := range rep.TouristTax {
		v.Rows = append(v.Rows, touristTaxRowView{Month: t.Month.String(), Country: t.Country, MunicipalityCode: t.MunicipalityCode,
			PostalCode: t.PostalCode, City: t.City, Stays: t.Stays, Nights: t.Nights, Arrivals: t.Arrivals, Guests: t.Guests,
			ExemptGuests: t.ExemptGuests, GuestNights: t.GuestNights, ExemptGuestNights: t.ExemptGuestNights,
			Amount: t.Amount.StringFixed(places)})
	}
	return http.StatusOK, v, nil
}

func (h *handler) vatReport(r *http.Request, c *call) (int, any, error) {
	rep, q, err := h.report(r, c)
	if err != nil {
		return 0, nil, err
	}
	if wantsCSV(r) {
		var buf bytes.Buffer
		if err := rep.WriteVATCSV(&buf, func(v reports.VATRow) string { return vatLabel(v, c.loc) }); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, fileAnswer{contentType: "text/csv; charset=utf-8", body: buf.Bytes(),
			name: fmt.Sprintf("vat-%s-%s-%s.csv", c.org.Slug, q.Span.From, q.Span.To)}, nil
	}
	places := pricing.MinorUnits(rep.Currency)
	v := declarationView[vatRowView]{Currency: rep.Currency, From: rep.Span.From.String(), To: rep.Span.To.String(),
		PropertyID: optID(q.PropertyID), Rows: make([]vatRowView, 0, len(rep.VAT))}
	for _, t := range rep.VAT {
		row := vatRowView{Month: t.Month.String(), Code: t.Code, Label: vatLabel(t, c.loc), Inclusive: t.Inclusive,
			Base: t.Base.StringFixed(places), Amount: t.Amount.StringFixed(places)}
		if t.Rate.IsPositive() {
			s := t.Rate.String()
			row.Rate = &s
		}
		v.Rows = append(v.Rows, row)
	}
	return http.StatusOK, v, nil
}
