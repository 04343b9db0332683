package invoice

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// Locale is the language a document is drawn in: "fr" for a French
// guest, else "en".
func Locale(guestLocale string) string {
	if strings.HasPrefix(strings.ToLower(guestLocale), "fr") {
		return "fr"
	}
	return "en"
}

// Source is what a document is made of, read when it is issued.
type Source struct {
	Org      booking.Organization
	Seller   Seller
	Property booking.Property
	Booking  booking.Booking
	// IssueDate is today in the organisation's zone.
	IssueDate civil.Date
}

// taxBase is what a percentage tax on the lines on applies to, as
// pricing computes it: the accommodation net of every discount, and the
// fees of those codes. Taken from the quote's lines, it is exact, where
// the tax's amount divided by its rate would carry the tax's rounding.
func taxBase(q pricing.Quote, on []string) decimal.Decimal {
	base := decimal.Zero
	for _, code := range on {
		if code == pricing.LineAccommodation {
			base = base.Add(q.Accommodation)
			for _, d := range q.Discounts {
				base = base.Sub(d.Amount)
			}
			continue
		}
		for _, f := range q.Fees {
			if f.Code == code {
				base = base.Add(f.Amount)
			}
		}
	}
	return base
}

// LineRetained is the code of a replacement invoice's line for what a
// change that cost less kept of the decrease (datechange.Offer.Retained).
const LineRetained = "change_retained"

// NewInvoice is the invoice of src's booking: its stored quote's lines,
// VAT per rate (the rate read from the property's pricing.PercentTax of
// the same code), tourist tax and total. A booking whose total is more
// than its quote's (a change of stay kept part of a price decrease) gets
// a line LineRetained of the difference, outside the taxes, so that the
// invoice's total is the booking's.
func NewInvoice(src Source) Invoice {
	b, q := src.Booking, src.Booking.Quote
	loc := Locale(b.Locale)
	s := header(src, loc)
	s.Lines = append(s.Lines, Line{Code: pricing.LineAccommodation, Label: accommodationLabel(loc, q.Nights),
		Quantity: q.Nights, Amount: q.Accommodation})
	for _, d := range q.Discounts {
		s.Lines = append(s.Lines, Line{Code: d.Code, Label: label(d, loc), Amount: d.Amount.Neg()})
	}
	for _, f := range q.Fees {
		s.Lines = append(s.Lines, Line{Code: f.Code, Label: label(f, loc), Quantity: f.Quantity, Amount: f.Amount})
	}
	if kept := b.TotalAmount.Sub(q.Total); kept.IsPositive() {
		s.Lines = append(s.Lines, Line{Code: LineRetained, Label: retainedLabel[loc], Amount: kept})
	}
	s.Subtotal = decimal.Zero
	for _, l := range s.Lines {
		s.Subtotal = s.Subtotal.Add(l.Amount)
	}
	s.TouristTax = decimal.Zero
	settings := map[string]pricing.PercentTax{}
	for _, t := range src.Property.Fees.Taxes {
		settings[t.Code] = t
	}
	add := func(t pricing.Line, inclusive bool) {
		set, known := settings[t.Code]
		tax := Tax{Code: t.Code, Label: label(t, loc), Rate: set.Percent, Inclusive: inclusive, Amount: t.Amount, Base: decimal.Zero}
		if known {
			tax.Base = taxBase(q, set.On)
			if inclusive {
				tax.Base = tax.Base.Sub(t.Amount) // the lines' price net of the tax
			}
		}
		s.Taxes = append(s.Taxes, tax)
	}
	for _, t := range q.Taxes {
		if t.Code == pricing.LineTouristTax {
			s.TouristTax = s.TouristTax.Add(t.Amount)
			continue
		}
		add(t, false)
	}
	for _, t := range q.IncludedTaxes {
		add(t, true)
	}
	s.Total = q.Total
	if b.TotalAmount.GreaterThan(q.Total) {
		s.Total = b.TotalAmount
	}
	s.Paid = b.PaidAmount
	return Invoice{OrgID: b.OrgID, BookingID: b.ID, Kind: KindInvoice, Currency: b.Currency, Total: s.Total, Snapshot: s}
}

