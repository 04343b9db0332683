package hostapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/team"
)

// TestEveryRouteHasARole fails when a route is added without a role in
// routeRoles (roles.go), or routeRoles names a route that does not exist.
func TestEveryRouteHasARole(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	registered, unclassified, stale := hostapi.RouteRoles(hostapi.New(hostapi.Options{Host: e.replicas[0].host}))
	if len(registered) < 40 {
		t.Fatalf("only %d routes registered", len(registered))
	}
	for _, r := range unclassified {
		t.Errorf("route %s has no role in routeRoles (roles.go)", r)
	}
	for _, r := range stale {
		t.Errorf("routeRoles names %s, which is no route", r)
	}
}

// sentMail is what the test mailer received.
type sentMail struct {
	mu   sync.Mutex
	mail []string
}

func (m *sentMail) Send(_ context.Context, to, subject, text string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mail = append(m.mail, to+"\n"+subject+"\n"+text)
	return nil
}

var tokenInMail = regexp.MustCompile(`token=([A-Za-z0-9_-]+)`)

// memberEnv is env with a second handler whose Session hook takes the
// member from the X-Test-Member header ("userID:role"), acting on the
// organisation of the path, and the team's use cases.
func memberEnv(t *testing.T, stores []host.Stores) (*env, *team.Service, *sentMail) {
	e := newEnv(t, stores)
	r := e.replicas[0]
	mail := &sentMail{}
	ts := team.New(team.Options{Host: r.host, Records: r.store.Records, Store: r.store.Records.(team.Store), Mailer: mail,
		PublicURL: "https://book.example.com", Clock: e.clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	session := func(req *http.Request) (host.Actor, int64, bool) {
		id, role, ok := strings.Cut(req.Header.Get("X-Test-Member"), ":")
		if !ok {
			return host.Actor{}, 0, false
		}
		n, _ := strconv.ParseInt(id, 10, 64)
		return host.Actor{Kind: "user", ID: n, Name: "member", Role: role}, e.orgs[req.PathValue("org_slug")].ID, true
	}
	mux := http.NewServeMux()
	mux.Handle(hostapi.Prefix, hostapi.New(hostapi.Options{Host: r.host, Logger: slog.New(slog.DiscardHandler), Clock: e.clock, Session: session, Team: ts,
		Reports: reports.New(reports.Options{Store: r.store.Records.(reports.Store), Clock: e.clock})}))
	e.replicas = append(e.replicas, &replica{store: r.store, svc: r.svc, host: r.host, server: mux})
	return e, ts, mail
}

func TestRolesAreEnforcedForMembers(t *testing.T) {
	e, _, _ := memberEnv(t, backends(t)["sqlite"](t, 1))
	tests := []struct {
		role, method, path string
		body               any
		status             int
	}{
		{"housekeeping", "GET", "/planning?from=2026-05-01&to=2026-06-01", nil, 200},
		{"housekeeping", "GET", "/reports/movements", nil, 200},
		{"housekeeping", "GET", "/bookings", nil, 403},
		{"housekeeping", "GET", "/properties", nil, 403},
		{"housekeeping", "GET", "/properties/1/calendar?from=2026-05-01&to=2026-05-02", nil, 403},
		{"housekeeping", "GET", "/reports/monthly", nil, 403},
		{"housekeeping", "PATCH", "/settings", map[string]any{"name": "x"}, 403},
		{"manager", "GET", "/bookings", nil, 200},
		{"manager", "GET", "/settings", nil, 200},
		{"manager", "GET", "/api-keys", nil, 403},
		{"manager", "GET", "/team/members", nil, 403},
		{"manager", "POST", "/team/invitations", map[string]any{"email": "a@example.com", "role": "owner"}, 403},
		{"owner", "GET", "/api-keys", nil, 200},
		{"owner", "GET", "/team/members", nil, 200},
		{"", "GET", "/planning?from=2026-05-01&to=2026-06-01", nil, 403},
		{"admin", "GET", "/planning?from=2026-05-01&to=2026-06-01", nil, 403},
	}
	for _, tt := range tests {
		t.Run(tt.role+" "+tt.method+" "+tt.path, func(t *testing.T) {
			e.t = t
			r := e.do("villa", req{method: tt.method, path: hostPath("villa", tt.path), body: tt.body, key: "-", replica: 1,
				header: map[string]string{"X-Test-Member": "7:" + tt.role}})
			want(t, r, tt.status)
			if tt.status == 403 && !strings.Contains(string(r.body), "Votre rôle") {
				t.Errorf("403 without the role's message: %s", r.body)
			}
		})
	}
	// An API key keeps full access.
	e.t = t
	want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/team/members"), replica: 1}), 200)
}

func TestPlanningCarriesNoMoneyNorContact(t *testing.T) {
	e, _, _ := memberEnv(t, backends(t)["sqlite"](t, 1))
	id := e.paidBooking("villa", "soleil", "2026-05-10", "2026-05-13")
	r := e.do("villa", req{method: "GET", path: hostPath("villa", "/planning?from=2026-05-01&to=2026-06-01"), key: "-", replica: 1,
		header: map[string]string{"X-Test-Member": "7:housekeeping"}})
	want(t, r, 200)
	var p struct {
		Properties []struct {
			Name  string `json:"name"`
			Stays []struct {
				BookingID int64  `json:"booking_id"`
				CheckIn   string `json:"check_in"`
				GuestName string `json:"guest_name"`
			} `json:"stays"`
		} `json:"properties"`
	}
	raw, _ := json.Marshal(r.data(t))
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Properties) != 1 || len(p.Properties[0].Stays) != 1 || p.Properties[0].Stays[0].BookingID != id ||
		p.Properties[0].Stays[0].CheckIn != "2026-05-10" || p.Properties[0].Stays[0].GuestName == "" {
		t.Errorf("planning = %s, want soleil with booking %d from 2026-05-10", raw, id)
	}
	for _, word := range []string{"amount", "email", "phone", "price", "rate", "@"} {
		if strings.Contains(string(raw), word) {
			t.Errorf("planning mentions %q: %s", word, raw)
		}
	}
	for _, q := range []string{"from=2026-05-01&to=2026-08-01", "from=2026-05-02&to=2026-05-01", "to=2026-05-01"} {
		want(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/planning?"+q), replica: 1}), 422, "invalid")
	}
}

func TestInviteAcceptChangeRemoveAudited(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e, ts, mail := memberEnv(t, open(t, 1))
			ctx, villa := t.Context(), e.orgs["villa"]
			owner, err := e.replicas[0].host.CreateUser(ctx, villa, "owner@example.com", "correct horse battery", host.Actor{Kind: "key", ID: 1})
			if err != nil {
				t.Fatal(err)
			}
			as := map[string]string{"X-Test-Member": fmt.Sprintf("%d:owner", owner.ID)}
			do := func(method, path string, body any) response {
				t.Helper()
				e.t = t
				return e.do("villa", req{method: method, path: hostPath("villa", path), body: body, key: "-", replica: 1, header: as})
			}
			want(t, do("POST", "/team/invitations", map[string]any{"email": "cleaner", "role": "housekeeping"}), 422, "invalid")
			want(t, do("POST", "/team/invitations", map[string]any{"email": "c@example.com", "role": "admin"}), 422, "invalid")
			want(t, do("POST", "/team/invitations", map[string]any{"email": "OWNER@example.com", "role": "manager"}), 409, "conflict")
			r := do("POST", "/team/invitations", map[string]any{"email": "Cleaner@Example.com", "role": "housekeeping"})
			want(t, r, 201)
			if d := r.data(t); d["email"] != "cleaner@example.com" || d["status"] != "pending" || d["mail_sent"] != true {
				t.Errorf("invitation = %v", d)
			}
			if len(mail.mail) != 1 || !strings.HasPrefix(mail.mail[0], "cleaner@example.com\n") {
				t.Fatalf("mail = %q, want one to the invitee", mail.mail)
			}
			token := tokenInMail.FindStringSubmatch(mail.mail[0])[1]
			if strings.Contains(string(r.body), token) {
				t.Error("the answer carries the invitation's token")
			}
			if _, _, err := ts.Accept(ctx, token, "short"); err == nil {
				t.Error("Accept with a short password = nil, want an error")
			}
			u, org, err := ts.Accept(ctx, token, "a long enough password")
			if err != nil || org.ID != villa.ID {
				t.Fatalf("Accept = %v, %v", org, err)
			}
			if _, _, err := ts.Accept(ctx, token, "a long enough password"); err == nil {
				t.Error("Accept twice = nil, want an error (single use)")
			}
			if role, err := ts.Role(ctx, villa.ID, u.ID); err != nil || role != team.Housekeeping {
				t.Errorf("Role = %q, %v, want housekeeping", role, err)
			}
			// An existing user joins another organisation with their password;
			// a second invitation sent meanwhile is refused once they are in.
			other := e.orgs["other"]
			by := host.Actor{Kind: "key", ID: 9, Name: "k"}
			if _, _, err := ts.Invite(ctx, other, "cleaner@example.com", team.Manager, "fr", by); err != nil {
				t.Fatal(err)
			}
			if _, _, err := ts.Invite(ctx, other, "cleaner@example.com", team.Housekeeping, "en", by); err != nil {
				t.Fatal(err)
			}
			twice := tokenInMail.FindStringSubmatch(mail.mail[2])[1]
			mail.mail = slices.Delete(mail.mail, 2, 3)
			token2 := tokenInMail.FindStringSubmatch(mail.mail[1])[1]
			if !strings.Contains(mail.mail[1], "Invitation à rejoindre") {
				t.Errorf("French invitation = %q", mail.mail[1])
			}
			if _, _, err := ts.Accept(ctx, token2, "wrong password!"); err == nil {
				t.Error("Accept with a wrong password of an existing user = nil")
			}
			if _, _, err := ts.Accept(ctx, token2, "a long enough password"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := ts.Accept(ctx, twice, "a long enough password"); booking.ErrorCode(err) != booking.CodeConflict {
				t.Errorf("Accept of a second invitation of a member = %v, want CodeConflict", err)
			}
			access, err := ts.Access(ctx, u.ID)
			if err != nil || len(access) != 2 || access[0].Slug != "villa" || access[1].Role != team.Manager {
				t.Errorf("Access = %+v, %v, want villa (housekeeping) and other (manager)", access, err)
			}
			r = do("GET", "/team/members", nil)
			want(t, r, 200)
			if items := r.data(t)["items"].([]any); len(items) != 2 {
				t.Errorf("members = %v, want owner and cleaner", items)
			}
			path := fmt.Sprintf("/team/members/%d", owner.ID)
			want(t, do("PATCH", path, map[string]any{"role": "manager"}), 409, "conflict")
			want(t, do("DELETE", path, nil), 409, "conflict")
			r = do("PATCH", fmt.Sprintf("/team/members/%d", u.ID), map[string]any{"role": "manager"})
			want(t, r, 200)
			if r.data(t)["role"] != "manager" {
				t.Errorf("patched member = %s", r.body)
			}
			want(t, do("DELETE", fmt.Sprintf("/team/members/%d", u.ID), nil), 204)
			want(t, do("DELETE", fmt.Sprintf("/team/members/%d", u.ID), nil), 404, "not_found")
			r = do("POST", "/team/invitations", map[string]any{"email": "late@example.com", "role": "manager"})
			want(t, r, 201)
			id := int64(r.data(t)["id"].(float64))
			r = do("DELETE", fmt.Sprintf("/team/invitations/%d", id), nil)
			want(t, r, 200)
			if r.data(t)["status"] != "revoked" {
				t.Errorf("revoked invitation = %s", r.body)
			}
			want(t, do("DELETE", fmt.Sprintf("/team/invitations/%d", id), nil), 404, "not_found")
			late := tokenInMail.FindStringSubmatch(mail.mail[2])[1]
			if _, _, err := ts.Accept(ctx, late, "a long enough password"); err == nil {
				t.Error("Accept of a revoked invitation = nil")
			}
			// An invitation expires after team.InvitationTTL.
			r = do("POST", "/team/invitations", map[string]any{"email": "slow@example.com", "role": "manager"})
			want(t, r, 201)
			slow := tokenInMail.FindStringSubmatch(mail.mail[3])[1]
			e.clock.Advance(team.InvitationTTL)
			if _, _, err := ts.Accept(ctx, slow, "a long enough password"); err == nil {
				t.Error("Accept of an expired invitation = nil")
			}
			r = do("GET", "/team/invitations", nil)
			want(t, r, 200)
			if items := r.data(t)["items"].([]any); items[0].(map[string]any)["status"] != "expired" {
				t.Errorf("the newest invitation = %v, want expired", items[0])
			}
			// Every change is audited under who made it.
			log, err := e.replicas[0].store.Records.AuditLog(ctx, villa.ID, 0, 50)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range log {
				if strings.HasPrefix(a.Action, "member.") || strings.HasPrefix(a.Action, "invitation.") {
					got = append(got, a.Action+" by "+a.Actor+" "+a.ActorName)
				}
			}
			wantLog := []string{
				"invitation.create by " + fmt.Sprintf("user:%d member", owner.ID),
				"invitation.revoke by " + fmt.Sprintf("user:%d member", owner.ID),
				"invitation.create by " + fmt.Sprintf("user:%d member", owner.ID),
				"member.remove by " + fmt.Sprintf("user:%d member", owner.ID),
				"member.role by " + fmt.Sprintf("user:%d member", owner.ID),
				"member.join by " + fmt.Sprintf("user:%d cleaner@example.com", u.ID),
				"invitation.create by " + fmt.Sprintf("user:%d member", owner.ID),
			}
			if !slices.Equal(got, wantLog) {
				t.Errorf("audit log = %q, want %q", got, wantLog)
			}
		})
	}
}
