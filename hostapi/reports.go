package hostapi

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/reports"
)

// reportRoutes are the reports' operations: figures per property and
// month, taxes (JSON or CSV), and the arrivals and departures ahead.
func (h *handler) reportRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/reports/monthly", h.monthlyReport},
		{http.MethodGet, "/reports/taxes", h.taxReport},
		{http.MethodGet, "/reports/tourist-tax", h.touristTaxReport},
		{http.MethodGet, "/reports/vat", h.vatReport},
		{http.MethodGet, "/reports/movements", h.movements},
	}
}

// DefaultReportMonths is how many months a report covers when the
// request names none: the current month and the ones before it.
const DefaultReportMonths = 12

// ReasonReports is the booking.ParamReason of the CodeNotConfigured of
// the report routes on a handler without Options.Reports.
const ReasonReports = "reports"

func (h *handler) reportService() (*reports.Service, error) {
	if h.reports == nil {
		return nil, &booking.Error{Code: booking.CodeNotConfigured, Message: "Reports are not set up on this server.",
			Params: map[string]string{booking.ParamReason: ReasonReports}}
	}
	return h.reports, nil
}

// reportQuery reads ?from=YYYY-MM&to=YYYY-MM&property_id=: both months
// default to the DefaultReportMonths months up to the current one (in
// the organisation's zone), one given alone to a span of one month.
func (h *handler) reportQuery(q url.Values, org *booking.Organization) (reports.Query, error) {
	f := booking.FieldErrors{}
	month := func(name string) reports.Month {
		s := q.Get(name)
		if s == "" {
			return reports.Month{}
		}
		m, err := reports.ParseMonth(s)
		if err != nil {
			f.Add(name, "invalid_month")
		}
		return m
	}
	var rq reports.Query
	rq.Span.From, rq.Span.To = month("from"), month("to")
	if s := q.Get("property_id"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			f.Add("property_id", "invalid_type")
		}
		rq.PropertyID = id
	}
	if err := f.Err(); err != nil {
		return rq, err
	}
	switch {
	case rq.Span.From.IsZero() && rq.Span.To.IsZero():
		rq.Span.To = reports.MonthOf(civil.Today(h.clock.Now(), org.Location()))
		rq.Span.From = reports.MonthOf(rq.Span.To.First().AddMonths(-(DefaultReportMonths - 1)))
	case rq.Span.From.IsZero():
		rq.Span.From = rq.Span.To
	case rq.Span.To.IsZero():
		rq.Span.To = rq.Span.From
	}
	return rq, rq.Validate()
}

func (h *handler) report(r *http.Request, c *call) (*reports.Report, *reports.Query, error) {
	svc, err := h.reportService()
	if err != nil {
		return nil, nil, err
	}
	q, err := h.reportQuery(r.URL.Query(), c.org)
	if err != nil {
		return nil, nil, err
	}
	rep, err := svc.Report(r.Context(), c.org, q)
	return rep, &q, err
}

func (h *handler) monthlyReport(r *http.Request, c *call) (int, any, error) {
	rep, q, err := h.report(r, c)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newMonthlyView(rep, q.PropertyID), nil
}

func (h *handler) taxReport(r *http.Request, c *call) (int, any, error) {
	rep, q, err := h.report(r, c)
	if err != nil {
		return 0, nil, err
	}
	if wantsCSV(r) {
		var buf bytes.Buffer
		if err := rep.WriteTaxCSV(&buf, func(t reports.TaxLine) string { return taxLabel(t, c.loc) }); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, fileAnswer{contentType: "text/csv; charset=utf-8", body: buf.Bytes(),
			name: fmt.Sprintf("taxes-%s-%s-%s.csv", c.org.Slug, q.Span.From, q.Span.To)}, nil
	}
	return http.StatusOK, newTaxView(rep, q.PropertyID, c.loc), nil
}

