package hostapi

import (
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/units"
)

// unitRoutes are a property's units and the linked listings (package
// units, issue #27).
func (h *handler) unitRoutes() []channelRoute {
	return []channelRoute{
		{http.MethodGet, "/properties/{id}/units", h.listUnits},
		{http.MethodPost, "/properties/{id}/units", h.addUnit},
		{http.MethodPatch, "/properties/{id}/units/{unit_id}", h.renameUnit},
		{http.MethodPost, "/properties/{id}/units/{unit_id}/retire", h.retireUnit},
		{http.MethodGet, "/properties/{id}/units/{unit_id}/prices", h.listUnitPrices},
		{http.MethodPost, "/properties/{id}/units/{unit_id}/prices", h.setUnitPrices},
		{http.MethodPost, "/bookings/{id}/move", h.moveBooking},
		{http.MethodGet, "/links", h.listLinks},
		{http.MethodPost, "/links", h.addLink},
		{http.MethodDelete, "/links/{part_id}", h.removeLink},
	}
}

// unitView is a unit of a property.
type unitView struct {
	ID         int64      `json:"id"`
	PropertyID int64      `json:"property_id"`
	Name       string     `json:"name"`
	Position   int        `json:"position"`
	Active     bool       `json:"active"`
	RetiredAt  *time.Time `json:"retired_at"`
	// Priced: the unit has nightly prices of its own.
	Priced bool `json:"priced"`
}

func newUnitView(u booking.Unit) unitView {
	return unitView{ID: u.ID, PropertyID: u.PropertyID, Name: u.Name, Position: u.Position, Active: u.Active(),
		RetiredAt: optTime(u.RetiredAt), Priced: u.Priced}
}

// unitPricesView is a unit's own nightly prices over a range of dates.
type unitPricesView struct {
	UnitID   int64           `json:"unit_id"`
	Currency string          `json:"currency"`
	From     civil.Date      `json:"from"`
	To       civil.Date      `json:"to"`
	Days     []unitPriceView `json:"days"`
}

// unitPriceView is a unit's own price of one night.
type unitPriceView struct {
	Date  civil.Date      `json:"date"`
	Price decimal.Decimal `json:"price"`
}

func newUnitPricesView(org *booking.Organization, unitID int64, from, to civil.Date, list []booking.UnitPrice) unitPricesView {
	v := unitPricesView{UnitID: unitID, Currency: org.Currency, From: from, To: to, Days: make([]unitPriceView, len(list))}
	for i, p := range list {
		v.Days[i] = unitPriceView{Date: p.Date, Price: p.Price}
	}
	return v
}

// unitBody is POST /properties/{id}/units and PATCH
// /properties/{id}/units/{unit_id}.
type unitBody struct {
	Name string `json:"name"`
}

// moveBody is POST /bookings/{id}/move.
type moveBody struct {
	UnitID int64 `json:"unit_id"`
}

// linkView is a link of a part to its whole.
type linkView struct {
	WholeID   int64     `json:"whole_id"`
	PartID    int64     `json:"part_id"`
	CreatedAt time.Time `json:"created_at"`
}

func newLinkView(l units.Link) linkView {
	return linkView{WholeID: l.WholeID, PartID: l.PartID, CreatedAt: l.CreatedAt.UTC()}
}

// linkBody is POST /links.
type linkBody struct {
	WholeID int64 `json:"whole_id"`
	PartID  int64 `json:"part_id"`
}

// unitOfPath reads a unit's route: the property's id and the unit's.
func unitOfPath(r *http.Request) (propertyID, unitID int64, err error) {
	if propertyID, err = pathID(r, "id", "property"); err != nil {
		return 0, 0, err
	}
	if unitID, err = pathID(r, "unit_id", "unit"); err != nil {
		return 0, 0, err
	}
	return propertyID, unitID, nil
}

func (h *handler) listUnits(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	list, err := h.host.Units(r.Context(), c.org, id)
	if err != nil {
		return 0, nil, err
	}
	items := make([]unitView, 0, len(list))
	for _, u := range list {
		items = append(items, newUnitView(u))
	}
	return http.StatusOK, newList(items, 0), nil
}

func (h *handler) addUnit(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "property")
	if err != nil {
		return 0, nil, err
	}
	var b unitBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	u, err := h.host.AddUnit(r.Context(), c.org, id, b.Name, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newUnitView(*u), nil
}

func (h *handler) renameUnit(r *http.Request, c *call) (int, any, error) {
	id, unitID, err := unitOfPath(r)
	if err != nil {
		return 0, nil, err
	}
	var b unitBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	u, err := h.host.RenameUnit(r.Context(), c.org, id, unitID, b.Name, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newUnitView(*u), nil
}

func (h *handler) retireUnit(r *http.Request, c *call) (int, any, error) {
	id, unitID, err := unitOfPath(r)
	if err != nil {
		return 0, nil, err
	}
	u, err := h.host.RetireUnit(r.Context(), c.org, id, unitID, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newUnitView(*u), nil
}

func (h *handler) listUnitPrices(r *http.Request, c *call) (int, any, error) {
	id, unitID, err := unitOfPath(r)
	if err != nil {
		return 0, nil, err
	}
	from, to, err := queryRange(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	list, err := h.host.UnitPrices(r.Context(), c.org, id, unitID, from, to)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newUnitPricesView(c.org, unitID, from, to, list), nil
}

func (h *handler) setUnitPrices(r *http.Request, c *call) (int, any, error) {
	id, unitID, err := unitOfPath(r)
	if err != nil {
		return 0, nil, err
	}
	var b host.UnitPriceChange
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if _, err := h.host.SetUnitPrices(r.Context(), c.org, id, unitID, b, c.actor); err != nil {
		return 0, nil, err
	}
	list, err := h.host.UnitPrices(r.Context(), c.org, id, unitID, b.From, b.To)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newUnitPricesView(c.org, unitID, b.From, b.To, list), nil
}

func (h *handler) moveBooking(r *http.Request, c *call) (int, any, error) {
	id, err := pathID(r, "id", "booking")
	if err != nil {
		return 0, nil, err
	}
	var b moveBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	if b.UnitID <= 0 {
		return 0, nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"unit_id": {"required"}}}
	}
	moved, err := h.host.MoveBooking(r.Context(), c.org, id, b.UnitID, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, newBookingView(moved), nil
}

func (h *handler) listLinks(r *http.Request, c *call) (int, any, error) {
	list, err := h.host.Links(r.Context(), c.org)
	if err != nil {
		return 0, nil, err
	}
	items := make([]linkView, 0, len(list))
	for _, l := range list {
		items = append(items, newLinkView(l))
	}
	return http.StatusOK, newList(items, 0), nil
}

func (h *handler) addLink(r *http.Request, c *call) (int, any, error) {
	var b linkBody
	if err := decode(c.body, &b); err != nil {
		return 0, nil, err
	}
	f := booking.FieldErrors{}
	if b.WholeID <= 0 {
		f.Add("whole_id", "required")
	}
	if b.PartID <= 0 {
		f.Add("part_id", "required")
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	l, err := h.host.Link(r.Context(), c.org, b.WholeID, b.PartID, c.actor)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, newLinkView(*l), nil
}

func (h *handler) removeLink(r *http.Request, c *call) (int, any, error) {
	partID, err := pathID(r, "part_id", "link")
	if err != nil {
		return 0, nil, err
	}
	if err := h.host.Unlink(r.Context(), c.org, partID, c.actor); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}
