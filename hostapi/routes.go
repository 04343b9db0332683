package hostapi

import (
	"net/http"
	"slices"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/internal/apihttp"
)

func (h *handler) routes() {
	type rt struct {
		method, path string
		fn           op
	}
	rs := []rt{
		{http.MethodGet, "/settings", h.getSettings},
		{http.MethodPatch, "/settings", h.patchSettings},
		{http.MethodGet, "/properties", h.listProperties},
		{http.MethodPost, "/properties", h.createProperty},
		{http.MethodGet, "/properties/{id}", h.getProperty},
		{http.MethodPatch, "/properties/{id}", h.patchProperty},
		{http.MethodPost, "/properties/{id}/deactivate", h.deactivateProperty},
		{http.MethodPost, "/properties/{id}/preview", h.previewProperty},
		{http.MethodGet, "/properties/{id}/calendar", h.getCalendar},
		{http.MethodPost, "/properties/{id}/calendar", h.setCalendar},
		{http.MethodPost, "/properties/{id}/blocks", h.addBlock},
		{http.MethodDelete, "/properties/{id}/blocks/{block_id}", h.removeBlock},
		{http.MethodGet, "/coupons", h.listCoupons},
		{http.MethodPost, "/coupons", h.createCoupon},
		{http.MethodGet, "/coupons/{id}", h.getCoupon},
		{http.MethodPatch, "/coupons/{id}", h.patchCoupon},
		{http.MethodPost, "/coupons/{id}/disable", h.disableCoupon},
		{http.MethodGet, "/bookings", h.listBookings},
		{http.MethodGet, "/bookings/{id}", h.getBooking},
		{http.MethodPost, "/bookings/{id}/approve", h.approve},
		{http.MethodPost, "/bookings/{id}/decline", h.decline},
		{http.MethodPost, "/bookings/{id}/cancel", h.cancel},
		{http.MethodPost, "/bookings/{id}/deposit/claim", h.claimDeposit},
		{http.MethodGet, "/api-keys", h.listKeys},
		{http.MethodPost, "/api-keys", h.createKey},
		{http.MethodDelete, "/api-keys/{id}", h.revokeKey},
		{http.MethodGet, "/audit-log", h.auditLog},
		{http.MethodGet, "/stripe", h.getStripe},
		{http.MethodPost, "/stripe/onboarding", h.startOnboarding},
	}
	for _, c := range slices.Concat(h.channelRoutes(), h.reportRoutes(), h.privacyRoutes(), h.noteRoutes(), h.checkinRoutes(), h.closeoutRoutes(), h.eventRoutes(), h.mailRoutes(), h.reviewRoutes(), h.invoiceRoutes(), h.scheduleRoutes(), h.changeRoutes(), h.unitRoutes()) {
		rs = append(rs, rt(c))
	}
	for _, c := range h.teamRoutes() {
		rs = append(rs, rt(c))
	}
	for _, c := range h.threadRoutes() {
		rs = append(rs, rt(c))
	}
	allow := map[string][]string{}
	var paths []string
	for _, r := range rs {
		h.handle(r.method, r.path, r.fn)
		if _, ok := allow[r.path]; !ok {
			paths = append(paths, r.path)
		}
		allow[r.path] = append(allow[r.path], r.method)
		if r.method == http.MethodGet {
			allow[r.path] = append(allow[r.path], http.MethodHead)
		}
	}
	// The mux would answer 405 and 404 in plain text: answer in JSON.
	for _, p := range paths {
		methods := strings.Join(allow[p], ", ")
		h.mux.HandleFunc(Prefix+"{org_slug}"+p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", methods)
			messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrMethodNotAllowed())
		})
	}
	h.mux.HandleFunc("GET "+Prefix+"openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		writeRaw(w, http.StatusOK, openAPIDocument)
	})
	h.mux.HandleFunc("GET "+Prefix+"events.schema.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		writeRaw(w, http.StatusOK, eventfeed.Schema)
	})
	h.mux.HandleFunc(Prefix+"events.schema.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrMethodNotAllowed())
	})
	h.mux.HandleFunc(Prefix+"openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", "GET, HEAD")
		messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrMethodNotAllowed())
	})
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		messages.WriteError(w, r, h.log, apihttp.Locale(r, ""), apihttp.ErrRouteNotFound())
	})
}

