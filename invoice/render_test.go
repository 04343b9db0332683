package invoice_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// keepPNG writes the rendered pages to this directory, to look at them.
var keepPNG = flag.String("png", "", "directory to write the rendered invoice pages to")

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// source is a booking of three nights at a French villa with a coupon,
// cleaning, an extra, 10 % VAT included in the accommodation and a
// tourist tax.
func source(locale string) invoice.Source {
	q := pricing.Quote{
		CheckIn: civil.MustParse("2026-07-10"), CheckOut: civil.MustParse("2026-07-13"), Nights: 3, Guests: 3,
		Currency: "EUR", Accommodation: dec("1200.00"),
		Discounts: []pricing.Line{{Code: pricing.LineCoupon, Label: "Coupon ETE", Labels: map[string]string{"fr": "Code promo ÉTÉ", "en": "Coupon SUMMER"}, Amount: dec("120.00")}},
		Fees: []pricing.Line{
			{Code: pricing.LineCleaningFee, Label: "Cleaning", Labels: map[string]string{"fr": "Ménage", "en": "Cleaning"}, Amount: dec("80.00")},
			{Code: "breakfast", Label: "Breakfast", Labels: map[string]string{"fr": "Petit-déjeuner", "en": "Breakfast"}, Quantity: 2, Amount: dec("30.00")},
		},
		Taxes:         []pricing.Line{{Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: dec("13.20")}},
		IncludedTaxes: []pricing.Line{{Code: "vat", Label: "VAT", Labels: map[string]string{"fr": "TVA", "en": "VAT"}, Amount: dec("98.18")}},
		Party:         pricing.Party{Adults: 2, Children: 1},
		Total:         dec("1203.20"),
	}
	return invoice.Source{
		Org:    booking.Organization{ID: 1, Name: "Villa Soleil"},
		Seller: invoice.Seller{LegalName: "SARL Villa Soleil", LegalForm: "SARL au capital de 10 000 €, RCS Nice 123 456 789", Address: "12 chemin des Pins\n06600 Antibes\nFrance", VATID: "FR12123456789"},
		Property: booking.Property{ID: 2, Name: "Villa Éden", City: "Antibes", PostalCode: "06600", Country: "FR",
			Fees: pricing.Fees{Taxes: []pricing.PercentTax{{Code: "vat", Percent: dec("10"), Inclusive: true, On: []string{pricing.LineAccommodation}}}}},
		Booking: booking.Booking{ID: 42, OrgID: 1, PropertyID: 2, GuestName: "Zoë Müller-Éluard", Locale: locale, Currency: "EUR",
			CheckIn: q.CheckIn, CheckOut: q.CheckOut, Guests: 3, Quote: q, TotalAmount: q.Total, PaidAmount: q.Total},
		IssueDate: civil.MustParse("2026-06-01"),
	}
}

// text renders inv and returns its text (pdftotext) and first page as PNG
// (pdftoppm).
func text(t *testing.T, inv invoice.Invoice, name string) string {
	t.Helper()
	pdftotext, pdftoppm := testenv.Program(t, "pdftotext"), testenv.Program(t, "pdftoppm") // poppler-utils
	var buf bytes.Buffer
	if err := invoice.Render(&buf, inv); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pdf := filepath.Join(dir, name+".pdf")
	if err := os.WriteFile(pdf, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-layout", pdf, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	pngDir := dir
	if *keepPNG != "" {
		pngDir = *keepPNG
	}
	if msg, err := exec.Command(pdftoppm, "-png", "-r", "80", "-f", "1", "-l", "1", pdf, filepath.Join(pngDir, name)).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, msg)
	}
	pngs, _ := filepath.Glob(filepath.Join(pngDir, name+"*.png"))
	if len(pngs) == 0 {
		t.Fatalf("pdftoppm made no page of %s", name)
	}
	if st, err := os.Stat(pngs[0]); err != nil || st.Size() < 10_000 {
		t.Fatalf("page %s is empty or missing: %v", pngs[0], err)
	}
	// Spaces as pdftotext gives them: no-break ones become plain.
	return strings.NewReplacer("\u202f", " ", "\u00a0", " ").Replace(string(out))
}

func wantText(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the PDF lacks %q; its text:\n%s", w, got)
		}
	}
}

