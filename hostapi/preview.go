package hostapi

import (
	"net/http"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/pricing"
)

// previewBody is POST /properties/{id}/preview: the fields of a PATCH
// (terms aside: they do not price) and the window and stay to price.
type previewBody struct {
	propertyBody
	From     civil.Date `json:"from"`
	Days     int        `json:"days"`
	CheckIn  civil.Date `json:"check_in"`
	CheckOut civil.Date `json:"check_out"`
	Guests   int        `json:"guests"`
}

// previewView is a property's prices under a change not saved.
type previewView struct {
	Nights []pricing.Night `json:"nights"`
	Quote  quoteView       `json:"quote"`
}

// quoteView is a priced stay, as the guest's quote shows it.
type quoteView struct {
	CheckIn        civil.Date      `json:"check_in"`
	CheckOut       civil.Date      `json:"check_out"`
	Nights         int             `json:"nights"`
	Guests         int             `json:"guests"`
	Currency       string          `json:"currency"`
	Accommodation  decimal.Decimal `json:"accommodation"`
	Discounts      []lineView      `json:"discounts"`
	Fees           []lineView      `json:"fees"`
	Taxes          []lineView      `json:"taxes"`
	Total          decimal.Decimal `json:"total_amount"`
	PaymentMode    string          `json:"payment_mode"`
	Charge         decimal.Decimal `json:"charge_amount"`
	Balance        decimal.Decimal `json:"balance_amount"`
	BalanceDueDate *civil.Date     `json:"balance_due_date"`
}

// lineView is a discount, fee or tax of a quote.
type lineView struct {
	Code   string          `json:"code"`
	Label  string          `json:"label"`
	Amount decimal.Decimal `json:"amount"`
}

func newQuoteView(q pricing.Quote) quoteView {
	lines := func(ls []pricing.Line) []lineView {
		out := make([]lineView, 0, len(ls))
		for _, l := range ls {
			out = append(out, lineView{Code: l.Code, Label: l.Label, Amount: l.Amount})
		}
		return out
	}
	v := quoteView{CheckIn: q.CheckIn, CheckOut: q.CheckOut, Nights: q.Nights, Guests: q.Guests, Currency: q.Currency,
		Accommodation: q.Accommodation, Discounts: lines(q.Discounts), Fees: lines(q.Fees), Taxes: lines(q.Taxes),
		Total: q.Total, PaymentMode: string(q.Mode), Charge: q.Charge, Balance: q.Balance}
	if !q.BalanceDueDate.IsZero() {
		d := q.BalanceDueDate
		v.BalanceDueDate = &d
	}
	return v
}

func (h *handler) previewProperty(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b previewBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	pv, err := h.host.PreviewRates(r.Context(), c.org, id, host.Preview{Change: b.change(), From: b.From, Days: b.Days,
		Stay: booking.Stay{CheckIn: b.CheckIn, CheckOut: b.CheckOut, Guests: b.Guests}, Locale: c.loc})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, previewView{Nights: pv.Nights, Quote: newQuoteView(pv.Quote)}, nil
}
