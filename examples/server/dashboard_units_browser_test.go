package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserUnits (issue #27): a property of three units shows a row per
// unit under its own on the planning, each booking on its unit's row; the
// booking page moves a stay to a free unit; the property page adds,
// renames and retires units and links the property, as a part, to a whole,
// whose planning row then shows the part's stays as linked; the host API
// says the same.
func TestBrowserUnits(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	props := propertyIDs(t, ts, "demo-request")
	if len(props) < 2 {
		t.Fatalf("demo-request has %d properties; the test needs two", len(props))
	}
	studios, whole := props[0], props[1]
	host := hostCaller(t, ts, "demo-request")
	addUnits(t, host, studios, "Studio 2", "Studio 3")
	// Two stays of the same nights: each on its unit.
	requestedBooking(t, ts, studios, 5, 2)
	requestedBooking(t, ts, studios, 5, 2)
	bookingsOf := func() []map[string]any {
		r := host(http.MethodGet, "/bookings?limit=100", nil)
		var out []map[string]any
		for _, b := range r.data(t)["items"].([]any) {
			if bm := b.(map[string]any); num(bm, "property_id") == fmt.Sprint(studios) {
				out = append(out, bm)
			}
		}
		return out
	}
	bs := bookingsOf()
	if len(bs) != 2 || num(bs[0], "unit_id") == num(bs[1], "unit_id") {
		t.Fatalf("the two stays: %v", bs)
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#planning .bar.booking")
	if got := b.eval(`String(document.querySelectorAll('#planning .prop.unit').length)`); got != "3" {
		t.Errorf("%s unit rows on the planning, want the studios' 3", got)
	}
	// Each booking bar sits on the row of its unit, under the studios'.
	rows := b.eval(`[...document.querySelectorAll('#planning .bar.booking')].map((x) => getComputedStyle(x).gridRowStart).sort().join(',')`)
	unitRows := b.eval(`[...document.querySelectorAll('#planning .prop.unit')].map((x) => getComputedStyle(x).gridRowStart).join(',')`)
	if parts := strings.Split(rows, ","); len(parts) != 2 || parts[0] == parts[1] || !strings.Contains(unitRows, parts[0]) || !strings.Contains(unitRows, parts[1]) {
		t.Errorf("booking bars on rows %s, unit rows %s: want two different unit rows", rows, unitRows)
	}
	b.shot("1-planning-units")

	// The booking page moves the first stay to the free unit.
	first := num(bs[0], "id")
	b.do("open the booking", chromedp.Navigate(ts.URL+"/host/?lang=en#bookings/"+first), chromedp.WaitVisible(chromedp.CSS("#bk-move-submit")))
	free := ""
	unitName := map[string]string{}
	for _, u := range host(http.MethodGet, fmt.Sprintf("/properties/%d/units", studios), nil).data(t)["items"].([]any) {
		id := num(u.(map[string]any), "id")
		unitName[id] = u.(map[string]any)["name"].(string)
		if id != num(bs[0], "unit_id") && id != num(bs[1], "unit_id") {
			free = id
		}
	}
	if b.eval(`String(document.querySelectorAll('#bk-move-unit option').length)`) != "2" {
		t.Errorf("the move offers %s units, want the 2 others", b.eval(`String(document.querySelectorAll('#bk-move-unit option').length)`))
	}
	// The other stay's unit is said taken, the free one offered first;
	// moving onto the taken one is refused, in words naming both units.
	other := num(bs[1], "unit_id")
	if got := b.eval(`[...document.querySelectorAll('#bk-move-unit option')].map((o) => o.value + ':' + o.dataset.taken).join(',')`); got != free+":false,"+other+":true" && got != other+":true,"+free+":false" {
		t.Errorf("the move's options say %q, want %s free and %s taken", got, free, other)
	}
	if got := b.eval(`document.querySelector('#bk-move-unit').value`); got != free {
		t.Errorf("the move offers unit %s first, want the free %s", got, free)
	}
	b.eval(`(document.querySelector('#bk-move-unit').value = '` + other + `', '')`)
	b.do("move onto the taken unit", chromedp.Click(chromedp.CSS("#bk-move-submit")), chromedp.WaitVisible(chromedp.CSS("#flash.error")))
	if got, want := b.text("#flash"), unitName[other]+" is not free for this stay (another stay, a block or the preparation days): the booking stays on "+
		unitName[num(bs[0], "unit_id")]+". Choose another unit."; got != want {
		t.Errorf("flash after a move onto a taken unit: %q, want %q", got, want)
	}
	b.eval(`(document.querySelector('#bk-move-unit').value = '` + free + `', '')`)
	b.do("move onto the free unit", chromedp.Click(chromedp.CSS("#bk-move-submit")),
		chromedp.WaitVisible(chromedp.CSS(`#bk-unit[data-unit="`+free+`"]`)))
	if got := b.text("#flash"); got != "Booking moved." {
		t.Errorf("flash after the move: %q", got)
	}
	if r := host(http.MethodGet, "/bookings/"+first, nil); num(r.data(t), "unit_id") != free {
		t.Errorf("the host API has the booking on unit %s, want %s", num(r.data(t), "unit_id"), free)
	}
	b.shot("2-moved")

	// The property page: add a unit, rename it, retire it. A unit holding
	// a stay to come is not retired, and the API's reason is shown.
	b.do("open the studios", chromedp.Navigate(fmt.Sprintf("%s/host/?lang=en#properties/%d", ts.URL, studios)),
		chromedp.WaitVisible(chromedp.CSS("#unit-add")))
	b.do("retire the unit holding a stay", chromedp.Click(chromedp.CSS("#unit-retire-"+free)), chromedp.WaitVisible(chromedp.CSS("#flash.error")))
	if got := b.text("#flash"); got != "This unit holds stays to come: move or cancel them first." {
		t.Errorf("flash after retiring a unit with a stay: %q", got)
	}
	if got := b.attr(`#units li.unit[data-unit="`+free+`"]`, "data-active"); got != "true" {
		t.Errorf("the unit holding a stay shows active=%q", got)
	}
	if got := b.eval(`String(document.querySelectorAll('#units li.unit').length)`); got != "3" {
		t.Errorf("%s units listed, want 3", got)
	}
	b.do("add a unit", chromedp.SendKeys(chromedp.CSS("#unit-new"), "Studio 4"), chromedp.Click(chromedp.CSS("#unit-add")),
		chromedp.WaitVisible(chromedp.CSS(`#units li.unit:nth-child(4)`)))
	added := b.attr(`#units li.unit:nth-child(4)`, "data-unit")
	b.do("rename it", chromedp.SetValue(chromedp.CSS("#unit-name-"+added), "Studio Four"), chromedp.Click(chromedp.CSS("#unit-rename-"+added)),
		chromedp.WaitVisible(chromedp.CSS(`#unit-name-`+added+`[value="Studio Four"]`)))
	b.do("retire it", chromedp.Click(chromedp.CSS("#unit-retire-"+added)),
		chromedp.WaitVisible(chromedp.CSS(`#units li.unit[data-unit="`+added+`"][data-active="false"]`)))
	units := host(http.MethodGet, fmt.Sprintf("/properties/%d/units", studios), nil).data(t)["items"].([]any)
	last := units[len(units)-1].(map[string]any)
	if len(units) != 4 || last["name"] != "Studio Four" || last["active"] != false {
		t.Errorf("the host API's units: %v", units)
	}
	b.shot("3-units")

	// Link the studios, as a part, to the other property, let whole.
	b.do("open the whole", chromedp.Navigate(fmt.Sprintf("%s/host/?lang=en#properties/%d", ts.URL, whole)),
		chromedp.WaitVisible(chromedp.CSS("#link-add")))
	b.eval(fmt.Sprintf(`(document.querySelector('#link-part').value = '%d', '')`, studios))
	b.do("link", chromedp.Click(chromedp.CSS("#link-add")), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#link-parts li[data-part="%d"]`, studios))))
	links := host(http.MethodGet, "/links", nil).data(t)["items"].([]any)
	if len(links) != 1 || num(links[0].(map[string]any), "whole_id") != fmt.Sprint(whole) {
		t.Errorf("the host API's links: %v", links)
	}
	b.shot("4-linked")
	b.do("back to the planning", chromedp.Navigate(ts.URL+"/host/?lang=en#planning"), chromedp.WaitVisible(chromedp.CSS("#planning .bar.linked")))
	if got := b.text("#planning .bar.linked"); !strings.HasPrefix(got, "Linked: ") {
		t.Errorf("the whole's linked bar says %q", got)
	}
	b.shot("5-planning-linked")
	b.checkNoProblems()
}

// TestBrowserUnitPrices: on the property page a host prices a unit on its
// own for a range of nights, sees the range listed and the unit marked,
// is told when the API refuses a price, and gives the nights back to the
// property's price — each step checked against the host API.
func TestBrowserUnitPrices(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	villa := propertyIDs(t, ts, "demo")[0]
	host := hostCaller(t, ts, "demo")
	unit := addUnits(t, host, villa, "Sea view")[0]
	today := time.Now().UTC()
	from, to := today.AddDate(0, 0, 10).Format(time.DateOnly), today.AddDate(0, 0, 13).Format(time.DateOnly)
	ownPrices := func() []any {
		t.Helper()
		r := host(http.MethodGet, fmt.Sprintf("/properties/%d/units/%s/prices?from=%s&to=%s", villa, unit,
			today.Format(time.DateOnly), today.AddDate(0, 0, 366).Format(time.DateOnly)), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("unit prices: %d %s", r.Status, r.Raw)
		}
		return r.data(t)["days"].([]any)
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#planning")
	b.do("open the villa", chromedp.Navigate(fmt.Sprintf("%s/host/?lang=en#properties/%d", ts.URL, villa)),
		chromedp.WaitVisible(chromedp.CSS("#unit-price-box-"+unit+" summary")))
	b.do("open the unit's prices", chromedp.Click(chromedp.CSS("#unit-price-box-"+unit+" summary")),
		chromedp.WaitVisible(chromedp.CSS("#unit-prices-"+unit+" li.none")))
	b.do("price three nights", chromedp.SetValue(chromedp.CSS("#unit-price-from-"+unit), from),
		chromedp.SetValue(chromedp.CSS("#unit-price-to-"+unit), to),
		chromedp.SendKeys(chromedp.CSS("#unit-price-"+unit), "72,50"),
		chromedp.Click(chromedp.CSS("#unit-price-set-"+unit)),
		chromedp.WaitVisible(chromedp.CSS(`#unit-prices-`+unit+` li[data-price="72.5"]`)))
	if got := b.attr(`#unit-prices-`+unit+` li[data-price="72.5"]`, "data-start") + "/" + b.attr(`#unit-prices-`+unit+` li[data-price="72.5"]`, "data-end"); got != from+"/"+to {
		t.Errorf("the listed range is %s, want %s/%s", got, from, to)
	}
	if got := b.attr(`#units li.unit[data-unit="`+unit+`"]`, "data-priced"); got != "true" {
		t.Errorf("the unit shows priced=%q after its prices were set", got)
	}
	if days := ownPrices(); len(days) != 3 || days[0].(map[string]any)["price"] != "72.5" {
		t.Errorf("the host API's unit prices: %v", days)
	}
	b.shot("1-unit-prices")

	// A price the API refuses is said, and nothing changes.
	b.eval(`(document.querySelector('#unit-price-` + unit + `').value = '-3', '')`)
	b.do("a negative price", chromedp.Click(chromedp.CSS("#unit-price-set-"+unit)), chromedp.WaitVisible(chromedp.CSS("#flash.error")))
	if days := ownPrices(); len(days) != 3 {
		t.Errorf("after a refused price the unit has %d priced nights, want 3", len(days))
	}
	b.do("back to the property's price", chromedp.Click(chromedp.CSS("#unit-price-clear-"+unit)),
		chromedp.WaitVisible(chromedp.CSS(`#units li.unit[data-unit="`+unit+`"][data-priced="false"]`)),
		chromedp.WaitVisible(chromedp.CSS("#unit-prices-"+unit+" li.none")))
	if days := ownPrices(); len(days) != 0 {
		t.Errorf("after clearing, the host API lists %v", days)
	}
	b.shot("2-unit-prices-cleared")
	b.checkNoProblems()
}
