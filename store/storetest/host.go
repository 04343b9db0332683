package storetest

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
)

func boolp(b bool) *bool { return &b }

func newKey(t *testing.T, s Stores, orgID int64, hash string) *booking.APIKey {
	t.Helper()
	k := &booking.APIKey{OrgID: orgID, Name: "pms", Prefix: "sk_host_abcd", Hash: hash, CreatedAt: t0}
	must(t, s.CreateAPIKey(t.Context(), k))
	return k
}

var hostScenarios = []scenario{
	{"Host/APIKeyLifecycle", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		k := newKey(t, s, w.org.ID, "h1")
		if k.ID == 0 {
			t.Fatal("CreateAPIKey set no ID")
		}
		wantCode(t, s.CreateAPIKey(t.Context(), &booking.APIKey{OrgID: w.org.ID, Name: "x", Hash: "h1", CreatedAt: t0}), booking.CodeConflict)
		got, err := s.APIKeyByHash(t.Context(), "h1")
		must(t, err)
		if got.ID != k.ID || got.Name != "pms" || !got.CreatedAt.Equal(t0) || !got.Active() || !got.LastUsedAt.IsZero() {
			t.Errorf("APIKeyByHash = %+v, want the new active key", got)
		}
		_, err = s.APIKeyByHash(t.Context(), "nope")
		wantCode(t, err, booking.CodeNotFound)

		must(t, s.TouchAPIKey(t.Context(), k.ID, t0.Add(time.Hour)))
		must(t, s.TouchAPIKey(t.Context(), k.ID, t0.Add(time.Minute))) // older: ignored
		other := newOrg(t, s, "other")
		_, err = s.RevokeAPIKey(t.Context(), other.ID, k.ID, t0)
		wantCode(t, err, booking.CodeNotFound)
		rev, err := s.RevokeAPIKey(t.Context(), w.org.ID, k.ID, t0.Add(2*time.Hour))
		must(t, err)
		again, err := s.RevokeAPIKey(t.Context(), w.org.ID, k.ID, t0.Add(3*time.Hour))
		must(t, err)
		if rev.Active() || !again.RevokedAt.Equal(t0.Add(2*time.Hour)) || !again.LastUsedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("revoked twice = %+v, want revoked at the first time, last used at t0+1h", again)
		}
		list, err := s.APIKeys(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 1 || list[0].ID != k.ID || list[0].Active() {
			t.Errorf("APIKeys = %+v, want the one revoked key", list)
		}
		none, err := s.APIKeys(t.Context(), other.ID)
		must(t, err)
		if len(none) != 0 {
			t.Errorf("another organisation lists %d keys", len(none))
		}
	}},
	{"Host/AuditLogNewestFirst", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		var ids []int64
		for i := range 3 {
			e := &booking.AuditEntry{OrgID: w.org.ID, Actor: "key:1", ActorName: "pms", Action: "coupon.create",
				Target: "coupon:1", After: json.RawMessage(`{"code":"A"}`), At: t0.Add(time.Duration(i) * time.Minute)}
			must(t, s.RecordAudit(t.Context(), e))
			ids = append(ids, e.ID)
		}
		page, err := s.AuditLog(t.Context(), w.org.ID, 0, 2)
		must(t, err)
		if len(page) != 2 || page[0].ID != ids[2] || page[1].ID != ids[1] {
			t.Fatalf("first page = %+v, want entries %d, %d", page, ids[2], ids[1])
		}
		var after map[string]string
		must(t, json.Unmarshal(page[0].After, &after))
		if after["code"] != "A" || string(page[0].Before) != "null" || !page[0].At.Equal(t0.Add(2*time.Minute)) {
			t.Errorf("entry = %+v, want after {code: A}, before null", page[0])
		}
		rest, err := s.AuditLog(t.Context(), w.org.ID, page[1].ID, 2)
		must(t, err)
		if len(rest) != 1 || rest[0].ID != ids[0] {
			t.Errorf("second page = %+v, want entry %d", rest, ids[0])
		}
	}},
	{"Host/RequestReservedOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		r := &booking.HostRequest{OrgID: w.org.ID, Key: "k", RequestHash: "h", CreatedAt: t0}
		const n = 8
		var (
			wg       sync.WaitGroup
			start    = make(chan struct{})
			mu       sync.Mutex
			reserved int
		)
		for range n {
			wg.Go(func() {
				<-start
				_, err := s.ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
				if err == nil {
					mu.Lock()
					reserved++
					mu.Unlock()
				} else if booking.ErrorCode(err) != booking.CodeConflict {
					t.Errorf("reserve: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
		if reserved != 1 {
			t.Fatalf("%d racers reserved the key, want 1", reserved)
		}
		must(t, s.CompleteHostRequest(t.Context(), w.org.ID, "k", 201, []byte(`{"ok":1}`)))
		got, err := s.ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
		wantCode(t, err, booking.CodeConflict)
		if got == nil || got.Status != 201 || string(got.Body) != `{"ok":1}` || got.RequestHash != "h" {
			t.Errorf("recorded = %+v, want status 201 and the body", got)
		}
		// Forgotten, or older than the window: the key is free again.
		must(t, s.ForgetHostRequest(t.Context(), w.org.ID, "k"))
		_, err = s.ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
		must(t, err)
		_, err = s.ReserveHostRequest(t.Context(), &booking.HostRequest{OrgID: w.org.ID, Key: "k", RequestHash: "h2", CreatedAt: t0.Add(48 * time.Hour)}, t0.Add(time.Hour))
		must(t, err)
	}},
	{"Host/RequestsPurgedAfterTheirWindow", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		for _, r := range []booking.HostRequest{
			{OrgID: w.org.ID, Key: "old", RequestHash: "h", CreatedAt: t0},
			{OrgID: other.ID, Key: "old", RequestHash: "h", CreatedAt: t0.Add(time.Minute)},
			{OrgID: w.org.ID, Key: "new", RequestHash: "h", CreatedAt: t0.Add(23 * time.Hour)},
		} {
			_, err := s.ReserveHostRequest(t.Context(), &r, r.CreatedAt.Add(-time.Hour))
			must(t, err)
			must(t, s.CompleteHostRequest(t.Context(), r.OrgID, r.Key, 201, []byte(`{"ok":1}`)))
		}
		n, err := s.PurgeHostRequests(t.Context(), t0.Add(time.Hour))
		must(t, err)
		if n != 2 {
			t.Errorf("purged %d host requests, want the 2 older than the cut", n)
		}
		// The purged keys are gone, even for a lookup reaching back
		// before them; the newer one is kept.
		for _, org := range []int64{w.org.ID, other.ID} {
			_, err := s.ReserveHostRequest(t.Context(), &booking.HostRequest{OrgID: org, Key: "old", RequestHash: "h2", CreatedAt: t0.Add(2 * time.Hour)}, t0.Add(-48*time.Hour))
			must(t, err)
		}
		got, err := s.ReserveHostRequest(t.Context(), &booking.HostRequest{OrgID: w.org.ID, Key: "new", RequestHash: "h2", CreatedAt: t0.Add(24 * time.Hour)}, t0)
		wantCode(t, err, booking.CodeConflict)
		if got == nil || got.Status != 201 {
			t.Errorf("kept request = %+v, want the completed one", got)
		}
		if n, err := s.PurgeHostRequests(t.Context(), t0.Add(time.Hour)); err != nil || n != 0 {
			t.Errorf("second purge = %d, %v; want 0", n, err)
		}
	}},
	{"Host/CouponsListAndByID", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newCoupon(t, s, w.org.ID, "BETA", 0)
		a := newCoupon(t, s, w.org.ID, "ALPHA", 0)
		list, err := s.Coupons(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
			t.Errorf("Coupons = %+v, want ALPHA then BETA", list)
		}
		got, err := s.CouponByID(t.Context(), w.org.ID, b.ID)
		must(t, err)
		sameJSON(t, "coupon", got, b)
		other := newOrg(t, s, "other")
		_, err = s.CouponByID(t.Context(), other.ID, b.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Host/UsersAndSessions", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		u := &booking.HostUser{OrgID: w.org.ID, Email: "ana@example.com", PasswordHash: "$argon2id$x", CreatedAt: t0}
		must(t, s.CreateHostUser(t.Context(), u))
		if u.ID == 0 {
			t.Fatal("CreateHostUser set no ID")
		}
		wantCode(t, s.CreateHostUser(t.Context(), &booking.HostUser{OrgID: w.org.ID, Email: "ana@example.com", PasswordHash: "h", CreatedAt: t0}), booking.CodeConflict)
		got, err := s.HostUserByEmail(t.Context(), "ana@example.com")
		must(t, err)
		if got.ID != u.ID || got.PasswordHash != "$argon2id$x" || got.OrgID != w.org.ID {
			t.Errorf("HostUserByEmail = %+v", got)
		}
		_, err = s.HostUserByEmail(t.Context(), "bob@example.com")
		wantCode(t, err, booking.CodeNotFound)

		must(t, s.CreateHostSession(t.Context(), &booking.HostSession{Hash: "s1", UserID: u.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}))
		sess, user, err := s.HostSession(t.Context(), "s1", t0.Add(time.Minute))
		must(t, err)
		if sess.UserID != u.ID || user.Email != "ana@example.com" || !sess.ExpiresAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("HostSession = %+v, %+v", sess, user)
		}
		_, _, err = s.HostSession(t.Context(), "s1", t0.Add(time.Hour))
		wantCode(t, err, booking.CodeNotFound) // expired
		must(t, s.DeleteHostSession(t.Context(), "s1"))
		_, _, err = s.HostSession(t.Context(), "s1", t0)
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, s.CreateHostSession(t.Context(), &booking.HostSession{Hash: "s2", UserID: 999999, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}), booking.CodeNotFound)
	}},
}
