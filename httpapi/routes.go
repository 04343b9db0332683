package httpapi

import (
	_ "embed"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/apihttp"
)

// GET /api/v1/book/{org_slug}
func (h *handler) config(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	c, err := o.Config(r.Context())
	if err != nil {
		return 0, nil, err
	}
	b, err := h.configs.body(o.Organization().ID, newConfigView(c))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, b, nil
}

// GET /api/v1/book/{org_slug}/properties
func (h *handler) properties(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	if q := r.URL.Query(); q.Has("check_in") || q.Has("check_out") {
		return h.search(r, st) // issue #16: only what is bookable then
	}
	errs := booking.FieldErrors{}
	pg := readPropertyPage(r.URL.Query(), errs)
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	// The version is read before the list: a list built after it is at
	// least as new (lists.go).
	version, keep := o.PropertiesVersion()
	if keep {
		if b, ok := h.lists.get(o.Organization().ID, version, pg); ok {
			return http.StatusOK, b, nil
		}
	}
	ls, err := o.Properties(r.Context())
	if err != nil {
		return 0, nil, err
	}
	out := make([]propertyView, len(ls))
	for i, l := range ls {
		out[i] = newPropertyView(l)
	}
	out, next := pg.cut(out)
	body := encodePropertiesPage(out, pg, next)
	b := &keptBody{body: body, etag: etagOf(body)}
	if keep {
		h.lists.put(o.Organization().ID, version, pg, b)
	}
	return http.StatusOK, b, nil
}

// GET /api/v1/book/{org_slug}/properties/{id}/availability?months=&from=YYYY-MM
func (h *handler) availability(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, nil, err
	}
	q := r.URL.Query()
	errs := booking.FieldErrors{}
	req := booking.CalendarRequest{Months: queryInt(q, "months", 0, errs)}
	if q.Has("months") && req.Months == 0 && errs["months"] == nil {
		errs.Add("months", "out_of_range") // 0 would mean the default
	}
	if s := q.Get("from"); s != "" {
		// A month: YYYY-MM (a full date is refused to keep one form).
		d, perr := parseMonth(s)
		if perr != nil {
			errs.Add("from", "invalid_date")
		}
		req.From = d
	}
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	o, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	// The version is read before the calendar: a calendar computed after
	// it is at least as new (calendars.go).
	version, keep := o.AvailabilityVersion(r.Context(), id, req)
	key := calendarKey{org: o.Organization().ID, property: id, from: req.From, months: req.Months}
	if keep {
		if b, ok := h.calendars.get(key, version); ok {
			return http.StatusOK, b, nil
		}
	}
	c, err := o.Availability(r.Context(), id, req)
	if err != nil {
		return 0, nil, err
	}
	raw := encodeCalendar(c)
	if !keep {
		return http.StatusOK, raw, nil
	}
	b := &keptBody{body: slices.Clone([]byte(raw))}
	b.etag = etagOf(b.body)
	releaseEnvelope(raw)
	h.calendars.put(key, version, b)
	return http.StatusOK, b, nil
}

// GET /api/v1/book/{org_slug}/properties/{id}/price?check_in&check_out&guests_count&coupon_code
func (h *handler) price(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, nil, err
	}
	// A quote kept is found before the query is parsed (quotes.go): the
	// version is read before the quote, so a quote computed after it is
	// at least as new.
	var (
		o     *booking.OrgService
		stamp booking.QuoteStamp
		keep  bool
		key   quoteKey
	)
	if len(r.URL.RawQuery) <= maxQuoteQuery {
		if o, err = h.orgService(r.Context(), st); err == nil {
			stamp, keep = o.QuoteVersion(r.Context(), id)
			key = quoteKey{org: o.Organization().ID, property: id, query: r.URL.RawQuery,
				acceptLanguage: r.Header.Get("Accept-Language")}
			if keep {
				if b, ok := h.quotes.get(key, stamp.Version); ok {
					return http.StatusOK, b, nil
				}
			}
		}
	}
	q := r.URL.Query()
	errs := booking.FieldErrors{}
	req := booking.QuoteRequest{
		Stay: booking.Stay{
			CheckIn:  queryDate(q, "check_in", errs),
			CheckOut: queryDate(q, "check_out", errs),
			Guests:   queryInt(q, "guests_count", 1, errs),
			Extras:   queryExtras(q, errs),
		},
		CouponCode: q.Get("coupon_code"),
		Locale:     h.queryLocale(r, q, st),
	}
	queryParty(q, &req.Stay, errs)
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	if o == nil {
		if o, err = h.orgService(r.Context(), st); err != nil {
			return 0, nil, err
		}
	}
	quote, err := o.Quote(r.Context(), id, req)
	if err != nil {
		return 0, nil, err
	}
	v := newQuoteView(id, quote)
	pol, err := o.CancellationPolicy(r.Context(), id)
	if err != nil {
		return 0, nil, err
	}
	v.CancellationPolicy = newPolicyView(*pol, quote.Currency, req.Locale)
	raw := encodeQuote(&v)
	if !keep || !o.QuoteKeepable(stamp, req) {
		return http.StatusOK, raw, nil
	}
	// No ETag: the route carries no validator (cacheControl).
	b := &keptBody{body: slices.Clone([]byte(raw))}
	releaseEnvelope(raw)
	h.quotes.put(key, stamp.Version, b)
	return http.StatusOK, b, nil
}

