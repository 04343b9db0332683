package invoice

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/signintech/gopdf"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
)

// The fonts are DejaVu Sans (Bitstream Vera licence, fonts/LICENSE):
// embedded so that the PDF draws é, € and every Latin letter of a guest's
// name on any machine, with no font installed.
var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
)

// words are a document's fixed texts by locale.
var words = map[string]map[string]string{
	"fr": {
		"invoice": "FACTURE", "credit_note": "AVOIR", "number": "N°", "date": "Date d'émission : ",
		"seller": "Vendeur", "buyer": "Client", "vat_id": "N° TVA intracommunautaire : ",
		"no_vat": "TVA non applicable, art. 293 B du CGI",
		"stay":   "Séjour", "booking": "Réservation n° ", "dates": "Du %s au %s, %s, %s",
		"night": "nuit", "nights": "nuits", "guest": "voyageur", "guests": "voyageurs",
		"line": "Désignation", "qty": "Qté", "amount": "Montant",
		"subtotal": "Sous-total", "tourist_tax": "Taxe de séjour (hors TVA)", "total": "Total TTC",
		"paid": "Déjà payé", "included": "dont %s %s %% incluse", "vat_table": "Récapitulatif des taxes",
		"rate": "Taux", "base": "Base", "tax": "Taxe", "corrects": "Avoir sur la facture n° ",
		"cancels": "Annule la facture n° %s (séjour modifié)", "replaces": "Remplace la facture n° %s (séjour modifié)",
	},
	"en": {
		"invoice": "INVOICE", "credit_note": "CREDIT NOTE", "number": "No.", "date": "Issue date: ",
		"seller": "Seller", "buyer": "Bill to", "vat_id": "VAT number: ",
		"no_vat": "VAT not applicable (art. 293 B of the French tax code)",
		"stay":   "Stay", "booking": "Booking no. ", "dates": "From %s to %s, %s, %s",
		"night": "night", "nights": "nights", "guest": "guest", "guests": "guests",
		"line": "Description", "qty": "Qty", "amount": "Amount",
		"subtotal": "Subtotal", "tourist_tax": "Tourist tax (outside VAT)", "total": "Total incl. taxes",
		"paid": "Already paid", "included": "of which %s %s%% included", "vat_table": "Taxes summary",
		"rate": "Rate", "base": "Base", "tax": "Tax", "corrects": "Credit note on invoice no. ",
		"cancels": "Cancels invoice no. %s (stay changed)", "replaces": "Replaces invoice no. %s (stay changed)",
	},
}

// Page geometry, in points (A4): the margins, the buyer's column and the
// space kept between two columns.
const (
	left   = 50.0
	right  = 545.0
	bottom = 790.0
	buyerX = 320.0
	gutter = 12.0
)