func TestRenderFrench(t *testing.T) {
	inv := invoice.NewInvoice(source("fr-FR"))
	inv.Number, inv.IssuedAt = 7, time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	got := text(t, inv, "invoice-fr")
	wantText(t, got, "FACTURE", "N° 000007", "SARL Villa Soleil", "N° TVA intracommunautaire : FR12123456789",
		"Zoë Müller-Éluard", "Villa Éden", "06600 Antibes, FR", "Du 10/07/2026 au 13/07/2026, 3 nuits, 3 voyageurs",
		"Hébergement, 3 nuits", "1 200,00 €", "Code promo ÉTÉ", "-120,00 €", "Ménage", "Petit-déjeuner",
		"Taxe de séjour (hors TVA)", "13,20 €", "Total TTC", "1 203,20 €", "dont TVA 10 % incluse", "98,18 €",
		"Récapitulatif des taxes", "981,82 €")
}

// TestTaxBase: a tax's base is the lines it applies to (the accommodation
// net of its discounts, the fees named), not its rounded amount divided by
// its rate, so that base and tax add up to what the guest paid for those
// lines: 1 080.00 = 981.82 + 98.18 (98.18 / 10 % would say 981.80).
func TestTaxBase(t *testing.T) {
	src := source("fr")
	inv := invoice.NewInvoice(src)
	vat := inv.Snapshot.Taxes[0]
	if !vat.Base.Equal(dec("981.82")) || !vat.Base.Add(vat.Amount).Equal(dec("1080.00")) {
		t.Errorf("inclusive VAT: base %s + %s, want 981.82 + 98.18 = 1080.00", vat.Base, vat.Amount)
	}
	// An exclusive tax on the cleaning and the breakfast: its base is
	// those fees, 110.00, whatever its amount's rounding.
	src.Property.Fees.Taxes = append(src.Property.Fees.Taxes, pricing.PercentTax{Code: "svc", Percent: dec("5.5"),
		On: []string{pricing.LineCleaningFee, "breakfast"}})
	src.Booking.Quote.Taxes = append(src.Booking.Quote.Taxes, pricing.Line{Code: "svc", Label: "Service tax", Amount: dec("6.05")})
	inv = invoice.NewInvoice(src)
	var svc invoice.Tax
	for _, x := range inv.Snapshot.Taxes {
		if x.Code == "svc" {
			svc = x
		}
	}
	if !svc.Base.Equal(dec("110.00")) || svc.Inclusive || !svc.Rate.Equal(dec("5.5")) {
		t.Errorf("exclusive tax: %+v, want 5.5 %% on 110.00", svc)
	}
}

func TestRenderEnglish(t *testing.T) {
	inv := invoice.NewInvoice(source("en"))
	inv.Number = 12
	got := text(t, inv, "invoice-en")
	wantText(t, got, "INVOICE", "No. 000012", "VAT number: FR12123456789", "From 10 July 2026 to 13 July 2026, 3 nights, 3 guests",
		"Accommodation, 3 nights", "€1,200.00", "Coupon SUMMER", "-€120.00", "Tourist tax (outside VAT)",
		"Total incl. taxes", "€1,203.20", "of which VAT 10% included")
}

func TestRenderCreditNote(t *testing.T) {
	src := source("fr")
	inv := invoice.NewInvoice(src)
	inv.Number = 7
	refund := ledger.Entry{ID: 9, Kind: ledger.KindRefund, Status: ledger.StatusSucceeded, Amount: 60160, Currency: "EUR"}
	note := invoice.NewCreditNote(src, inv, refund)
	note.Number = 8
	if !note.Total.Equal(dec("-601.60")) || note.LedgerEntryID != 9 || note.Snapshot.Corrects != 7 {
		t.Fatalf("credit note total %s, entry %d, corrects %d", note.Total, note.LedgerEntryID, note.Snapshot.Corrects)
	}
	// Half the invoice refunded: half its VAT and tourist tax.
	if got := note.Snapshot.Taxes[0].Amount; !got.Equal(dec("-49.09")) {
		t.Errorf("VAT share %s, want -49.09", got)
	}
	if got := note.Snapshot.TouristTax; !got.Equal(dec("-6.60")) {
		t.Errorf("tourist tax share %s, want -6.60", got)
	}
	if sum := note.Snapshot.Subtotal.Add(note.Snapshot.TouristTax); !sum.Equal(note.Total) {
		t.Errorf("subtotal %s + tourist tax %s ≠ total %s", note.Snapshot.Subtotal, note.Snapshot.TouristTax, note.Total)
	}
	got := text(t, note, "credit-fr")
	wantText(t, got, "AVOIR", "N° 000008", "Avoir sur la facture n° 000007", "Remboursement — facture n° 000007", "-601,60 €")
}

