package bookingpage

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/httpserve"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/pricing"
)

// InvoicesPrefix is where a host mounts Invoices.
const InvoicesPrefix = "/guest-invoices/"

// BookingFinder finds a guest's booking by its token, as the public API
// does (booking.Stores serve it).
type BookingFinder interface {
	OrganizationBySlug(ctx context.Context, slug string) (*booking.Organization, error)
	BookingByToken(ctx context.Context, orgID int64, token string) (*booking.Booking, error)
}

// guestInvoice is one document in the guest's list.
type guestInvoice struct {
	Kind      string `json:"kind"`
	Number    string `json:"number"`
	IssueDate string `json:"issue_date"`
	Total     string `json:"total"`
	Currency  string `json:"currency"`
	// Corrects is the number of the invoice a credit note corrects or
	// cancels; Replaces the number of the invoice a replacement replaces
	// (the stay changed); both left out otherwise.
	Corrects string `json:"corrects,omitempty"`
	Replaces string `json:"replaces,omitempty"`
	// URL downloads its PDF, relative to the server.
	URL string `json:"url"`
}

// Invoices serves a guest their booking's invoice and credit notes (GET
// and HEAD), the booking's token authorising them as it authorises the
// booking page:
//
//	GET /guest-invoices/{org}/{token}           the list, as JSON
//	GET /guest-invoices/{org}/{token}/{id}.pdf  one document as PDF
//
// Another booking's document, an unknown token or an organisation whose
// public engine is off answer 404, as the public API does. svc nil (no
// invoices on this database): every request answers 404.
func Invoices(bookings BookingFinder, svc *invoice.Service) http.Handler {
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
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, InvoicesPrefix), "/")
		notFound := func() {
			httpserve.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "No such booking or invoice."})
		}
		if svc == nil || len(parts) < 2 || len(parts) > 3 || parts[0] == "" || parts[1] == "" {
			notFound()
			return
		}
		ctx := r.Context()
		org, err := bookings.OrganizationBySlug(ctx, parts[0])
		if err != nil || !org.PublicEngineEnabled {
			notFound()
			return
		}
		b, err := bookings.BookingByToken(ctx, org.ID, parts[1])
		if err != nil {
			notFound()
			return
		}
		list, err := svc.BookingInvoices(ctx, b.ID)
		if err != nil {
			httpserve.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal"})
			return
		}
		if len(parts) == 2 {
			items := make([]guestInvoice, 0, len(list))
			for _, inv := range list {
				item := guestInvoice{Kind: string(inv.Kind), Number: inv.Display(), IssueDate: inv.Snapshot.IssueDate.String(),
					Total: inv.Total.StringFixed(pricing.MinorUnits(inv.Currency)), Currency: inv.Currency,
					URL: InvoicesPrefix + parts[0] + "/" + parts[1] + "/" + strconv.FormatInt(inv.ID, 10) + ".pdf"}
				if n := inv.Snapshot.Corrects; n != 0 {
					item.Corrects = invoice.Format(n)
				}
				if n := inv.Snapshot.Replaces; n != 0 {
					item.Replaces = invoice.Format(n)
				}
				items = append(items, item)
			}
			httpserve.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
			return
		}
		id, err := strconv.ParseInt(strings.TrimSuffix(parts[2], ".pdf"), 10, 64)
		if err != nil || !strings.HasSuffix(parts[2], ".pdf") {
			notFound()
			return
		}
		for _, inv := range list {
			if inv.ID != id {
				continue
			}
			var buf bytes.Buffer
			if err := invoice.Render(&buf, inv); err != nil {
				httpserve.WriteJSON(w, http.StatusInternalServerError, map[string]string{"error": "internal"})
				return
			}
			h.Set("Content-Type", "application/pdf")
			h.Set("Content-Disposition", `attachment; filename="`+string(inv.Kind)+"-"+inv.Display()+`.pdf"`)
			w.WriteHeader(http.StatusOK)
			w.Write(buf.Bytes())
			return
		}
		notFound()
	})
}
