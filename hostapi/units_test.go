package hostapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestUnitsAndLinks: over the host API (every response checked against
// the document), a host adds, renames and retires units of a property,
// sells as many stays of a night as it has units, moves a booking to a
// free unit (refused, unavailable, onto a taken one), blocks one unit,
// reads the calendar per unit, links the property to a whole and unlinks
// it; each change is audited; another organisation sees nothing.
func TestUnitsAndLinks(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		soleil := e.props["soleil"]
		unitsPath := hostPath("villa", fmt.Sprintf("/properties/%d/units", soleil))
		num := func(v any) int64 { return int64(v.(float64)) }
		items := func(r response) []map[string]any {
			t.Helper()
			var out []map[string]any
			for _, x := range r.data(t)["items"].([]any) {
				out = append(out, x.(map[string]any))
			}
			return out
		}

		list := e.do("villa", req{method: "GET", path: unitsPath})
		want(t, list, http.StatusOK)
		if got := items(list); len(got) != 1 || got[0]["name"] != "1" || got[0]["active"] != true {
			t.Fatalf("units of a property without units: %v", got)
		}
		first := num(items(list)[0]["id"])
		r := e.do("villa", req{method: "POST", path: unitsPath, body: map[string]any{"name": "  Soleil B "}})
		want(t, r, http.StatusCreated)
		second := num(r.data(t)["id"])
		if r.data(t)["name"] != "Soleil B" || num(r.data(t)["position"]) != 2 {
			t.Fatalf("added unit: %v", r.data(t))
		}
		want(t, e.do("villa", req{method: "POST", path: unitsPath, body: map[string]any{"name": ""}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("villa", req{method: "POST", path: unitsPath, body: map[string]any{"name": "x", "size": 3}}), http.StatusUnprocessableEntity, "invalid")
		want(t, e.do("other", req{method: "GET", path: hostPath("other", fmt.Sprintf("/properties/%d/units", soleil))}), http.StatusNotFound, "not_found")
		r = e.do("villa", req{method: "PATCH", path: fmt.Sprintf("%s/%d", unitsPath, first), body: map[string]any{"name": "Soleil A"}})
		want(t, r, http.StatusOK)
		if r.data(t)["name"] != "Soleil A" {
			t.Fatalf("renamed unit: %v", r.data(t))
		}
		want(t, e.do("villa", req{method: "PATCH", path: fmt.Sprintf("%s/%d", unitsPath, second+1000), body: map[string]any{"name": "x"}}),
			http.StatusNotFound, "not_found")

		// Two units: two stays of the same nights, each on its unit.
		a := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		b := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
		unitOf := func(id int64) int64 {
			t.Helper()
			r := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/bookings/%d", id))})
			want(t, r, http.StatusOK)
			return num(r.data(t)["unit_id"])
		}
		if ua, ub := unitOf(a), unitOf(b); ua == ub || !slices.Contains([]int64{first, second}, ua) || !slices.Contains([]int64{first, second}, ub) {
			t.Fatalf("the two stays hold units %d and %d, want one each of %d, %d", ua, ub, first, second)
		}
		movePath := func(id int64) string { return hostPath("villa", fmt.Sprintf("/bookings/%d/move", id)) }
		want(t, e.do("villa", req{method: "POST", path: movePath(a), body: map[string]any{"unit_id": unitOf(b)}}),
			http.StatusUnprocessableEntity, "unavailable")
		want(t, e.do("villa", req{method: "POST", path: movePath(a), body: map[string]any{}}), http.StatusUnprocessableEntity, "invalid")
		r = e.do("villa", req{method: "POST", path: unitsPath, body: map[string]any{"name": "Soleil C"}})
		want(t, r, http.StatusCreated)
		third := num(r.data(t)["id"])
		r = e.do("villa", req{method: "POST", path: movePath(a), body: map[string]any{"unit_id": third}})
		want(t, r, http.StatusOK)
		if num(r.data(t)["unit_id"]) != third || unitOf(a) != third {
			t.Fatalf("moved booking: %v, stored on %d; want unit %d", r.data(t), unitOf(a), third)
		}
		r = e.do("villa", req{method: "POST", path: fmt.Sprintf("%s/%d/retire", unitsPath, third)})
		want(t, r, http.StatusConflict, "conflict")
		freeUnit := first
		if unitOf(b) == first {
			freeUnit = second
		}
		// A block of the free unit; the calendar shows each unit's night.
		r = e.do("villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/properties/%d/blocks", soleil)),
			body: map[string]any{"start": "2026-06-10", "end": "2026-06-11", "unit_id": freeUnit}})
		want(t, r, http.StatusCreated)
		if num(r.data(t)["unit_id"]) != freeUnit {
			t.Fatalf("block: %v, want on unit %d", r.data(t), freeUnit)
		}
		cal := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar?from=2026-06-10&to=2026-06-12", soleil))})
		want(t, cal, http.StatusOK)
		days := cal.data(t)["days"].([]any)
		night := days[0].(map[string]any)["units"].([]any)
		holders := map[int64]string{}
		for _, x := range night {
			u := x.(map[string]any)
			switch {
			case u["booking_id"] != nil:
				holders[num(u["unit_id"])] = fmt.Sprint("booking ", num(u["booking_id"]))
			case u["block_id"] != nil:
				holders[num(u["unit_id"])] = "block"
			}
		}
		if len(night) != 3 || holders[third] != fmt.Sprint("booking ", a) || holders[unitOf(b)] != fmt.Sprint("booking ", b) || holders[freeUnit] != "block" {
			t.Fatalf("the night of 10 June per unit: %v", night)
		}
		// The three units taken: the public checkout of that night is
		// refused.
		pub := e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": soleil, "guest_name": "Ann", "guest_email": "ann@example.com", "guest_phone": "+33612345678",
			"check_in": "2026-06-10", "check_out": "2026-06-11", "guests_count": 2}})
		want(t, pub, http.StatusUnprocessableEntity, "unavailable")

		// Linked: a cabane let whole, made of Soleil.
		r = e.do("villa", req{method: "POST", path: hostPath("villa", "/properties"), body: map[string]any{
			"name": "Cabane", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}}})
		want(t, r, http.StatusCreated)
		cabane := num(r.data(t)["id"])
		linksPath := hostPath("villa", "/links")
		want(t, e.do("villa", req{method: "POST", path: linksPath, body: map[string]any{"whole_id": soleil, "part_id": cabane}}),
			http.StatusConflict, "conflict") // a whole of three units
		want(t, e.do("villa", req{method: "POST", path: linksPath, body: map[string]any{"whole_id": cabane, "part_id": cabane}}),
			http.StatusUnprocessableEntity, "invalid")
		r = e.do("villa", req{method: "POST", path: linksPath, body: map[string]any{"whole_id": cabane, "part_id": soleil}})
		want(t, r, http.StatusCreated)
		links := e.do("villa", req{method: "GET", path: linksPath})
		want(t, links, http.StatusOK)
		if got := items(links); len(got) != 1 || num(got[0]["whole_id"]) != cabane || num(got[0]["part_id"]) != soleil {
			t.Fatalf("links: %v", got)
		}
		if got := items(e.do("other", req{method: "GET", path: hostPath("other", "/links")})); len(got) != 0 {
			t.Fatalf("another organisation's links: %v", got)
		}
		cal = e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d/calendar?from=2026-06-10&to=2026-06-13", cabane))})
		want(t, cal, http.StatusOK)
		days = cal.data(t)["days"].([]any)
		if days[0].(map[string]any)["linked_property_id"] == nil || days[2].(map[string]any)["linked_property_id"] != nil {
			t.Fatalf("the whole's calendar under its part's stays: %v", days)
		}
		prop := e.do("villa", req{method: "GET", path: hostPath("villa", fmt.Sprintf("/properties/%d", cabane))})
		want(t, prop, http.StatusOK)
		if l := prop.data(t)["linked"].([]any); len(l) != 1 || num(l[0]) != soleil {
			t.Fatalf("the whole's linked: %v", l)
		}
		pub = e.do("villa", req{method: "POST", path: "/api/v1/book/villa/checkout", body: map[string]any{
			"property_id": cabane, "guest_name": "Ann", "guest_email": "ann@example.com", "guest_phone": "+33612345678",
			"check_in": "2026-06-11", "check_out": "2026-06-13", "guests_count": 2}})
		want(t, pub, http.StatusUnprocessableEntity, "unavailable")
		want(t, e.do("villa", req{method: "DELETE", path: fmt.Sprintf("%s/%d", linksPath, soleil)}), http.StatusNoContent)
		want(t, e.do("villa", req{method: "DELETE", path: fmt.Sprintf("%s/%d", linksPath, soleil)}), http.StatusNotFound, "not_found")

		planning := e.do("villa", req{method: "GET", path: hostPath("villa", "/planning?from=2026-06-01&to=2026-06-30")})
		want(t, planning, http.StatusOK)
		for _, p := range planning.data(t)["properties"].([]any) {
			pm := p.(map[string]any)
			if num(pm["id"]) != soleil {
				continue
			}
			if len(pm["units"].([]any)) != 3 || len(pm["stays"].([]any)) != 2 || pm["stays"].([]any)[0].(map[string]any)["unit_id"] == nil {
				t.Fatalf("Soleil's planning: %v", pm)
			}
		}

		log, err := e.replicas[0].store.Records.AuditLog(t.Context(), e.orgs["villa"].ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, a := range log {
			actions = append(actions, a.Action)
		}
		for _, w := range []string{"unit.create", "unit.rename", "booking.move", "link.create", "link.delete"} {
			if !slices.Contains(actions, w) {
				t.Errorf("no %s in the audit log: %v", w, actions)
			}
		}
	})
}
