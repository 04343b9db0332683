package httpapi_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// pageOf is a page of the properties list: its IDs and next_cursor.
type pageOf struct {
	ids  []int64
	next *string
}

func readPage(t *testing.T, r response) pageOf {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var body struct {
		Data []struct {
			ID int64 `json:"id"`
		} `json:"data"`
		Next *string `json:"next_cursor"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	var p pageOf
	for _, d := range body.Data {
		p.ids = append(p.ids, d.ID)
	}
	p.next = body.Next
	return p
}

// TestPropertiesPages: with ?limit= or ?cursor=, the properties list (and
// a search) comes a page at a time, in the same order, each page's
// next_cursor leading to the next until null; without them it is the
// whole list, without next_cursor, as before.
func TestPropertiesPages(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	org, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		p := booking.Property{OrgID: org.ID, Name: "Extra " + strconv.Itoa(i), MaxGuests: 2, Active: true,
			Rates: pricing.RatePlan{BaseRate: dec("90")}}
		if err := e.Store.CreateProperty(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	const list = "/api/v1/book/villa/properties"
	whole := e.do(call{method: "GET", path: list})
	if strings.Contains(string(whole.Body), "next_cursor") {
		t.Fatalf("the whole list carries next_cursor: %s", whole.Body)
	}
	all := readPage(t, whole).ids
	if len(all) < 7 {
		t.Fatalf("fixture: %d properties, want 7 or more", len(all))
	}
	for _, tc := range []struct {
		name  string
		query string
	}{
		{"list", ""},
		{"search", "check_in=2026-06-15&check_out=2026-06-18&guests_count=2&"},
		{"search by name", "check_in=2026-06-15&check_out=2026-06-18&guests_count=2&sort=name&"},
		{"search by price", "check_in=2026-06-15&check_out=2026-06-18&guests_count=2&sort=price&"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := all
			if tc.query != "" {
				want = readPage(t, e.do(call{method: "GET", path: list + "?" + strings.TrimSuffix(tc.query, "&")})).ids
				if len(want) < 3 {
					t.Fatalf("fixture: the search finds %d properties", len(want))
				}
			}
			for _, limit := range []int{1, 2, 3, len(want), 100} {
				var got []int64
				q := tc.query + "limit=" + strconv.Itoa(limit)
				for pages := 0; ; pages++ {
					if pages > len(want) {
						t.Fatalf("limit %d: more pages than properties", limit)
					}
					p := readPage(t, e.do(call{method: "GET", path: list + "?" + q}))
					if len(p.ids) > limit {
						t.Fatalf("limit %d: a page of %d", limit, len(p.ids))
					}
					got = append(got, p.ids...)
					if p.next == nil {
						break
					}
					if len(p.ids) != limit {
						t.Fatalf("limit %d: a page of %d before the last", limit, len(p.ids))
					}
					q = tc.query + "limit=" + strconv.Itoa(limit) + "&cursor=" + *p.next
				}
				if !slices.Equal(got, want) {
					t.Errorf("limit %d: pages hold %v, want %v", limit, got, want)
				}
			}
			// A cursor alone: the rest, up to 100.
			p := readPage(t, e.do(call{method: "GET", path: list + "?" + tc.query + "cursor=" + strconv.FormatInt(want[0], 10)}))
			if !slices.Equal(p.ids, want[1:]) || p.next != nil {
				t.Errorf("after the first: %v next %v, want %v and null", p.ids, p.next, want[1:])
			}
		})
	}
	for _, tc := range []struct{ query, field, code string }{
		{"limit=0", "limit", "out_of_range"},
		{"limit=101", "limit", "out_of_range"},
		{"limit=two", "limit", "out_of_range"},
		{"cursor=0", "cursor", "invalid_type"},
		{"cursor=-4", "cursor", "invalid_type"},
		{"cursor=abc", "cursor", "invalid_type"},
		{"check_in=2026-06-15&check_out=2026-06-18&limit=0", "limit", "out_of_range"},
		{"check_in=2026-06-15&check_out=2026-06-18&sort=cheap", "sort", "invalid"},
		{"check_in=2026-06-15&check_out=2026-06-18&sort=name&cursor=999999", "cursor", "invalid"},
	} {
		r := e.do(call{method: "GET", path: list + "?" + tc.query})
		if r.Status != 422 || r.Env.Code != "invalid" || !slices.Contains(r.Env.FieldCodes[tc.field], tc.code) {
			t.Errorf("%s: %d %s %v, want 422 invalid with %s: %s", tc.query, r.Status, r.Env.Code, r.Env.FieldCodes, tc.field, tc.code)
		}
	}
}

// TestSearchSorted: a search sorted by name lists the same properties as
// unsorted, by name; sorted by price, by the stay's nightly prices.
func TestSearchSorted(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	org, err := e.Store.OrganizationBySlug(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	for i, rate := range []string{"300", "50", "120"} {
		p := booking.Property{OrgID: org.ID, Name: []string{"Zèbre", "Abeille", "Moineau"}[i], MaxGuests: 2, Active: true,
			Rates: pricing.RatePlan{BaseRate: dec(rate)}}
		if err := e.Store.CreateProperty(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	type item struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	search := func(sort string) []item {
		t.Helper()
		r := e.do(call{method: "GET", path: "/api/v1/book/villa/properties?check_in=2026-06-15&check_out=2026-06-18&guests_count=2" + sort})
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var body struct{ Data []item }
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		return body.Data
	}
	plain, byName, byPrice := search(""), search("&sort=name"), search("&sort=price")
	if len(plain) < 4 || len(byName) != len(plain) || len(byPrice) != len(plain) {
		t.Fatalf("%d, %d and %d properties found", len(plain), len(byName), len(byPrice))
	}
	if !slices.IsSortedFunc(byName, func(a, b item) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("sort=name: %v", byName)
	}
	ids := func(l []item) []int64 {
		var out []int64
		for _, x := range l {
			out = append(out, x.ID)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(byName), ids(plain)) || !slices.Equal(ids(byPrice), ids(plain)) {
		t.Errorf("sorted searches find other properties: %v %v, want %v", ids(byName), ids(byPrice), ids(plain))
	}
	// The three added differ only by their rates: 50 before 120 before 300.
	var order []string
	for _, x := range byPrice {
		if slices.Contains([]string{"Zèbre", "Abeille", "Moineau"}, x.Name) {
			order = append(order, x.Name)
		}
	}
	if !slices.Equal(order, []string{"Abeille", "Moineau", "Zèbre"}) {
		t.Errorf("sort=price puts them %v", order)
	}
}