// Render writes inv as a one-document PDF in its snapshot's locale, drawn
// from the snapshot alone.
func Render(w io.Writer, inv Invoice) error {
	s := inv.Snapshot
	loc := s.Locale
	if words[loc] == nil {
		loc = "en"
	}
	t := words[loc]
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetInfo(gopdf.PdfInfo{Title: t[string(inv.Kind)] + " " + inv.Display(), Author: s.Seller.LegalName,
		Creator: "staykit", CreationDate: inv.IssuedAt.UTC().Truncate(time.Second)})
	if err := pdf.AddTTFFontData("sans", fontRegular); err != nil {
		return fmt.Errorf("invoice: font: %w", err)
	}
	if err := pdf.AddTTFFontData("bold", fontBold); err != nil {
		return fmt.Errorf("invoice: font: %w", err)
	}
	d := &drawer{pdf: pdf, y: 50}
	pdf.AddPage()

	// Title, number and date.
	d.text("bold", 20, left, t[string(inv.Kind)])
	d.right("bold", 12, t["number"]+" "+inv.Display())
	d.y += 26
	d.right("sans", 10, t["date"]+date(s.IssueDate, loc))
	switch {
	case inv.Cancellation():
		d.text("sans", 10, left, fmt.Sprintf(t["cancels"], Format(s.Corrects)))
	case inv.Kind == KindCreditNote:
		d.text("sans", 10, left, t["corrects"]+Format(s.Corrects))
	case s.Replaces != 0:
		d.text("sans", 10, left, fmt.Sprintf(t["replaces"], Format(s.Replaces)))
	}
	d.y += 24

	// Seller and buyer side by side.
	top := d.y
	d.text("bold", 9, left, t["seller"])
	d.y += 14
	d.block(left, buyerX-left-gutter, append(append([]string{s.Seller.LegalName, s.Seller.LegalForm}, lines(s.Seller.Address)...), vat(s, t)))
	sellerEnd := d.y
	d.y = top
	d.text("bold", 9, buyerX, t["buyer"])
	d.y += 14
	d.block(buyerX, right-buyerX, append([]string{s.Buyer.Name}, lines(s.Buyer.Address)...))
	d.y = max(d.y, sellerEnd) + 16

	// The stay.
	d.text("bold", 9, left, t["stay"])
	d.y += 14
	d.block(left, right-left, []string{s.Property, s.PropertyAddress, t["booking"] + s.BookingRef,
		fmt.Sprintf(t["dates"], date(s.CheckIn, loc), date(s.CheckOut, loc), count(s.Nights, t["night"], t["nights"]),
			count(s.Guests, t["guest"], t["guests"]))})
	d.y += 12

	// Lines.
	d.rule()
	d.y += 6
	d.text("bold", 9, left, t["line"])
	d.at("bold", 9, 420, t["qty"])
	d.right("bold", 9, t["amount"])
	d.y += 16
	for _, l := range s.Lines {
		qty := ""
		if l.Quantity > 0 {
			qty = fmt.Sprint(l.Quantity)
		}
		d.row(l.Label, qty, money(l.Amount, s.Currency, loc))
	}
	d.rule()
	d.y += 6
	d.row(t["subtotal"], "", money(s.Subtotal, s.Currency, loc))
	for _, x := range s.Taxes {
		if x.Inclusive {
			continue
		}
		d.row(x.Label+" "+percent(x.Rate, loc), "", money(x.Amount, s.Currency, loc))
	}
	if !s.TouristTax.IsZero() {
		d.row(t["tourist_tax"], "", money(s.TouristTax, s.Currency, loc))
	}
	d.y += 2
	d.text("bold", 11, left, t["total"])
	d.right("bold", 11, money(s.Total, s.Currency, loc))
	d.y += 18
	for _, x := range s.Taxes {
		if x.Inclusive {
			d.row(fmt.Sprintf(t["included"], x.Label, number(x.Rate, loc)), "", money(x.Amount, s.Currency, loc))
		}
	}
	if inv.Kind == KindInvoice && !s.Paid.IsZero() {
		d.row(t["paid"], "", money(s.Paid, s.Currency, loc))
	}

	// Taxes per rate.
	if len(s.Taxes) > 0 {
		d.y += 14
		d.text("bold", 9, left, t["vat_table"])
		d.y += 14
		d.at("bold", 9, left, t["tax"])
		d.at("bold", 9, 260, t["rate"])
		d.at("bold", 9, 340, t["base"])
		d.right("bold", 9, t["amount"])
		d.y += 14
		for _, x := range s.Taxes {
			d.at("sans", 9, left, x.Label)
			d.at("sans", 9, 260, percent(x.Rate, loc))
			d.at("sans", 9, 340, money(x.Base, s.Currency, loc))
			d.right("sans", 9, money(x.Amount, s.Currency, loc))
			d.y += 14
		}
	}
	if d.err != nil {
		return fmt.Errorf("invoice: draw: %w", d.err)
	}
	if _, err := pdf.WriteTo(w); err != nil {
		return fmt.Errorf("invoice: write pdf: %w", err)
	}
	return nil
}

// drawer draws lines of text down a page, keeping the first error.
type drawer struct {
	pdf *gopdf.GoPdf
	y   float64
	err error
}

func (d *drawer) font(name string, size float64) {
	if err := d.pdf.SetFont(name, "", size); err != nil && d.err == nil {
		d.err = err
	}
}

// text draws s at x on the current line.
func (d *drawer) text(font string, size, x float64, s string) { d.at(font, size, x, s) }

func (d *drawer) at(font string, size, x float64, s string) {
	if s == "" {
		return
	}
	d.font(font, size)
	d.pdf.SetXY(x, d.y)
	if err := d.pdf.Cell(nil, s); err != nil && d.err == nil {
		d.err = err
	}
}

