package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
)

// hostAPI calls an organisation's host API with its key (hostCaller).
type hostAPI func(method, path string, body any) response

// hostCaller returns the caller of org's host API on ts, with a key of
// its own.
func hostCaller(t *testing.T, ts *testServer, org string) hostAPI {
	t.Helper()
	key := hostKey(t, ts, org)
	return func(method, path string, body any) response {
		t.Helper()
		return call(t, method, ts.URL+"/api/v1/host/"+org+path, body, key)
	}
}

// addUnits adds units named names to a property through host, and
// returns their ids.
func addUnits(t *testing.T, host hostAPI, property int, names ...string) []string {
	t.Helper()
	var ids []string
	for _, name := range names {
		r := host(http.MethodPost, fmt.Sprintf("/properties/%d/units", property), map[string]any{"name": name})
		if r.Status != http.StatusCreated {
			t.Fatalf("add unit: %d %s", r.Status, r.Raw)
		}
		ids = append(ids, num(r.data(t), "id"))
	}
	return ids
}

// unitsOf returns the ids and names of a property's units, by position,
// through the host API.
func unitsOf(t *testing.T, host hostAPI, property int) (ids, names []string) {
	t.Helper()
	r := host(http.MethodGet, fmt.Sprintf("/properties/%d/units", property), nil)
	for _, u := range r.data(t)["items"].([]any) {
		um := u.(map[string]any)
		ids = append(ids, num(um, "id"))
		names = append(names, um["name"].(string))
	}
	return ids, names
}

