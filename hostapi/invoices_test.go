package hostapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/internal/testenv"
)

// TestInvoices: a confirmed booking gets its invoice and a refund its
// credit note (the job engine's task, run twice: no duplicate); the host
// lists them, per booking and in all, downloads them as PDF with the
// seller's details it set, and cannot reach another organisation's.
func TestInvoices(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		seller := map[string]any{"legal_name": "SARL Villa Soleil", "legal_form": "SARL au capital de 10 000 €",
			"address": "12 chemin des Pins\n06600 Antibes", "vat_id": "FR12123456789"}
		want(t, e.do("villa", req{method: "PUT", path: hostPath("villa", "/settings/invoicing"), body: seller}), http.StatusOK)
		if got := e.do("villa", req{method: "GET", path: hostPath("villa", "/settings/invoicing")}).data(t); got["vat_id"] != "FR12123456789" {
			t.Errorf("seller read back: %v", got)
		}
		if audit := e.do("villa", req{method: "GET", path: hostPath("villa", "/audit-log?limit=1")}); !strings.Contains(string(audit.body), `"action":"settings.invoicing"`) ||
			!strings.Contains(string(audit.body), "FR12123456789") {
			t.Errorf("the seller's change is not audited: %s", audit.body)
		}
		long := map[string]any{"legal_name": strings.Repeat("x", 501), "legal_form": "", "address": "", "vat_id": ""}
		want(t, e.do("villa", req{method: "PUT", path: hostPath("villa", "/settings/invoicing"), body: long}), http.StatusUnprocessableEntity, "invalid")

		first := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		second := e.paidBooking("villa", "soleil", "2026-07-10", "2026-07-12")
		other := e.paidBooking("other", "bastide", "2026-06-10", "2026-06-12")
		for range 2 {
			if _, err := e.replicas[0].invoices.IssueDue(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		r := e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", first)), body: map[string]any{"refund": "amount", "amount": "50"}})
		want(t, r, http.StatusOK)
		if n, err := e.replicas[0].invoices.IssueDue(t.Context()); err != nil || n != 1 {
			t.Fatalf("IssueDue after the refund issued %d (%v), want the credit note", n, err)
		}

		all := e.do("villa", req{method: "GET", path: hostPath("villa", "/invoices")})
		want(t, all, http.StatusOK)
		items := all.data(t)["items"].([]any)
		var got []string
		for _, it := range items {
			it := it.(map[string]any)
			got = append(got, fmt.Sprintf("%v %v %v %v %v", it["number"], it["kind"], it["booking_id"], it["total"], it["corrects"]))
		}
		wantList := []string{
			fmt.Sprintf("000001 invoice %d 200.00 <nil>", first),
			fmt.Sprintf("000002 invoice %d 200.00 <nil>", second),
			fmt.Sprintf("000003 credit_note %d -50.00 000001", first),
		}
		if strings.Join(got, "\n") != strings.Join(wantList, "\n") {
			t.Fatalf("invoices:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantList, "\n"))
		}
		// The other organisation has its own sequence.
		if items := e.do("other", req{method: "GET", path: hostPath("other", "/invoices")}).data(t)["items"].([]any); len(items) != 1 ||
			items[0].(map[string]any)["number"] != "000001" || items[0].(map[string]any)["booking_id"] != float64(other) {
			t.Errorf("other's invoices: %v", items)
		}
		byBooking := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/invoices", first))})
		want(t, byBooking, http.StatusOK)
		if n := len(byBooking.data(t)["items"].([]any)); n != 2 {
			t.Errorf("booking %d has %d documents, want 2", first, n)
		}
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/invoices", other))}), http.StatusNotFound, "not_found")

		noteID := int64(items[2].(map[string]any)["id"].(float64))
		pdf := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/invoices/%d/pdf", noteID))})
		want(t, pdf, http.StatusOK)
		if ct, cd := pdf.header.Get("Content-Type"), pdf.header.Get("Content-Disposition"); ct != "application/pdf" ||
			cd != `attachment; filename="credit_note-000003.pdf"` || !bytes.HasPrefix(pdf.body, []byte("%PDF-")) {
			t.Fatalf("PDF answer: %s, %s, %.20q", ct, cd, pdf.body)
		}
		text := pdfText(t, pdf.body)
		for _, w := range []string{"AVOIR", "000003", "Avoir sur la facture n° 000001", "SARL Villa Soleil", "FR12123456789", "Ana Guest", "-50,00"} {
			if !strings.Contains(text, w) {
				t.Errorf("credit note PDF lacks %q:\n%s", w, text)
			}
		}
		otherID := int64(e.do("other", req{method: "GET", path: hostPath("other", "/invoices")}).data(t)["items"].([]any)[0].(map[string]any)["id"].(float64))
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/invoices/%d/pdf", otherID))}), http.StatusNotFound, "not_found")
	})
}

// pdfText is a PDF's text (pdftotext, poppler-utils).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	pdftotext := testenv.Program(t, "pdftotext") // poppler-utils
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-layout", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.NewReplacer("\u202f", " ", "\u00a0", " ").Replace(string(out))
}