// right draws s ending at the right margin.
func (d *drawer) right(font string, size float64, s string) {
	d.font(font, size)
	w, err := d.pdf.MeasureTextWidth(s)
	if err != nil && d.err == nil {
		d.err = err
	}
	d.at(font, size, right-w, s)
}

// block draws the non-empty lines of ls, one under the other, each
// wrapped at spaces to width (a word longer than width stays whole).
func (d *drawer) block(x, width float64, ls []string) {
	d.font("sans", 9)
	for _, l := range ls {
		for _, part := range d.wrap(strings.TrimSpace(l), width) {
			d.at("sans", 9, x, part)
			d.y += 12
		}
	}
}

// wrap cuts s into lines no wider than width in the current font.
func (d *drawer) wrap(s string, width float64) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		next := w
		if line != "" {
			next = line + " " + w
		}
		if wide, err := d.pdf.MeasureTextWidth(next); err == nil && wide > width && line != "" {
			out = append(out, line)
			next = w
		}
		line = next
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// row draws a priced line: label, quantity and amount, breaking to a
// new page near the bottom.
func (d *drawer) row(label, qty, amount string) {
	if d.y > bottom {
		d.pdf.AddPage()
		d.y = 50
	}
	d.at("sans", 9, left, label)
	d.at("sans", 9, 420, qty)
	d.right("sans", 9, amount)
	d.y += 14
}

func (d *drawer) rule() {
	d.pdf.SetLineWidth(0.5)
	d.pdf.Line(left, d.y, right, d.y)
}

// lines splits an address into its lines.
func lines(s string) []string { return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") }

// vat is the seller's VAT line: its number; without one, the franchise
// mention (art. 293 B CGI) when the document charges no percentage tax,
// and nothing when it does (a document charging VAT cannot say that VAT
// does not apply; the seller's number is missing from its settings).
func vat(s Snapshot, t map[string]string) string {
	switch {
	case s.Seller.VATID != "":
		return t["vat_id"] + s.Seller.VATID
	case len(s.Taxes) == 0:
		return t["no_vat"]
	}
	return ""
}

// count is n with the word for its number: "1 nuit", "3 nuits". A stay
// has one night and one guest at least, so 0 (singular in French, plural
// in English) never comes.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// date prints d as 02/01/2006 in French, 2 January 2006 in English.
func date(d civil.Date, loc string) string {
	if d.IsZero() {
		return ""
	}
	if loc == "fr" {
		return fmt.Sprintf("%02d/%02d/%04d", d.Day, int(d.Month), d.Year)
	}
	return fmt.Sprintf("%d %s %d", d.Day, d.Month, d.Year)
}

// money prints an amount in the currency's minor units: "1 234,50 €" in
// French, "€1,234.50" in English.
func money(d decimal.Decimal, currency, loc string) string {
	sign := ""
	if d.IsNegative() {
		sign, d = "-", d.Neg()
	}
	n := number(pricing.Round(d, currency).StringFixed(pricing.MinorUnits(currency)), loc)
	sym := map[string]string{"EUR": "€", "GBP": "£", "USD": "$"}[currency]
	switch {
	case loc == "fr" && sym != "":
		return sign + n + "\u00a0" + sym
	case sym != "":
		return sign + sym + n
	}
	return sign + n + "\u00a0" + currency
}

// number groups the integer part of a decimal string by thousands and
// sets the locale's decimal mark; a decimal.Decimal is printed as is.
func number(v any, loc string) string {
	s := fmt.Sprint(v)
	if d, ok := v.(decimal.Decimal); ok {
		s = d.String()
	}
	whole, frac, _ := strings.Cut(s, ".")
	sep, mark := ",", "."
	if loc == "fr" {
		sep, mark = "\u202f", ","
	}
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString(mark + frac)
	}
	return b.String()
}

// percent prints a rate: "10 %" in French, "10%" in English; "" when
// unknown (zero).
func percent(rate decimal.Decimal, loc string) string {
	if rate.IsZero() {
		return ""
	}
	if loc == "fr" {
		return number(rate, loc) + "\u00a0%"
	}
	return number(rate, loc) + "%"
}