// wantsCSV reports whether a request asks for CSV: ?format=csv, or an
// Accept header naming text/csv (and no ?format=json).
func wantsCSV(r *http.Request) bool {
	switch r.URL.Query().Get("format") {
	case "csv":
		return true
	case "json":
		return false
	}
	return strings.Contains(r.Header.Get("Accept"), "text/csv")
}

func (h *handler) movements(r *http.Request, c *call) (int, any, error) {
	svc, err := h.reportService()
	if err != nil {
		return 0, nil, err
	}
	days := 7
	if s := r.URL.Query().Get("days"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, nil, invalid("days", "invalid_type")
		}
		days = n
	}
	u, err := svc.Upcoming(r.Context(), c.org, days)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newMovementsView(u), nil
}

// fileAnswer is an answer that is a file, not the JSON envelope.
type fileAnswer struct {
	contentType, name string
	body              []byte
}

func (f fileAnswer) write(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+f.name+`"`)
	writeRaw(w, status, f.body)
}

// figuresView is reports.Figures: nights, exact amounts fixed to the
// currency's minor units, and occupancy, ADR and RevPAR null when they
// have nothing to divide by.
type figuresView struct {
	NightsBooked        int     `json:"nights_booked"`
	NightsAvailable     int     `json:"nights_available"`
	OccupancyPercent    *string `json:"occupancy_percent"`
	RoomRevenue         string  `json:"room_revenue"`
	Fees                string  `json:"fees"`
	CancellationRevenue string  `json:"cancellation_revenue"`
	RevenueBooked       string  `json:"revenue_booked"`
	RevenueCollected    string  `json:"revenue_collected"`
	ADR                 *string `json:"adr"`
	RevPAR              *string `json:"revpar"`
}

func newFiguresView(f reports.Figures, currency string) figuresView {
	places := pricing.MinorUnits(currency)
	v := figuresView{NightsBooked: f.NightsBooked, NightsAvailable: f.NightsAvailable,
		RoomRevenue: f.RoomRevenue.StringFixed(places), Fees: f.Fees.StringFixed(places),
		CancellationRevenue: f.CancellationRevenue.StringFixed(places), RevenueBooked: f.RevenueBooked().StringFixed(places),
		RevenueCollected: f.Collected.StringFixed(places)}
	if occ, ok := f.Occupancy(); ok {
		s := occ.StringFixed(1)
		v.OccupancyPercent = &s
	}
	if adr, ok := f.ADR(currency); ok {
		s := adr.StringFixed(places)
		v.ADR = &s
	}
	if revpar, ok := f.RevPAR(currency); ok {
		s := revpar.StringFixed(places)
		v.RevPAR = &s
	}
	return v
}

type monthFiguresView struct {
	Month string `json:"month"`
	figuresView
}

func newMonthViews(list []reports.MonthFigures, currency string) []monthFiguresView {
	out := make([]monthFiguresView, len(list))
	for i, m := range list {
		out[i] = monthFiguresView{Month: m.Month.String(), figuresView: newFiguresView(m.Figures, currency)}
	}
	return out
}

type propertyReportView struct {
	PropertyID int64              `json:"property_id"`
	Name       string             `json:"name"`
	Months     []monthFiguresView `json:"months"`
	Total      figuresView        `json:"total"`
}

type monthlyView struct {
	Currency   string               `json:"currency"`
	From       string               `json:"from"`
	To         string               `json:"to"`
	PropertyID *int64               `json:"property_id"`
	Months     []monthFiguresView   `json:"months"`
	Total      figuresView          `json:"total"`
	Properties []propertyReportView `json:"properties"`
}

func newMonthlyView(r *reports.Report, propertyID int64) monthlyView {
	v := monthlyView{Currency: r.Currency, From: r.Span.From.String(), To: r.Span.To.String(), PropertyID: optID(propertyID),
		Months: newMonthViews(r.Months, r.Currency), Total: newFiguresView(r.Total, r.Currency),
		Properties: make([]propertyReportView, len(r.Properties))}
	for i, p := range r.Properties {
		v.Properties[i] = propertyReportView{PropertyID: p.ID, Name: p.Name, Months: newMonthViews(p.Months, r.Currency),
			Total: newFiguresView(p.Total, r.Currency)}
	}
	return v
}