// POST /api/v1/book/{org_slug}/validate-coupon
func (h *handler) validateCoupon(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, false)
	if err != nil {
		return 0, nil, err
	}
	req := booking.CouponCheck{
		Code:       o.str("code"),
		PropertyID: o.id("property_id"),
		CheckIn:    o.date("check_in"),
		CheckOut:   o.date("check_out"),
		Guests:     o.count("guests_count"),
	}
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	res, err := org.ValidateCoupon(r.Context(), req)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCouponView(res), nil
}

// POST /api/v1/book/{org_slug}/checkout
func (h *handler) checkout(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, false)
	if err != nil {
		return 0, nil, err
	}
	req := booking.CheckoutRequest{
		PropertyID: o.id("property_id"),
		Stay: booking.Stay{
			CheckIn:  o.date("check_in"),
			CheckOut: o.date("check_out"),
			Guests:   o.int("guests_count"),
			Extras:   o.extras(),
		},
		GuestName:      o.str("guest_name"),
		GuestEmail:     o.str("guest_email"),
		GuestPhone:     o.str("guest_phone"),
		Message:        o.str("message"),
		Locale:         o.str("locale"),
		CouponCode:     o.str("coupon_code"),
		IdempotencyKey: r.Header.Get("Idempotency-Key"),
	}
	o.party(&req.Stay)
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	if req.Locale == "" {
		// The booking (and its quote's labels) speak the guest's language:
		// ?locale= or Accept-Language, else the organisation's default.
		req.Locale = apihttp.RequestLocale(r)
	}
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	res, err := org.Checkout(r.Context(), req)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newCheckoutView(res), nil
}

// GET /api/v1/book/{org_slug}/booking/{token}
func (h *handler) booking(_ http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	d, err := org.Booking(r.Context(), r.PathValue("token"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingView(d), nil
}

// POST /api/v1/book/{org_slug}/booking/{token}/confirm
func (h *handler) confirm(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	o, err := decodeObject(w, r, true)
	if err != nil {
		return 0, nil, err
	}
	req := booking.ConfirmRequest{
		PaymentIntentID: o.str("payment_intent_id"),
		IdempotencyKey:  r.Header.Get("Idempotency-Key"),
	}
	if err := o.err(); err != nil {
		return 0, nil, err
	}
	org, err := h.orgService(r.Context(), st)
	if err != nil {
		return 0, nil, err
	}
	d, err := org.Confirm(r.Context(), r.PathValue("token"), req)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingView(d), nil
}

// POST /api/v1/webhooks/stripe: the payment provider's events. A payload
// that fails verification is a 400 (the provider should not retry); any
// other failure a 500, so that it retries.
func (h *handler) webhook(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	payload, err := apihttp.ReadBody(w, r)
	if err != nil {
		return 0, nil, err
	}
	if err := h.money.HandleWebhook(r.Context(), payload, r.Header.Get("Stripe-Signature")); err != nil {
		if booking.ErrorCode(err) == booking.CodeInvalid {
			h.log.WarnContext(r.Context(), "webhook refused", "request_id", st.id, "err", err)
			return 0, nil, &booking.Error{Code: apihttp.CodeInvalidWebhook, Message: "The webhook signature or payload is invalid."}
		}
		return 0, nil, &booking.Error{Code: booking.CodeInternal, Err: err}
	}
	return http.StatusOK, map[string]bool{"received": true}, nil
}

// POST /api/v1/webhooks/stripe-connect: the events of the organisations'
// connected accounts, verified with the Connect endpoint's own secret;
// each is applied only to bookings of the account it names. Statuses as
// for the platform's webhook.
func (h *handler) connectWebhook(w http.ResponseWriter, r *http.Request, st *reqState) (int, any, error) {
	payload, err := apihttp.ReadBody(w, r)
	if err != nil {
		return 0, nil, err
	}
	if err := h.connect.HandleWebhook(r.Context(), payload, r.Header.Get("Stripe-Signature")); err != nil {
		if booking.ErrorCode(err) == booking.CodeInvalid {
			h.log.WarnContext(r.Context(), "connect webhook refused", "request_id", st.id, "err", err)
			return 0, nil, &booking.Error{Code: apihttp.CodeInvalidWebhook, Message: "The webhook signature or payload is invalid."}
		}
		return 0, nil, &booking.Error{Code: booking.CodeInternal, Err: err}
	}
	return http.StatusOK, map[string]bool{"received": true}, nil
}

//go:embed openapi.json
var openAPIDocument []byte

// GET /api/v1/openapi.json: the document itself, not in an envelope.
func (h *handler) openAPI(w http.ResponseWriter, r *http.Request, _ *reqState) (int, any, error) {
	writeCacheable(w, r, cacheControl[RouteOpenAPI], openAPIDocument)
	return 0, nil, errWritten
}

// errWritten tells serve that the operation wrote its response itself.
var errWritten = errors.New("response written")

// parseMonth reads YYYY-MM as the first day of that month.
func parseMonth(s string) (civil.Date, error) {
	if len(s) != len("2006-01") {
		return civil.Date{}, fmt.Errorf("%q is not a YYYY-MM month", s)
	}
	return civil.Parse(s + "-01")
}
