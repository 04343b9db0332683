package invoice_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/invoice"
)

func receiptText(t *testing.T, r invoice.Receipt) string {
	t.Helper()
	pdftotext := testenv.Program(t, "pdftotext") // poppler-utils
	var buf bytes.Buffer
	if err := invoice.RenderReceipt(&buf, r); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "receipt.pdf")
	if err := os.WriteFile(pdf, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-layout", pdf, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.NewReplacer("\u202f", " ", "\u00a0", " ").Replace(string(out))
}

func TestReceipt(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	r := invoice.Receipt{Seller: "Villa Soleil", Guest: "Zoë Müller", BookingRef: "B-42", Property: "Villa Éden",
		CheckIn: civil.MustParse("2026-07-10"), CheckOut: civil.MustParse("2026-07-14"), Currency: "EUR",
		Total: dec("1462"), Paid: dec("1565"), Refunded: dec("103"), Balance: dec("0"),
		Payments: []invoice.ReceiptLine{
			{Date: time.Date(2026, 6, 1, 22, 30, 0, 0, time.UTC), Kind: "charge", Amount: dec("1359")},
			{Date: time.Date(2026, 6, 3, 9, 0, 0, 0, time.UTC), Kind: "change_charge", Amount: dec("206")},
			{Date: time.Date(2026, 6, 4, 9, 0, 0, 0, time.UTC), Kind: "refund", Amount: dec("103")},
		},
		IssuedAt: time.Date(2026, 6, 5, 8, 0, 0, 0, time.UTC), Zone: paris}
	for _, tc := range []struct {
		locale string
		want   []string
	}{
		{"fr", []string{"REÇU DE PAIEMENT", "Émis le 05/06/2026", "Zoë Müller", "Réservation n° B-42", "Séjour du 10/07/2026 au 14/07/2026",
			"02/06/2026", "Paiement à la réservation", "1 359,00 €", "Modification du séjour", "206,00 €", "Remboursement", "-103,00 €",
			"Total du séjour", "1 462,00 €", "Total reçu", "1 565,00 €", "Total remboursé", "il ne tient pas lieu de facture"}},
		{"en", []string{"PAYMENT RECEIPT", "Issued on 5 June 2026", "Booking no. B-42", "Stay from 10 July 2026 to 14 July 2026",
			"2 June 2026", "Payment at booking", "€1,359.00", "Change of stay", "Refund", "-€103.00", "Total received", "€1,565.00", "not an invoice"}},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			r.Locale = tc.locale
			wantText(t, receiptText(t, r), tc.want...)
		})
	}
	r.Locale, r.Balance, r.BalanceDue = "en", dec("250"), civil.MustParse("2026-07-07")
	wantText(t, receiptText(t, r), "Left to pay (by 7 July 2026)", "€250.00")
}
