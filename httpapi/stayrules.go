package httpapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// Guest categories and extras (issue #16): optional query parameters and
// body fields. Without them a request means what it meant in v1:
// guests_count adults and no extras.

// partyFields are the names of the guest categories in requests.
var partyFields = [...]string{"adults", "children", "infants", "pets"}

// withParty sets st.Party from the category counts when any is given:
// adults default to guests_count − children (or 1 without guests_count),
// and guests_count, when absent, becomes adults + children.
func withParty(st *booking.Stay, counts [4]int, given [4]bool, guestsGiven bool) {
	if !given[0] && !given[1] && !given[2] && !given[3] {
		return
	}
	p := pricing.Party{Adults: counts[0], Children: counts[1], Infants: counts[2], Pets: counts[3]}
	if !given[0] {
		p.Adults = 1
		if guestsGiven {
			p.Adults = st.Guests - p.Children
		}
	}
	if !guestsGiven {
		st.Guests = p.Guests()
	}
	st.Party = &p
}

// queryParty reads adults, children, infants and pets from a query.
func queryParty(q url.Values, st *booking.Stay, errs booking.FieldErrors) {
	var counts [4]int
	var given [4]bool
	for i, name := range partyFields {
		if q.Get(name) != "" {
			given[i] = true
			counts[i] = queryInt(q, name, 0, errs)
		}
	}
	withParty(st, counts, given, q.Get("guests_count") != "")
}

// queryExtras reads extras=code[:quantity],… (quantity 1 when omitted).
func queryExtras(q url.Values, errs booking.FieldErrors) []pricing.Extra {
	s := q.Get("extras")
	if s == "" {
		return nil
	}
	var out []pricing.Extra
	for _, item := range strings.Split(s, ",") {
		code, qty, found := strings.Cut(strings.TrimSpace(item), ":")
		n := 1
		if found {
			var err error
			if n, err = strconv.Atoi(qty); err != nil {
				errs.Add("extras", "invalid_extra")
				return nil
			}
		}
		out = append(out, pricing.Extra{Code: code, Quantity: n})
	}
	return out
}

// party reads adults, children, infants and pets from a body.
func (o *object) party(st *booking.Stay) {
	var counts [4]int
	var given [4]bool
	for i, name := range partyFields {
		if o.raw(name) != nil {
			given[i] = true
			counts[i] = o.int(name)
		}
	}
	withParty(st, counts, given, o.raw("guests_count") != nil)
}

// extras reads "extras": [{"code": "breakfast", "quantity": 1}, …];
// quantity defaults to 1.
func (o *object) extras() []pricing.Extra {
	v := o.raw("extras")
	if v == nil {
		return nil
	}
	var list []struct {
		Code     string `json:"code"`
		Quantity *int   `json:"quantity"`
	}
	if err := json.Unmarshal(v, &list); err != nil {
		o.errs.Add("extras", "invalid_type")
		return nil
	}
	out := make([]pricing.Extra, len(list))
	for i, e := range list {
		out[i] = pricing.Extra{Code: e.Code, Quantity: 1}
		if e.Quantity != nil {
			out[i].Quantity = *e.Quantity
		}
	}
	return out
}

// extraView is an optional fee a guest may choose.
type extraView struct {
	Code        string            `json:"code"`
	Labels      map[string]string `json:"labels"`
	Per         string            `json:"per"`
	Amount      money             `json:"amount"`
	MaxQuantity int               `json:"max_quantity"`
}

// guestsView is what a property accepts of each guest category.
type guestsView struct {
	MaxChildren    *int `json:"max_children"`
	MaxInfants     *int `json:"max_infants"`
	MaxPets        int  `json:"max_pets"`
	ChildAgeBelow  int  `json:"child_age_below"`
	InfantAgeBelow int  `json:"infant_age_below"`
}

// newExtrasView lists a property's optional fees.
func newExtrasView(p booking.Property, currency string) []extraView {
	out := []extraView{}
	for _, f := range p.Fees.Items {
		if !f.Optional {
			continue
		}
		out = append(out, extraView{Code: f.Code, Labels: f.Labels.Map(), Per: string(f.Per),
			Amount: newMoney(f.Amount, currency), MaxQuantity: max(f.MaxQuantity, 1)})
	}
	return out
}

// newGuestsView is a property's guest categories.
func newGuestsView(p booking.Property) guestsView {
	g := pricing.GuestPolicy{}
	if p.Fees.Guests != nil {
		g = *p.Fees.Guests
	}
	infant, child := g.Bands()
	return guestsView{MaxChildren: g.MaxChildren, MaxInfants: g.MaxInfants, MaxPets: g.MaxPets,
		ChildAgeBelow: child, InfantAgeBelow: infant}
}

// search answers GET /properties with check_in and check_out: the
// properties bookable for that stay, each with its quote total.
func (h *handler) search(r *http.Request, st *reqState) (int, any, error) {
	q := r.URL.Query()
	errs := booking.FieldErrors{}
	req := booking.SearchRequest{
		Stay: booking.Stay{
			CheckIn:  queryDate(q, "check_in", errs),
			CheckOut: queryDate(q, "check_out", errs),
			Guests:   queryInt(q, "guests_count", 1, errs),
			Extras:   queryExtras(q, errs),
		},
		Locale: h.locale(r, st),
	}
	queryParty(q, &req.Stay, errs)
	pg := readPropertyPage(q, errs)
	switch v := booking.SearchSort(q.Get("sort")); v {
	case booking.SortID, booking.SortPrice, booking.SortName:
		req.Sort = v
	default:
		errs.Add("sort", "invalid")
	}
	if err := errs.Err(); err != nil {
		return 0, nil, err
	}
	if pg.on {
		req.Limit, req.After = pg.limit, pg.after
	}
	found, next, err := h.svc.Search(r.Context(), st.slug, req)
	if err != nil {
		return 0, nil, err
	}
	out := make([]propertyView, len(found))
	for i, f := range found {
		out[i] = newPropertyView(f.Listing)
		total := newMoney(f.Quote.Total, f.Quote.Currency)
		out[i].QuoteTotal = &total
	}
	return http.StatusOK, encodePropertiesPage(out, pg, next), nil
}