// TestBrowserUnitBlocks (issue #27): on the planning, nights selected on
// a unit's row are blocked for that unit alone (a block with its unit_id,
// its bar on that row only, the property's row left open); one night of
// it, selected from the keyboard, is unblocked while the rest stays
// blocked; a tap on a block's bar offers its removal; a tap on the
// property's row goes back to the property's actions.
func TestBrowserUnitBlocks(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	today := civil.Today(time.Now(), paris)
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	studios := propertyIDs(t, ts, "demo-request")[0]
	host := hostCaller(t, ts, "demo-request")
	addUnits(t, host, studios, "Studio 2", "Studio 3")
	units, names := unitsOf(t, host, studios)
	if len(units) != 3 {
		t.Fatalf("units %v, want 3", units)
	}
	second := units[1]
	type block struct{ id, start, end, unit string }
	blocks := func() []block {
		t.Helper()
		var out []block
		for _, x := range host(http.MethodGet, fmt.Sprintf("/properties/%d", studios), nil).data(t)["blocks"].([]any) {
			xm := x.(map[string]any)
			out = append(out, block{num(xm, "id"), xm["start"].(string), xm["end"].(string), num(xm, "unit_id")})
		}
		slices.SortFunc(out, func(a, b block) int { return strings.Compare(a.start, b.start) })
		return out
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#planning .prop.unit")
	propName := b.text(fmt.Sprintf(`#planning .prop[data-property="%d"]:not(.unit)`, studios))
	ucell := func(unit string, d civil.Date) string {
		return fmt.Sprintf(`#planning .cell.ucell[data-unit="%s"][data-date="%s"]`, unit, d)
	}
	pcell := func(d civil.Date) string {
		return fmt.Sprintf(`#planning .cell:not(.ucell)[data-property="%d"][data-date="%s"]`, studios, d)
	}
	unitBars := `#planning .bar.block[data-unit="` + second + `"]`
	rowOf := func(sel string) string {
		return b.eval(`getComputedStyle(document.querySelector('` + sel + `')).gridRowStart`)
	}

	// Three nights of the second unit: tap, tap on its row.
	start := today.AddDays(20)
	b.do("select three nights on the second unit's row",
		chromedp.Click(chromedp.CSS(ucell(second, start))),
		chromedp.Click(chromedp.CSS(ucell(second, start.AddDays(2)))),
		chromedp.WaitVisible(chromedp.CSS("#plan-actions")))
	if got, want := b.text("#plan-count"), "3 night(s) on 1 unit(s): "+names[1]+" ("+propName+")"; got != want {
		t.Errorf("selection = %q, want %q", got, want)
	}
	if got := b.text("#plan-scope"); got != "This unit alone: the other units stay open." {
		t.Errorf("scope = %q", got)
	}
	// The unit's row is marked, the property's is not; the property's
	// actions (prices...) are not offered for a unit.
	marked := b.eval(`[...document.querySelectorAll('#planning .prop.selected-row')].map((x) => x.dataset.unit || 'property').join(',')`)
	if marked != second {
		t.Errorf("rows marked selected: %q, want the second unit's alone", marked)
	}
	if b.visible("#plan-set-price") || b.visible("#plan-close-arrival") {
		t.Error("the property's actions are offered for a unit's nights")
	}
	if got := b.attr(ucell(second, start.AddDays(1)), "aria-pressed"); got != "true" {
		t.Errorf("the middle night's aria-pressed = %q", got)
	}
	b.shot("1-unit-selected")

	b.do("block the unit", chromedp.Click(chromedp.CSS("#plan-block")), chromedp.WaitVisible(chromedp.CSS(unitBars)))
	if n := b.eval(`String(document.querySelectorAll('#planning .bar.block').length)`); n != "1" {
		t.Errorf("%s block bars on the planning, want the unit's one", n)
	}
	if got, want := rowOf(unitBars), rowOf(`#planning .prop.unit[data-unit="`+second+`"]`); got != want {
		t.Errorf("the block's bar is on row %s, want the second unit's %s", got, want)
	}
	if span := b.eval(`getComputedStyle(document.querySelector('` + unitBars + `')).gridColumnEnd`); span != "span 3" {
		t.Errorf("the block's bar spans %q, want its 3 nights", span)
	}
	if b.eval(`String(!!document.querySelector('`+pcell(start)+`.closed'))`) != "false" {
		t.Error("blocking a unit closed the property's night")
	}
	if got, want := blocks(), []block{{start: start.String(), end: start.AddDays(3).String(), unit: second}}; len(got) != 1 ||
		got[0].start != want[0].start || got[0].end != want[0].end || got[0].unit != want[0].unit {
		t.Fatalf("the host API's blocks: %+v, want %+v", got, want)
	}
	b.shot("2-unit-blocked")

	// The middle night, under the bar, from the keyboard: Enter on the
	// cell, then Unblock. The block is cut around it.
	b.do("select the middle night from the keyboard", chromedp.Focus(chromedp.CSS(ucell(second, start.AddDays(1)))),
		chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS("#plan-actions")))
	if got := b.text("#plan-count"); !strings.HasPrefix(got, "1 night(s) on 1 unit(s)") {
		t.Errorf("keyboard selection = %q", got)
	}
	b.do("unblock it", chromedp.Click(chromedp.CSS("#plan-unblock")),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('`+unitBars+`').length === 2`))
	got := blocks()
	if len(got) != 2 || got[0].start != start.String() || got[0].end != start.AddDays(1).String() ||
		got[1].start != start.AddDays(2).String() || got[1].end != start.AddDays(3).String() || got[0].unit != second || got[1].unit != second {
		t.Fatalf("the host API's blocks after unblocking the middle night: %+v", got)
	}

	// A tap on a bar offers its removal, naming the unit.
	b.do("tap the first block", chromedp.Click(chromedp.CSS(unitBars+`[data-block="`+got[0].id+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("#plan-remove-block")))
	if what := b.text("#plan-block-what"); !strings.Contains(what, propName+" — "+names[1]) {
		t.Errorf("the offer says %q, want the unit named", what)
	}
	b.shot("3-offer")
	b.do("keep it", chromedp.Click(chromedp.CSS("#plan-keep-block")), chromedp.WaitNotVisible(chromedp.CSS("#plan-block-offer")))
	if n := len(blocks()); n != 2 {
		t.Errorf("%d blocks after Keep, want 2", n)
	}
	for _, x := range got {
		b.do("remove block "+x.id, chromedp.Click(chromedp.CSS(unitBars+`[data-block="`+x.id+`"]`)),
			chromedp.WaitVisible(chromedp.CSS("#plan-remove-block")), chromedp.Click(chromedp.CSS("#plan-remove-block")),
			chromedp.WaitNotPresent(chromedp.CSS(`#planning .bar.block[data-block="`+x.id+`"]`)))
	}
	if got := b.text("#flash"); got != "Block removed." {
		t.Errorf("flash after the removal: %q", got)
	}
	if left := blocks(); len(left) != 0 {
		t.Errorf("blocks left: %+v", left)
	}

	// The property's row: its own actions again, and a tap on a unit's
	// row starts a new selection there.
	b.do("tap the property's row", chromedp.Click(chromedp.CSS(pcell(start))), chromedp.WaitVisible(chromedp.CSS("#plan-set-price")))
	if got := b.text("#plan-scope"); got != "The whole property: every unit" {
		t.Errorf("scope on the property's row = %q", got)
	}
	b.do("tap a unit's row", chromedp.Click(chromedp.CSS(ucell(units[2], start.AddDays(1)))), chromedp.WaitNotVisible(chromedp.CSS("#plan-set-price")))
	if got := b.text("#plan-count"); got != "1 night(s) on 1 unit(s): "+names[2]+" ("+propName+")" {
		t.Errorf("selection after a tap on another kind of row = %q", got)
	}
	b.checkNoProblems()
}

// TestBrowserChannelsUnits (issue #27): the Channels page of a property
// of three units gives each unit's calendar URL (which serves), and adds
// a channel's calendar for one unit, named in its row; the host API has
// the feed on that unit.
func TestBrowserChannelsUnits(t *testing.T) {
	channel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@airbnb.com\r\nDTSTART;VALUE=DATE:20300110\r\n" +
			"DTEND;VALUE=DATE:20300112\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	}))
	t.Cleanup(channel.Close)
	ts := startServer(t, nil, "-outbound-allow", strings.TrimPrefix(channel.URL, "http://"))
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	props := propertyIDs(t, ts, "demo-request")
	studios := props[0]
	host := hostCaller(t, ts, "demo-request")
	addUnits(t, host, studios, "Studio 2", "Studio 3")
	units, names := unitsOf(t, host, studios)

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-channels")
	b.do("open the Channels page", chromedp.Click(chromedp.CSS("#nav-channels")), chromedp.WaitVisible(chromedp.CSS("#export-url")))
	b.eval(fmt.Sprintf(`(document.querySelector('#ch-property').value = '%d', document.querySelector('#ch-property').dispatchEvent(new Event('change')), '')`, studios))
	b.do("the studios' page", chromedp.WaitVisible(chromedp.CSS("#unit-exports")))
	exportURL := b.eval(`document.querySelector("#export-url").value`)
	got := b.eval(`[...document.querySelectorAll('#unit-exports li')].map((li) => li.dataset.unit + '=' + li.querySelector('.unit-export-url').value).join(' ')`)
	var want []string
	for _, u := range units {
		want = append(want, u+"="+exportURL+"?unit="+u)
	}
	if got != strings.Join(want, " ") {
		t.Errorf("the units' export URLs:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	if text := b.text("#unit-exports"); !strings.Contains(text, names[2]) {
		t.Errorf("the units' exports %q do not name %q", text, names[2])
	}
	r, err := http.Get(exportURL + "?unit=" + units[2])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(string(body), "BEGIN:VCALENDAR") {
		t.Errorf("GET the third unit's URL: %d %.80s", r.StatusCode, body)
	}

	// A channel's calendar for the third unit.
	if n := b.eval(`String(document.querySelectorAll('#feed-unit option').length)`); n != "3" {
		t.Errorf("the feed form offers %s units, want 3", n)
	}
	b.eval(`(document.querySelector('#feed-unit').value = '` + units[2] + `', '')`)
	b.do("add the third unit's feed",
		chromedp.SendKeys(chromedp.CSS("#feed-name"), "Airbnb"),
		chromedp.SendKeys(chromedp.CSS("#feed-url"), channel.URL+"/cal.ics"),
		chromedp.Click(chromedp.CSS("#feed-add")),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-id] .feed-unit`)))
	if got := b.text(`tr[data-id] .feed-unit`); got != names[2] {
		t.Errorf("the feed's row names unit %q, want %q", got, names[2])
	}
	feeds := host(http.MethodGet, fmt.Sprintf("/properties/%d/feeds", studios), nil).data(t)["items"].([]any)
	if len(feeds) != 1 || num(feeds[0].(map[string]any), "unit_id") != units[2] {
		t.Errorf("the host API's feeds: %v, want one on unit %s", feeds, units[2])
	}
	if strings.Contains(b.text("#main"), "null") {
		t.Error("the Channels page shows the word null")
	}
	b.shot("channels-units")
	b.checkNoProblems()
}