// TestRenderNoVATNumber: a seller without a VAT number whose document
// charges no VAT states the franchise (art. 293 B CGI); one whose
// document charges VAT does not say that VAT does not apply.
func TestRenderNoVATNumber(t *testing.T) {
	const franchise = "VAT not applicable (art. 293 B of the French tax code)"
	src := source("en")
	src.Seller = invoice.Seller{}
	src.Property.Fees.Taxes = nil
	src.Booking.Quote.IncludedTaxes = nil
	src.Booking.Quote.Nights, src.Booking.Quote.Guests, src.Booking.Guests = 1, 1, 1
	src.Booking.CheckOut = src.Booking.CheckIn.AddDays(1)
	inv := invoice.NewInvoice(src)
	if inv.Snapshot.Seller.LegalName != "Villa Soleil" {
		t.Errorf("seller without a legal name: %q, want the organisation's name", inv.Snapshot.Seller.LegalName)
	}
	got := text(t, inv, "novat")
	wantText(t, got, franchise, "From 10 July 2026 to 11 July 2026, 1 night, 1 guest")
	if strings.Contains(got, "VAT 10%") || strings.Contains(got, "Taxes summary") {
		t.Errorf("a document without VAT shows VAT:\n%s", got)
	}

	withVAT := source("fr")
	withVAT.Seller = invoice.Seller{}
	got = text(t, invoice.NewInvoice(withVAT), "novat-vat")
	wantText(t, got, "dont TVA 10 % incluse")
	if strings.Contains(got, "TVA non applicable") || strings.Contains(got, "N° TVA") {
		t.Errorf("a document charging VAT says VAT does not apply, or shows an empty number:\n%s", got)
	}
}

