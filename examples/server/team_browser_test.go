package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/internal/testenv"
	"github.com/staykit/staykit/team"
)

var invitationLink = regexp.MustCompile(`/host/invitation\?token=([A-Za-z0-9_-]{43})`)

// invitationToken reads, from the MailDev sink, the token of the
// invitation e-mailed to to.
func invitationToken(t *testing.T, api, to string) string {
	t.Helper()
	var list []struct {
		To []struct {
			Address string `json:"address"`
		} `json:"to"`
		Text string `json:"text"`
	}
	// The API answered once the SMTP server took the mail: it is there.
	res, err := http.Get(api + "/api/email")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatalf("MailDev /api/email: %v", err)
	}
	for _, m := range list {
		if len(m.To) != 1 || m.To[0].Address != to {
			continue
		}
		if m := invitationLink.FindStringSubmatch(m.Text); m != nil {
			return m[1]
		}
		t.Fatalf("the invitation e-mail has no link:\n%s", m.Text)
	}
	t.Fatalf("no invitation e-mail to %s", to)
	return ""
}

// TestBrowserTeamInviteHousekeeping: an owner invites a housekeeper from
// the Team page (no sideways overflow at 390 px); the invitee follows the
// e-mailed link, chooses a password, and lands on the rota: the planning
// and the arrivals, without amounts, guest contact or any other view; the
// host API refuses them the bookings.
func TestBrowserTeamInviteHousekeeping(t *testing.T) {
	api, smtpAddr := testenv.MailSink(t)
	smtpHost, smtpPort, _ := strings.Cut(smtpAddr, ":")
	ts := startServer(t, nil, "-smtp-host", smtpHost, "-smtp-port", smtpPort, "-smtp-tls", "none", "-mail-from", "host@staykit.test")
	newHostUser(t, ts, "demo-request", "owner@example.com", "a long enough password")
	property := propertyIDs(t, ts, "demo-request")[0]
	requestedBooking(t, ts, property, 3, 2)
	cleaner := fmt.Sprintf("cleaner-%d@example.com", time.Now().UnixNano())

	b := newBrowser(t)
	b.do("viewport", chromedp.EmulateViewport(390, 844))
	b.signIn(ts.URL+"/host/login?lang=en", "owner@example.com", "a long enough password", "#nav-team")
	b.do("invite", chromedp.Click(chromedp.CSS("#nav-team")),
		chromedp.WaitVisible(chromedp.CSS("#invite-email")),
		chromedp.SendKeys(chromedp.CSS("#invite-email"), cleaner),
		chromedp.SetValue(chromedp.CSS("#invite-role"), "housekeeping"),
		chromedp.Click(chromedp.CSS("#invite-send")),
		chromedp.WaitVisible(chromedp.CSS("#flash.ok")),
		chromedp.WaitVisible(chromedp.CSS(".ist-pending")))
	if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
		t.Errorf("390 px, Team page: %s px wider than the screen", got)
	}
	b.shot("team-390")
	if got := b.text("#flash"); got != "Invitation sent." {
		t.Errorf("flash = %q", got)
	}
	token := invitationToken(t, api, cleaner)

	b.do("sign out", chromedp.Click(chromedp.CSS("#logout")), chromedp.WaitVisible(chromedp.CSS("#login")))
	b.do("accept", chromedp.Navigate(ts.URL+"/host/invitation?lang=en&token="+token),
		chromedp.WaitVisible(chromedp.CSS("#password")))
	if got := b.text("#invitation-text"); !strings.Contains(got, "housekeeping") {
		t.Errorf("invitation says %q, want the role", got)
	}
	b.do("choose a password", chromedp.SendKeys(chromedp.CSS("#password"), "the cleaner's password"),
		chromedp.Click(chromedp.CSS("#accept")),
		chromedp.WaitVisible(chromedp.CSS("#rota-arrivals")),
		chromedp.WaitVisible(chromedp.CSS(".rota-property .stay")))
	b.shot("rota")
	if got := b.eval(`[...document.querySelectorAll('#nav button')].map((b) => b.dataset.view).join(' ')`); got != "rota" {
		t.Errorf("a housekeeper's menu = %q, want the rota alone", got)
	}
	page := b.eval(`document.body.innerText`)
	for _, word := range []string{"€", "EUR", "@", "Total"} {
		if strings.Contains(page, word) {
			t.Errorf("the rota shows %q:\n%s", word, page)
		}
	}
	if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
		t.Errorf("390 px, rota: %s px wider than the screen", got)
	}
	// The API refuses what the menu hides.
	status := b.fetchStatus("/api/v1/host/demo-request/bookings")
	if status != "403" {
		t.Errorf("a housekeeper's GET /bookings = %s, want 403", status)
	}
	if got := b.fetchStatus("/api/v1/host/demo/planning?from=2026-05-01&to=2026-05-08"); got != "403" {
		t.Errorf("GET /planning of an organisation the housekeeper is not a member of = %s, want 403", got)
	}
	// The link worked once.
	b.do("reuse the link", chromedp.Navigate(ts.URL+"/host/invitation?lang=en&token="+token), chromedp.WaitVisible(chromedp.CSS("#invitation-error")))
	b.checkNoProblems()
}

// TestBrowserTeamSwitcher: a user who belongs to two organisations picks
// one in the menu; the address and a reload keep it, and the role there
// decides the views.
func TestBrowserTeamSwitcher(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	ctx, db := t.Context(), ts.srv.back.Store
	u, err := db.Records.HostUserByEmail(ctx, "host@example.com")
	if err != nil {
		t.Fatal(err)
	}
	demo, err := db.OrganizationBySlug(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Team().AddMember(ctx, &team.Membership{OrgID: demo.ID, UserID: u.ID, Role: team.Manager, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#org-switch")
	if got := b.eval(`document.body.dataset.org + ' ' + String(!!document.querySelector('#nav-team'))`); got != "demo-request true" {
		t.Errorf("after sign-in: %q, want the user's own organisation, as owner", got)
	}
	b.do("switch", chromedp.SetValue(chromedp.CSS("#org-switch"), "demo"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-org="demo"] #nav-bookings`)))
	if got := b.eval(`location.search + ' ' + document.body.dataset.role + ' ' + String(!!document.querySelector('#nav-team')) + ' ' + String(!!document.querySelector('#nav-keys'))`); got != "?org=demo&lang=en manager false false" {
		t.Errorf("after switching: %q, want demo as manager, no Team or API keys", got)
	}
	b.do("reload without the address", chromedp.Navigate(ts.URL+"/host/#bookings"), chromedp.WaitVisible(chromedp.CSS(`#nav-bookings.current`)))
	if got := b.eval(`document.body.dataset.org + ' ' + document.querySelector('#org-switch').value`); got != "demo demo" {
		t.Errorf("after a reload: %q, want demo kept", got)
	}
	status := b.fetchStatus("/api/v1/host/demo/api-keys")
	if status != "403" {
		t.Errorf("a manager's GET /api-keys = %s, want 403", status)
	}
	b.checkNoProblems()
}

// fetchStatus is the status of a GET of path from the page, with its
// cookies.
func (b *browser) fetchStatus(path string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q, {credentials: 'same-origin'}).then((r) => String(r.status))`, path), chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("fetch %s: %v", path, err)
	}
	return v
}