func (h *handler) getSettings(r *http.Request, c *call) (int, any, error) {
	s, err := h.host.Settings(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newOrgSettingsView(s), nil
}

func (h *handler) patchSettings(r *http.Request, c *call) (int, any, error) {
	var b settingsBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	terms, err := b.termsBody.change()
	if err != nil {
		return 0, nil, err
	}
	s, err := h.host.PatchSettings(r.Context(), c.org, host.SettingsPatch{Settings: b.change(), Terms: terms,
		ContactEmail: b.ContactEmail}, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newOrgSettingsView(s), nil
}

func (h *handler) listProperties(r *http.Request, c *call) (int, any, error) {
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	all, err := h.host.Properties(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items, next := pageByID(all, func(p *booking.Property) int64 { return p.ID }, newPropertyView, limit, cursor)
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) createProperty(r *http.Request, c *call) (int, any, error) {
	var b propertyBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	p, err := h.host.CreateProperty(r.Context(), c.org, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newPropertyView(p), nil
}

func (h *handler) getProperty(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	d, err := h.host.PropertyDetail(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	e, err := h.channels.Exposure(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	v := newPropertyDetailView(d)
	v.CalendarSync = newExposureView(e)
	return http.StatusOK, v, nil
}

func (h *handler) patchProperty(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b propertyBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	patch := host.PropertyPatch{Property: b.change()}
	if b.Terms != nil {
		terms, err := b.Terms.change()
		if err != nil {
			return 0, nil, err
		}
		patch.Terms = &terms
	}
	d, err := h.host.PatchProperty(r.Context(), c.org, id, patch, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newPropertyDetailView(d), nil
}

func (h *handler) deactivateProperty(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	p, err := h.host.DeactivateProperty(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newPropertyView(p), nil
}

func (h *handler) getCalendar(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	from, to, err := queryRange(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	days, err := h.host.Calendar(r.Context(), c.org, id, from, to)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCalendarView(c.org, id, days), nil
}

func (h *handler) setCalendar(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b calendarBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	days, err := h.host.ChangeCalendar(r.Context(), c.org, id, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCalendarView(c.org, id, days), nil
}

func (h *handler) addBlock(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b blockBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	block, err := h.host.AddBlock(r.Context(), c.org, id, booking.Block{Start: b.Start, End: b.End, Reason: b.Reason, UnitID: b.UnitID}, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newBlockView(*block), nil
}

func (h *handler) removeBlock(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	blockID, err := pathID(r, "block_id", "block")
	if err != nil {
		return 0, nil, err
	}
	if err := h.host.RemoveBlock(r.Context(), c.org, id, blockID, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (h *handler) listCoupons(r *http.Request, c *call) (int, any, error) {
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	all, err := h.host.Coupons(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	// By code, as listed; the cursor is the position of the next one.
	start := int(min(cursor, int64(len(all))))
	end := min(start+limit, len(all))
	items := make([]couponView, 0, end-start)
	for i := start; i < end; i++ {
		items = append(items, newCouponView(&all[i]))
	}
	var next int64
	if end < len(all) {
		next = int64(end)
	}
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) createCoupon(r *http.Request, c *call) (int, any, error) {
	var b couponBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	cp, err := h.host.CreateCoupon(r.Context(), c.org, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newCouponView(cp), nil
}

func (h *handler) getCoupon(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "coupon")
	if err != nil {
		return 0, nil, err
	}
	cp, err := h.host.Coupon(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCouponView(cp), nil
}

func (h *handler) patchCoupon(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "coupon")
	if err != nil {
		return 0, nil, err
	}
	var b couponBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	cp, err := h.host.UpdateCoupon(r.Context(), c.org, id, b.change(), c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCouponView(cp), nil
}

func (h *handler) disableCoupon(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "coupon")
	if err != nil {
		return 0, nil, err
	}
	cp, err := h.host.DisableCoupon(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newCouponView(cp), nil
}

// parseStatus reads a value of ?status=.
func parseStatus(s string) (booking.Status, bool) {
	switch st := booking.Status(s); st {
	case booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed,
		booking.StatusDeclined, booking.StatusExpired, booking.StatusCancelled:
		return st, true
	}
	return "", false
}

func (h *handler) listBookings(r *http.Request, c *call) (int, any, error) {
	q := r.URL.Query()
	limit, cursor, err := page(q)
	f := booking.FieldErrors{}
	if err != nil {
		f = err.(*booking.Error).Fields
	}
	filter := booking.BookingQuery{Before: cursor, Limit: limit, From: queryDate(q, "from", f), To: queryDate(q, "to", f)}
	for _, v := range q["status"] {
		for s := range strings.SplitSeq(v, ",") {
			st, ok := parseStatus(s)
			if !ok {
				f.Add("status", "invalid_choice")
				continue
			}
			filter.Statuses = append(filter.Statuses, st)
		}
	}
	if s := q.Get("property_id"); s != "" {
		r2 := r.Clone(r.Context())
		r2.SetPathValue("id", s)
		if filter.PropertyID, err = pathID(r2, "id", "property"); err != nil {
			f.Add("property_id", "invalid_type")
		}
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	list, next, err := h.host.Bookings(r.Context(), c.org, filter)
	if err != nil {
		return 0, nil, err
	}
	items := make([]bookingView, len(list))
	for i := range list {
		items[i] = newBookingView(&list[i])
	}
	return http.StatusOK, newList(items, next), nil
}

func (h *handler) getBooking(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	d, err := h.host.BookingDetail(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingFullView(d), nil
}

func (h *handler) approve(r *http.Request, c *call) (int, any, error) {
	return h.answer(r, c, host.ApproveAction())
}

func (h *handler) decline(r *http.Request, c *call) (int, any, error) {
	return h.answer(r, c, host.DeclineAction())
}

func (h *handler) cancel(r *http.Request, c *call) (int, any, error) {
	var b cancelBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	o, err := b.options()
	if err != nil {
		return 0, nil, err
	}
	return h.answer(r, c, host.CancelAction(o))
}

// answer does act to the booking of the path and answers its detail.
func (h *handler) answer(r *http.Request, c *call, act host.BookingAction) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	d, err := h.host.ActOnBooking(r.Context(), c.org, id, act, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingFullView(d), nil
}

func (h *handler) listKeys(r *http.Request, c *call) (int, any, error) {
	keys, err := h.host.APIKeys(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items := make([]apiKeyView, len(keys))
	for i := range keys {
		items[i] = newAPIKeyView(&keys[i])
	}
	return http.StatusOK, newList(items, 0), nil
}

func (h *handler) createKey(r *http.Request, c *call) (int, any, error) {
	var b apiKeyBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	secret, k, err := h.host.CreateAPIKey(r.Context(), c.org, b.Name, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newKeyView{apiKeyView: newAPIKeyView(k), Key: &secret}, nil
}

func (h *handler) revokeKey(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "api_key")
	if err != nil {
		return 0, nil, err
	}
	k, err := h.host.RevokeAPIKey(r.Context(), c.org, id, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newAPIKeyView(k), nil
}

func (h *handler) auditLog(r *http.Request, c *call) (int, any, error) {
	limit, cursor, err := page(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	entries, err := h.host.AuditLog(r.Context(), c.org, cursor, limit+1)
	if err != nil {
		return 0, nil, err
	}
	var next int64
	if len(entries) > limit {
		entries = entries[:limit]
		next = entries[limit-1].ID
	}
	items := make([]auditView, len(entries))
	for i, e := range entries {
		items[i] = newAuditView(e)
	}
	return http.StatusOK, newList(items, next), nil
}