// NewCreditNote is the credit note of the refund entry of src's booking,
// which the invoice inv billed: one negative line of the refunded amount,
// and the invoice's taxes in proportion (refund / invoice total), each
// rounded to minor units.
func NewCreditNote(src Source, inv Invoice, refund ledger.Entry) Invoice {
	b := src.Booking
	loc := Locale(b.Locale)
	s := header(src, loc)
	s.Corrects = inv.Number
	amount := pricing.FromMinor(refund.Amount, refund.Currency)
	word := map[string]string{"fr": "Remboursement — facture n° ", "en": "Refund — invoice no. "}[loc]
	s.Lines = []Line{{Code: "refund", Label: word + inv.Display(), Amount: amount.Neg()}}
	s.TouristTax = decimal.Zero
	s.Paid = decimal.Zero
	ratio := decimal.Zero
	if t := inv.Snapshot.Total; t.IsPositive() {
		ratio = amount.Div(t)
	}
	var exclusive decimal.Decimal
	for _, t := range inv.Snapshot.Taxes {
		share := Tax{Code: t.Code, Label: t.Label, Rate: t.Rate, Inclusive: t.Inclusive,
			Base:   pricing.Round(t.Base.Mul(ratio), b.Currency).Neg(),
			Amount: pricing.Round(t.Amount.Mul(ratio), b.Currency).Neg()}
		s.Taxes = append(s.Taxes, share)
		if !t.Inclusive {
			exclusive = exclusive.Add(share.Amount)
		}
	}
	s.TouristTax = pricing.Round(inv.Snapshot.TouristTax.Mul(ratio), b.Currency).Neg()
	// The refund is the total: what the lines carry is the rest once
	// the taxes' shares are set apart.
	s.Total = amount.Neg()
	s.Subtotal = s.Total.Sub(exclusive).Sub(s.TouristTax)
	s.Lines[0].Amount = s.Subtotal
	return Invoice{OrgID: b.OrgID, BookingID: b.ID, Kind: KindCreditNote, LedgerEntryID: refund.ID,
		Currency: b.Currency, Total: s.Total, Snapshot: s}
}

// retainedLabel is the label of a LineRetained line.
var retainedLabel = map[string]string{
	"fr": "Montant conservé lors de la modification du séjour",
	"en": "Amount kept when the stay was changed",
}

// NewCancellation is the credit note that cancels inv, an invoice of
// src's booking whose stay changed since, in full: its stay as inv shows
// it, and each of its lines, taxes, tourist tax and totals negated. Its
// revision is inv's; it has no ledger entry.
func NewCancellation(src Source, inv Invoice) Invoice {
	b := src.Booking
	was := inv.Snapshot
	loc := Locale(b.Locale)
	if was.Locale != "" {
		loc = was.Locale // the words of the invoice it cancels
	}
	s := header(src, loc)
	s.Property, s.PropertyAddress = was.Property, was.PropertyAddress
	s.CheckIn, s.CheckOut, s.Nights, s.Guests = was.CheckIn, was.CheckOut, was.Nights, was.Guests
	s.Corrects = inv.Number
	s.Lines = make([]Line, 0, len(was.Lines))
	for _, l := range was.Lines {
		l.Amount = l.Amount.Neg()
		s.Lines = append(s.Lines, l)
	}
	for _, t := range was.Taxes {
		t.Base, t.Amount = t.Base.Neg(), t.Amount.Neg()
		s.Taxes = append(s.Taxes, t)
	}
	s.Subtotal, s.TouristTax, s.Total = was.Subtotal.Neg(), was.TouristTax.Neg(), was.Total.Neg()
	s.Paid = decimal.Zero
	return Invoice{OrgID: b.OrgID, BookingID: b.ID, Kind: KindCreditNote, Revision: inv.Revision,
		Currency: inv.Currency, Total: inv.Total.Neg(), Snapshot: s}
}

// header fills what every document of src shows.
func header(src Source, loc string) Snapshot {
	b, p := src.Booking, src.Property
	seller := src.Seller
	if seller.LegalName == "" {
		seller.LegalName = src.Org.Name
	}
	var place []string
	for _, part := range []string{strings.TrimSpace(p.PostalCode + " " + p.City), p.Country} {
		if part != "" {
			place = append(place, part)
		}
	}
	return Snapshot{Locale: loc, IssueDate: src.IssueDate, Seller: seller,
		Buyer: Buyer{Name: b.GuestName}, Property: p.Name, PropertyAddress: strings.Join(place, ", "),
		BookingRef: strconv.FormatInt(b.ID, 10), CheckIn: b.CheckIn, CheckOut: b.CheckOut, Nights: b.Nights(),
		Guests: b.Guests, Currency: b.Currency, Subtotal: decimal.Zero, TouristTax: decimal.Zero,
		Total: decimal.Zero, Paid: decimal.Zero, Taxes: []Tax{}}
}

// label is a quote line's label in loc, else its own.
func label(l pricing.Line, loc string) string {
	if s := l.Labels[loc]; s != "" {
		return s
	}
	return l.Label
}

func accommodationLabel(loc string, nights int) string {
	if loc == "fr" {
		if nights > 1 {
			return "Hébergement, " + strconv.Itoa(nights) + " nuits"
		}
		return "Hébergement, 1 nuit"
	}
	if nights > 1 {
		return "Accommodation, " + strconv.Itoa(nights) + " nights"
	}
	return "Accommodation, 1 night"
}
