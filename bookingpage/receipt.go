package bookingpage

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/pricing"
)

// ReceiptsPrefix is where a host mounts Receipts.
const ReceiptsPrefix = "/guest-receipts/"

// ReceiptSource is what a receipt is made of: the guest's booking (found
// by its token, as the public API finds it), its property, terms and
// payments ledger. booking.Stores serve it.
type ReceiptSource interface {
	BookingFinder
	Property(ctx context.Context, orgID, propertyID int64) (*booking.Property, error)
	Terms(ctx context.Context, bookingID int64) (*booking.Terms, error)
	LedgerEntries(ctx context.Context, bookingID int64) ([]ledger.Entry, error)
}

// Receipts serves a guest the receipt of the payments received for their
// booking, as PDF (GET and HEAD), the booking's token authorising it as
// it authorises the booking page:
//
//	GET /guest-receipts/{org}/{token}.pdf?locale=fr|en
//
// The receipt lists what was paid (at checkout, the balance, changes of
// dates) and refunded, from the ledger, with what is left to pay; it is
// rendered with the invoices' fonts and formats (invoice.RenderReceipt).
// An unknown token or an organisation whose public engine is off answers
// 404. now dates the receipt.
func Receipts(src ReceiptSource, now func() time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "private, no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			httpserve.WriteJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed"})
			return
		}
		notFound := func() {
			httpserve.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "No such booking."})
		}
		slug, file, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, ReceiptsPrefix), "/")
		token, pdf := strings.CutSuffix(file, ".pdf")
		if !ok || !pdf || slug == "" || token == "" || strings.Contains(token, "/") {
			notFound()
			return
		}
		ctx := r.Context()
		org, err := src.OrganizationBySlug(ctx, slug)
		if err != nil || !org.PublicEngineEnabled {
			notFound()
			return
		}
		b, err := src.BookingByToken(ctx, org.ID, token)
		if err != nil {
			notFound()
			return
		}
		rc, err := receiptOf(ctx, src, org, b, r.URL.Query().Get("locale"), now())
		if err != nil {
			httpserve.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal"})
			return
		}
		var buf bytes.Buffer
		if err := invoice.RenderReceipt(&buf, *rc); err != nil {
			httpserve.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal"})
			return
		}
		h.Set("Content-Type", "application/pdf")
		h.Set("Content-Disposition", `inline; filename="receipt-`+b.Token[:min(8, len(b.Token))]+`.pdf"`)
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, _ = w.Write(buf.Bytes())
		}
	})
}

// receiptOf is the receipt of booking b of org in locale (the guest's
// when not fr or en).
func receiptOf(ctx context.Context, src ReceiptSource, org *booking.Organization, b *booking.Booking, locale string, now time.Time) (*invoice.Receipt, error) {
	if locale != "fr" && locale != "en" {
		locale = invoice.Locale(b.Locale)
	}
	p, err := src.Property(ctx, org.ID, b.PropertyID)
	if err != nil {
		return nil, err
	}
	var terms *booking.Terms
	if t, err := src.Terms(ctx, b.ID); err == nil {
		terms = t
	} else if booking.ErrorCode(err) != booking.CodeNotFound {
		return nil, err
	}
	entries, err := src.LedgerEntries(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	cur := b.Currency
	zero := pricing.Round(booking.Money{}, cur)
	rc := &invoice.Receipt{Locale: locale, Seller: org.Name, Guest: b.GuestName, BookingRef: b.Token[:min(8, len(b.Token))],
		Property: p.Name, CheckIn: b.CheckIn, CheckOut: b.CheckOut, Currency: cur, Total: b.TotalAmount,
		Paid: zero, Refunded: zero, Balance: b.BalanceAmount, BalanceDue: b.BalanceDueDate, IssuedAt: now, Zone: org.Location()}
	for _, pay := range money.Schedule(b, terms, entries, org.Location()) {
		switch pay.Status {
		case "paid":
			rc.Paid = rc.Paid.Add(pay.Amount)
		case "refunded":
			rc.Refunded = rc.Refunded.Add(pay.Amount)
		default:
			continue
		}
		rc.Payments = append(rc.Payments, invoice.ReceiptLine{Date: pay.At, Kind: pay.Kind, Amount: pay.Amount})
	}
	if b.Status != booking.StatusConfirmed || (terms != nil && terms.BalanceStatus == booking.BalancePaid) {
		rc.Balance = zero
	}
	return rc, nil
}
