package invoice

import (
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"
	"github.com/signintech/gopdf"

	"github.com/staykit/staykit/civil"
)

// Receipt is a simple statement of the payments received for a booking
// (and refunded): not an invoice (no number, no taxes), what a guest
// downloads from the booking page as proof of payment.
type Receipt struct {
	// Locale is "fr" or "en" (others print in English).
	Locale string
	// Seller is who received the money: the organisation's name.
	Seller string
	// Guest is the guest's name; BookingRef the booking's reference.
	Guest, BookingRef string
	Property          string
	CheckIn, CheckOut civil.Date
	Currency          string
	// Total is the booking's total; Paid what was received, Refunded what
	// went back, Balance what is left to pay (due BalanceDue).
	Total, Paid, Refunded, Balance decimal.Decimal
	BalanceDue                     civil.Date
	// Payments are the lines, oldest first.
	Payments []ReceiptLine
	// IssuedAt is when the receipt was made; Zone the organisation's
	// time zone, in which instants are dated (UTC when nil).
	IssuedAt time.Time
	Zone     *time.Location
}

// ReceiptLine is one payment or refund of a receipt.
type ReceiptLine struct {
	Date time.Time
	// Kind is the line's kind as the payment schedule names it: charge,
	// balance, change_charge, refund, deposit_claim.
	Kind   string
	Amount decimal.Decimal
}

// receiptWords are a receipt's fixed texts by locale.
var receiptWords = map[string]map[string]string{
	"fr": {"title": "REÇU DE PAIEMENT", "issued": "Émis le ", "seller": "Reçu par", "guest": "Client", "booking": "Réservation n° ",
		"stay": "Séjour du %s au %s", "date": "Date", "what": "Paiement", "amount": "Montant",
		"charge": "Paiement à la réservation", "balance": "Solde", "change_charge": "Modification du séjour",
		"refund": "Remboursement", "deposit_claim": "Dépôt de garantie retenu",
		"total": "Total du séjour", "paid": "Total reçu", "refunded": "Total remboursé", "left": "Reste à payer", "due": "Reste à payer (avant le %s)",
		"note": "Ce reçu atteste des paiements reçus ; il ne tient pas lieu de facture."},
	"en": {"title": "PAYMENT RECEIPT", "issued": "Issued on ", "seller": "Received by", "guest": "Guest", "booking": "Booking no. ",
		"stay": "Stay from %s to %s", "date": "Date", "what": "Payment", "amount": "Amount",
		"charge": "Payment at booking", "balance": "Balance", "change_charge": "Change of stay",
		"refund": "Refund", "deposit_claim": "Security deposit kept",
		"total": "Total of the stay", "paid": "Total received", "refunded": "Total refunded", "left": "Left to pay", "due": "Left to pay (by %s)",
		"note": "This receipt acknowledges the payments received; it is not an invoice."},
}

// RenderReceipt writes r as a one-page PDF (more pages when it has many
// lines), with the invoices' fonts and number formats.
func RenderReceipt(w io.Writer, r Receipt) error {
	loc := r.Locale
	if receiptWords[loc] == nil {
		loc = "en"
	}
	t := receiptWords[loc]
	zone := r.Zone
	if zone == nil {
		zone = time.UTC
	}
	day := func(at time.Time) string { return date(civil.Today(at, zone), loc) }
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetInfo(gopdf.PdfInfo{Title: t["title"] + " " + r.BookingRef, Author: r.Seller, Creator: "staykit",
		CreationDate: r.IssuedAt.UTC().Truncate(time.Second)})
	if err := pdf.AddTTFFontData("sans", fontRegular); err != nil {
		return fmt.Errorf("receipt: font: %w", err)
	}
	if err := pdf.AddTTFFontData("bold", fontBold); err != nil {
		return fmt.Errorf("receipt: font: %w", err)
	}
	d := &drawer{pdf: pdf, y: 50}
	pdf.AddPage()
	d.text("bold", 20, left, t["title"])
	d.right("sans", 10, t["issued"]+day(r.IssuedAt))
	d.y += 34
	top := d.y
	d.text("bold", 9, left, t["seller"])
	d.y += 14
	d.block(left, buyerX-left-gutter, []string{r.Seller, r.Property})
	end := d.y
	d.y = top
	d.text("bold", 9, buyerX, t["guest"])
	d.y += 14
	d.block(buyerX, right-buyerX, []string{r.Guest, t["booking"] + r.BookingRef, fmt.Sprintf(t["stay"], date(r.CheckIn, loc), date(r.CheckOut, loc))})
	d.y = max(d.y, end) + 16
	d.rule()
	d.y += 6
	d.text("bold", 9, left, t["date"])
	d.at("bold", 9, 150, t["what"])
	d.right("bold", 9, t["amount"])
	d.y += 16
	for _, l := range r.Payments {
		amount := l.Amount
		if l.Kind == "refund" {
			amount = amount.Neg()
		}
		label := t[l.Kind]
		if label == "" {
			label = l.Kind
		}
		if d.y > bottom {
			pdf.AddPage()
			d.y = 50
		}
		d.at("sans", 9, left, day(l.Date))
		d.at("sans", 9, 150, label)
		d.right("sans", 9, money(amount, r.Currency, loc))
		d.y += 14
	}
	d.rule()
	d.y += 6
	d.row(t["total"], "", money(r.Total, r.Currency, loc))
	d.row(t["paid"], "", money(r.Paid, r.Currency, loc))
	if r.Refunded.IsPositive() {
		d.row(t["refunded"], "", money(r.Refunded, r.Currency, loc))
	}
	if r.Balance.IsPositive() {
		left := t["left"]
		if !r.BalanceDue.IsZero() {
			left = fmt.Sprintf(t["due"], date(r.BalanceDue, loc))
		}
		d.row(left, "", money(r.Balance, r.Currency, loc))
	}
	d.y += 14
	d.text("sans", 8, left, t["note"])
	if d.err != nil {
		return fmt.Errorf("receipt: draw: %w", d.err)
	}
	if _, err := pdf.WriteTo(w); err != nil {
		return fmt.Errorf("receipt: write pdf: %w", err)
	}
	return nil
}