type taxLineView struct {
	Code      string `json:"code"`
	Label     string `json:"label"`
	Inclusive bool   `json:"inclusive"`
	Amount    string `json:"amount"`
}

// touristTaxLabels name the tourist tax, which quotes label in English
// only.
var touristTaxLabels = map[string]string{"fr": "Taxe de séjour", "en": "Tourist tax"}

// taxLabel words a tax in loc: its labels by locale, else the tourist
// tax's, else the label its first quote had.
func taxLabel(t reports.TaxLine, loc string) string {
	if l := t.Labels[loc]; l != "" {
		return l
	}
	if l := touristTaxLabels[loc]; t.Code == pricing.LineTouristTax && l != "" {
		return l
	}
	return t.Label
}

func newTaxLineView(t reports.TaxLine, currency, loc string) taxLineView {
	return taxLineView{Code: t.Code, Label: taxLabel(t, loc), Inclusive: t.Inclusive, Amount: t.Amount.StringFixed(pricing.MinorUnits(currency))}
}

type taxRowView struct {
	Month        string `json:"month"`
	PropertyID   int64  `json:"property_id"`
	PropertyName string `json:"property_name"`
	taxLineView
}

type taxView struct {
	Currency   string        `json:"currency"`
	From       string        `json:"from"`
	To         string        `json:"to"`
	PropertyID *int64        `json:"property_id"`
	Rows       []taxRowView  `json:"rows"`
	Totals     []taxLineView `json:"totals"`
}

func newTaxView(r *reports.Report, propertyID int64, loc string) taxView {
	v := taxView{Currency: r.Currency, From: r.Span.From.String(), To: r.Span.To.String(), PropertyID: optID(propertyID),
		Rows: make([]taxRowView, len(r.Taxes)), Totals: make([]taxLineView, len(r.TaxTotals))}
	for i, t := range r.Taxes {
		v.Rows[i] = taxRowView{Month: t.Month.String(), PropertyID: t.PropertyID, PropertyName: t.PropertyName,
			taxLineView: newTaxLineView(t.TaxLine, r.Currency, loc)}
	}
	for i, t := range r.TaxTotals {
		v.Totals[i] = newTaxLineView(t, r.Currency, loc)
	}
	return v
}

type stayView struct {
	Date         civil.Date `json:"date"`
	BookingID    int64      `json:"booking_id"`
	PropertyID   int64      `json:"property_id"`
	PropertyName string     `json:"property_name"`
	GuestName    string     `json:"guest_name"`
	Guests       int        `json:"guests"`
	CheckIn      civil.Date `json:"check_in"`
	CheckOut     civil.Date `json:"check_out"`
	Nights       int        `json:"nights"`
	Status       string     `json:"status"`
}

type movementsView struct {
	From       civil.Date `json:"from"`
	To         civil.Date `json:"to"`
	Arrivals   []stayView `json:"arrivals"`
	Departures []stayView `json:"departures"`
}

func newStayViews(list []reports.Stay) []stayView {
	out := make([]stayView, len(list))
	for i, s := range list {
		out[i] = stayView{Date: s.Date, BookingID: s.BookingID, PropertyID: s.PropertyID, PropertyName: s.PropertyName,
			GuestName: s.GuestName, Guests: s.Guests, CheckIn: s.CheckIn, CheckOut: s.CheckOut,
			Nights: s.CheckIn.DaysUntil(s.CheckOut), Status: string(s.Status)}
	}
	return out
}

func newMovementsView(u *reports.Upcoming) movementsView {
	return movementsView{From: u.From, To: u.To, Arrivals: newStayViews(u.Arrivals), Departures: newStayViews(u.Departures)}
}