// TestRenderWrapsLongLines: a long legal form and a long buyer's address
// wrap inside their columns: no word of the seller's column reaches the
// buyer's, none runs past the right margin (word boxes from pdftotext
// -bbox, in points).
func TestRenderWrapsLongLines(t *testing.T) {
	pdftotext := testenv.Program(t, "pdftotext")
	src := source("fr")
	src.Seller.LegalForm = "Société par actions simplifiée au capital de 100 000 €, RCS Nice 123 456 789, APE 5520Z, siège social à Antibes"
	inv := invoice.NewInvoice(src)
	inv.Number = 3
	inv.Snapshot.Buyer = invoice.Buyer{Name: "Maximilian-Alexander von Hohenzollern-Sigmaringen de la Tour d'Auvergne",
		Address: "Résidence Les Terrasses du Grand Large, bâtiment C, escalier 4\n1234 boulevard de la Croisette prolongée\n06400 Cannes"}
	var buf bytes.Buffer
	if err := invoice.Render(&buf, inv); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "long.pdf")
	if err := os.WriteFile(pdf, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-bbox", pdf, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v: %s", err, out)
	}
	if *keepPNG != "" {
		text(t, inv, "long")
	}
	word := regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>`)
	stayTop := 0.0
	var words [][]string
	for _, m := range word.FindAllStringSubmatch(string(out), -1) {
		words = append(words, m)
		if m[4] == "Séjour" {
			stayTop, _ = strconv.ParseFloat(m[2], 64)
		}
	}
	if stayTop == 0 || len(words) < 50 {
		t.Fatalf("no stay heading among %d words:\n%s", len(words), out)
	}
	seen := map[string]bool{}
	for _, m := range words {
		xMin, _ := strconv.ParseFloat(m[1], 64)
		yMin, _ := strconv.ParseFloat(m[2], 64)
		xMax, _ := strconv.ParseFloat(m[3], 64)
		seen[m[4]] = true
		if xMax > 546 {
			t.Errorf("%q runs past the right margin (to %.1f pt)", m[4], xMax)
		}
		if yMin < stayTop && xMin < 320 && xMax > 320 {
			t.Errorf("%q of the seller's column reaches the buyer's (%.1f to %.1f pt)", m[4], xMin, xMax)
		}
	}
	for _, w := range []string{"siège", "Antibes", "Hohenzollern-Sigmaringen", "Tour", "prolongée", "Cannes"} {
		if !seen[w] {
			t.Errorf("the PDF lost the word %q", w)
		}
	}
}

// changed is src's booking after a change to 11–13 July (2 nights), the
// policy keeping 40.00 of the decrease: its quote is the new stay's, its
// total that quote and the 40.00 kept.
func changed(src invoice.Source) invoice.Source {
	q := src.Booking.Quote
	q.CheckIn, q.Nights = civil.MustParse("2026-07-11"), 2
	q.Accommodation = dec("800.00")
	q.Discounts = []pricing.Line{{Code: pricing.LineCoupon, Label: "Coupon ETE", Labels: map[string]string{"fr": "Code promo ÉTÉ", "en": "Coupon SUMMER"}, Amount: dec("80.00")}}
	q.Taxes = []pricing.Line{{Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: dec("8.80")}}
	q.IncludedTaxes = []pricing.Line{{Code: "vat", Label: "VAT", Labels: map[string]string{"fr": "TVA", "en": "VAT"}, Amount: dec("65.45")}}
	q.Total = dec("838.80") // 720 + 80 + 30 + 8.80
	src.Booking.Quote, src.Booking.CheckIn = q, q.CheckIn
	src.Booking.TotalAmount = dec("878.80")
	src.Booking.PaidAmount = dec("878.80") // 1 203.20 paid, 324.40 given back
	return src
}

// TestRenderChangeOfStay: the cancellation of an invoice whose stay
// changed shows the old stay and every amount negated; the replacement
// shows the new stay, the amount kept on a line of its own, and names the
// invoice it replaces. Run with -png DIR to look at the pages.
func TestRenderChangeOfStay(t *testing.T) {
	for _, loc := range []string{"fr", "en"} {
		src := source(loc)
		inv := invoice.NewInvoice(src)
		inv.Number = 7
		now := changed(src)
		x := invoice.NewCancellation(now, inv)
		x.Number = 8
		if !x.Cancellation() || x.LedgerEntryID != 0 || !x.Total.Equal(dec("-1203.20")) || x.Snapshot.Corrects != 7 ||
			x.Snapshot.Nights != 3 || !x.Snapshot.TouristTax.Equal(dec("-13.20")) || !x.Snapshot.Taxes[0].Amount.Equal(dec("-98.18")) ||
			!x.Snapshot.Taxes[0].Base.Equal(dec("-981.82")) || !x.Snapshot.Subtotal.Add(x.Snapshot.TouristTax).Equal(x.Total) {
			t.Fatalf("cancellation: %+v", x)
		}
		repl := invoice.NewInvoice(now)
		repl.Number, repl.Snapshot.Replaces = 9, 7
		s := repl.Snapshot
		last := s.Lines[len(s.Lines)-1]
		if !repl.Total.Equal(dec("878.80")) || last.Code != invoice.LineRetained || !last.Amount.Equal(dec("40.00")) ||
			!s.Subtotal.Add(s.TouristTax).Equal(repl.Total) || !s.Taxes[0].Amount.Equal(dec("65.45")) || s.Nights != 2 {
			t.Fatalf("replacement: total %s, lines %+v, subtotal %s, taxes %+v", repl.Total, s.Lines, s.Subtotal, s.Taxes)
		}
		// Invoice less cancellation plus replacement: the new total.
		if net := inv.Total.Add(x.Total).Add(repl.Total); !net.Equal(now.Booking.TotalAmount) {
			t.Errorf("net %s, want %s", net, now.Booking.TotalAmount)
		}
		gotX, gotR := text(t, x, "cancellation-"+loc), text(t, repl, "replacement-"+loc)
		if loc == "fr" {
			wantText(t, gotX, "AVOIR", "N° 000008", "Annule la facture n° 000007 (séjour modifié)",
				"Du 10/07/2026 au 13/07/2026, 3 nuits", "Hébergement, 3 nuits", "-1 200,00 €", "-13,20 €", "-1 203,20 €")
			wantText(t, gotR, "FACTURE", "N° 000009", "Remplace la facture n° 000007 (séjour modifié)",
				"Du 11/07/2026 au 13/07/2026, 2 nuits", "Hébergement, 2 nuits", "800,00 €",
				"Montant conservé lors de la modification du séjour", "40,00 €", "8,80 €", "878,80 €", "65,45 €")
		} else {
			wantText(t, gotX, "CREDIT NOTE", "Cancels invoice no. 000007 (stay changed)", "-€1,203.20")
			wantText(t, gotR, "INVOICE", "Replaces invoice no. 000007 (stay changed)", "From 11 July 2026 to 13 July 2026, 2 nights",
				"Amount kept when the stay was changed", "€878.80")
		}
		if strings.Contains(gotR, "Avoir") || strings.Contains(gotR, "Credit note") {
			t.Errorf("the replacement reads as a credit note:\n%s", gotR)
		}
	}
}