// TestInvoiceAndCreditNoteInOneRun: a booking confirmed and refunded
// before the invoices task ran gets its invoice and its credit note from
// one run, in that order.
func TestInvoiceAndCreditNoteInOneRun(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "full"}}), http.StatusOK)
		n, err := e.replicas[0].invoices.IssueDue(t.Context())
		if err != nil || n != 2 {
			t.Fatalf("one run issued %d (%v), want the invoice and the credit note", n, err)
		}
		list, err := e.replicas[0].invoices.BookingInvoices(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].Number != 1 || list[0].Kind != "invoice" || list[1].Number != 2 || list[1].Kind != "credit_note" ||
			!list[1].Total.Equal(list[0].Total.Neg()) {
			t.Fatalf("documents: %+v", list)
		}
	})
}

// TestInvoicesAfterAChangeOfStay: a booking whose dates change after its
// invoice gets a credit note cancelling it (naming it in corrects) and a
// replacement for the new stay; the change's refund gets no credit note
// of its own; a later cancellation's refund corrects the replacement.
// The host lists them all, and the replacement's PDF names the invoice
// it replaces.
func TestInvoicesAfterAChangeOfStay(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		ctx := t.Context()
		r := e.replicas[0]
		id := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-13")
		if n, err := r.invoices.IssueDue(ctx); err != nil || n != 1 {
			t.Fatalf("first run issued %d (%v), want the invoice", n, err)
		}
		b, err := r.store.BookingByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.changes.Accept(ctx, "villa", b.Token, datechange.Request{CheckIn: civil.MustParse("2026-06-10"),
			CheckOut: civil.MustParse("2026-06-12"), Guests: 2})
		if err != nil || v.Change.Status != datechange.StatusApplied || !v.Change.Offer.Refund.IsPositive() {
			t.Fatalf("change: %+v, %v; want applied with a refund", v, err)
		}
		if _, err := r.money.ProcessPayments(ctx); err != nil {
			t.Logf("process payments: %v", err)
		}
		if n, err := r.invoices.IssueDue(ctx); err != nil || n != 2 {
			t.Fatalf("after the change: issued %d (%v), want the cancellation and the replacement", n, err)
		}
		want(t, e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/bookings/%d/cancel", id)), body: map[string]any{"refund": "full"}}), http.StatusOK)
		if n, err := r.invoices.IssueDue(ctx); err != nil || n != 1 {
			t.Fatalf("after the cancellation: issued %d (%v), want its credit note", n, err)
		}
		b, err = r.store.BookingByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		newTotal := b.TotalAmount.StringFixed(2)
		list := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d/invoices", id))})
		want(t, list, http.StatusOK)
		var got []string
		for _, it := range list.data(t)["items"].([]any) {
			it := it.(map[string]any)
			got = append(got, fmt.Sprintf("%v %v %v %v", it["number"], it["kind"], it["total"], it["corrects"]))
		}
		wantList := []string{"000001 invoice 300.00 <nil>", "000002 credit_note -300.00 000001",
			"000003 invoice " + newTotal + " <nil>", "000004 credit_note -" + newTotal + " 000003"}
		if strings.Join(got, "\n") != strings.Join(wantList, "\n") {
			t.Fatalf("documents:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantList, "\n"))
		}
		items := list.data(t)["items"].([]any)
		replID := int64(items[2].(map[string]any)["id"].(float64))
		pdf := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/invoices/%d/pdf", replID))})
		want(t, pdf, http.StatusOK)
		text := pdfText(t, pdf.body)
		for _, w := range []string{"000003", "Remplace la facture n° 000001 (séjour modifié)", "Du 10/06/2026 au 12/06/2026, 2 nuits", "200,00 €"} {
			if !strings.Contains(text, w) {
				t.Errorf("replacement PDF lacks %q:\n%s", w, text)
			}
		}
	})
}
