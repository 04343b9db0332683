package hostapi

import (
	"bytes"
	"net/http"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/invoice"
	"github.com/staykit/staykit/pricing"
)

// invoiceRoutes are the organisation's invoices and credit notes
// (package invoice): listed, per booking, as PDF, and the seller's
// details they print.
func (h *handler) invoiceRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/invoices", h.listInvoices},
		{http.MethodGet, "/invoices/{id}/pdf", h.invoicePDF},
		{http.MethodGet, "/bookings/{id}/invoices", h.bookingInvoices},
		{http.MethodGet, "/settings/invoicing", h.getSeller},
		{http.MethodPut, "/settings/invoicing", h.putSeller},
	}
}

// ReasonInvoices is the booking.ParamReason of the CodeNotConfigured of
// the invoice routes on a handler without Options.Invoices.
const ReasonInvoices = "invoices"

// invoicePage is how many documents GET /invoices lists at most.
const invoicePage = 100

func (h *handler) invoiceService() (*invoice.Service, error) {
	if h.invoices == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Invoices are not set up on this server.",
			Params: map[string]string{booking.ParamReason: ReasonInvoices}}
	}
	return h.invoices, nil
}

// invoiceView is an invoice or credit note, without its lines (the PDF
// has them).
type invoiceView struct {
	ID        int64     `json:"id"`
	BookingID int64     `json:"booking_id"`
	Kind      string    `json:"kind"`
	Number    string    `json:"number"`
	Corrects  *string   `json:"corrects"`
	IssuedAt  time.Time `json:"issued_at"`
	IssueDate string    `json:"issue_date"`
	Buyer     string    `json:"buyer"`
	Total     string    `json:"total"`
	Currency  string    `json:"currency"`
	Locale    string    `json:"locale"`
}

func newInvoiceView(inv *invoice.Invoice) invoiceView {
	v := invoiceView{ID: inv.ID, BookingID: inv.BookingID, Kind: string(inv.Kind), Number: inv.Display(),
		IssuedAt: inv.IssuedAt.UTC(), IssueDate: inv.Snapshot.IssueDate.String(), Buyer: inv.Snapshot.Buyer.Name,
		Total: inv.Total.StringFixed(pricing.MinorUnits(inv.Currency)), Currency: inv.Currency, Locale: inv.Snapshot.Locale}
	if inv.Kind == invoice.KindCreditNote {
		s := invoice.Format(inv.Snapshot.Corrects)
		v.Corrects = &s
	}
	return v
}

func invoiceViews(list []invoice.Invoice) []invoiceView {
	items := make([]invoiceView, 0, len(list))
	for i := range list {
		items = append(items, newInvoiceView(&list[i]))
	}
	return items
}

// listInvoices is GET /invoices?cursor=N: the documents by number, a page
// of invoicePage after the number N.
func (h *handler) listInvoices(r *http.Request, c *call) (int, any, error) {
	svc, err := h.invoiceService()
	if err != nil {
		return 0, nil, err
	}
	var after int64
	if s := r.URL.Query().Get("cursor"); s != "" {
		if after, err = strconv.ParseInt(s, 10, 64); err != nil || after < 0 {
			return 0, nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
				Fields: booking.FieldErrors{"cursor": {"invalid_type"}}}
		}
	}
	list, err := svc.Invoices(r.Context(), c.org.ID, after, invoicePage+1)
	if err != nil {
		return 0, nil, err
	}
	var next int64
	if len(list) > invoicePage {
		list = list[:invoicePage]
		next = list[invoicePage-1].Number
	}
	return http.StatusOK, newList(invoiceViews(list), next), nil
}

// bookingInvoices is GET /bookings/{id}/invoices.
func (h *handler) bookingInvoices(r *http.Request, c *call) (int, any, error) {
	svc, err := h.invoiceService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	if _, _, err := h.host.Booking(r.Context(), c.org, id); err != nil {
		return 0, nil, err
	}
	list, err := svc.BookingInvoices(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newList(invoiceViews(list), 0), nil
}

// invoicePDF is GET /invoices/{id}/pdf.
func (h *handler) invoicePDF(r *http.Request, c *call) (int, any, error) {
	svc, err := h.invoiceService()
	if err != nil {
		return 0, nil, err
	}
	id, err := pathID(r, "id", "invoice")
	if err != nil {
		return 0, nil, err
	}
	inv, err := svc.Invoice(r.Context(), c.org.ID, id)
	if err != nil {
		return 0, nil, err
	}
	return pdfAnswer(inv)
}

// pdfAnswer is a document as a PDF file, named after its kind and number.
func pdfAnswer(inv *invoice.Invoice) (int, any, error) {
	var buf bytes.Buffer
	if err := invoice.Render(&buf, *inv); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, fileAnswer{contentType: "application/pdf", body: buf.Bytes(),
		name: string(inv.Kind) + "-" + inv.Display() + ".pdf"}, nil
}

// sellerView is GET and PUT /settings/invoicing.
type sellerView struct {
	LegalName string `json:"legal_name"`
	LegalForm string `json:"legal_form"`
	Address   string `json:"address"`
	VATID     string `json:"vat_id"`
}

func (h *handler) getSeller(r *http.Request, c *call) (int, any, error) {
	s, err := h.host.InvoiceSeller(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, sellerView(s), nil
}

func (h *handler) putSeller(r *http.Request, c *call) (int, any, error) {
	var v sellerView
	if err := decode(c.body, &v); err != nil {
		return 0, nil, err
	}
	s, err := h.host.SetInvoiceSeller(r.Context(), c.org, invoice.Seller(v), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, sellerView(s), nil
}
