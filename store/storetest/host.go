package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
)

func boolp(b bool) *bool { return &b }

func newKey(t *testing.T, s Stores, orgID int64, hash string) *host.APIKey {
	t.Helper()
	k := &host.APIKey{OrgID: orgID, Name: "pms", Prefix: "sk_host_abcd", Hash: hash, CreatedAt: t0}
	must(t, records(t, s).CreateAPIKey(t.Context(), k))
	return k
}

var hostScenarios = []scenario{
	{"Host/AtomicallyCommitsTheChangeWithItsAudit", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		var p *booking.Property
		err := records(t, s).Atomically(t.Context(), func(ctx context.Context) error {
			p = propertyFixture(w.org.ID)
			if err := s.CreateProperty(ctx, p); err != nil {
				return err
			}
			// Reads in the unit see its writes.
			if _, err := s.Property(ctx, w.org.ID, p.ID); err != nil {
				return fmt.Errorf("read in the unit: %w", err)
			}
			return records(t, s).RecordAudit(ctx, &host.AuditEntry{OrgID: w.org.ID, Actor: "key:1", Action: "property.create",
				Target: fmt.Sprintf("property:%d", p.ID), After: json.RawMessage(`{}`), At: t0})
		})
		must(t, err)
		if _, err := s.Property(t.Context(), w.org.ID, p.ID); err != nil {
			t.Errorf("after a committed unit: Property = %v, want the property", err)
		}
		log, err := records(t, s).AuditLog(t.Context(), w.org.ID, 0, 10)
		must(t, err)
		if len(log) != 1 || log[0].Action != "property.create" {
			t.Errorf("after a committed unit: audit log = %+v, want its entry", log)
		}
	}},
	{"Host/AtomicallyRollsBackWhenTheAuditFails", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		before, err := s.Properties(t.Context(), w.org.ID)
		must(t, err)
		var p *booking.Property
		// The audit entry names an organisation that does not exist: the
		// store refuses it after the property was written in the unit.
		err = records(t, s).Atomically(t.Context(), func(ctx context.Context) error {
			p = propertyFixture(w.org.ID)
			if err := s.CreateProperty(ctx, p); err != nil {
				return err
			}
			return records(t, s).RecordAudit(ctx, &host.AuditEntry{OrgID: w.org.ID + 1000, Actor: "key:1", Action: "property.create",
				Target: "property", At: t0})
		})
		if err == nil {
			t.Fatal("Atomically with a failing audit entry = nil, want its error")
		}
		after, err := s.Properties(t.Context(), w.org.ID)
		must(t, err)
		if len(after) != len(before) {
			t.Errorf("after a failed unit: %d properties, want %d (the change rolled back)", len(after), len(before))
		}
		if _, err := s.Property(t.Context(), w.org.ID, p.ID); booking.ErrorCode(err) != booking.CodeNotFound {
			t.Errorf("after a failed unit: Property = %v, want CodeNotFound", err)
		}
		// The store is usable again: a unit that fails on its own error
		// rolls back too, and the next one commits.
		sentinel := errors.New("changed my mind")
		err = records(t, s).Atomically(t.Context(), func(ctx context.Context) error {
			if err := records(t, s).RecordAudit(ctx, &host.AuditEntry{OrgID: w.org.ID, Actor: "key:1", Action: "x", Target: "y", At: t0}); err != nil {
				return err
			}
			return sentinel
		})
		if !errors.Is(err, sentinel) {
			t.Errorf("Atomically = %v, want fn's error", err)
		}
		log, err := records(t, s).AuditLog(t.Context(), w.org.ID, 0, 10)
		must(t, err)
		if len(log) != 0 {
			t.Errorf("after failed units: audit log = %+v, want none", log)
		}
		must(t, records(t, s).Atomically(t.Context(), func(ctx context.Context) error {
			return records(t, s).RecordAudit(ctx, &host.AuditEntry{OrgID: w.org.ID, Actor: "key:1", Action: "x", Target: "y", At: t0})
		}))
	}},
	{"Host/APIKeyLifecycle", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		k := newKey(t, s, w.org.ID, "h1")
		if k.ID == 0 {
			t.Fatal("CreateAPIKey set no ID")
		}
		wantCode(t, records(t, s).CreateAPIKey(t.Context(), &host.APIKey{OrgID: w.org.ID, Name: "x", Hash: "h1", CreatedAt: t0}), booking.CodeConflict)
		got, err := records(t, s).APIKeyByHash(t.Context(), "h1")
		must(t, err)
		if got.ID != k.ID || got.Name != "pms" || !got.CreatedAt.Equal(t0) || !got.Active() || !got.LastUsedAt.IsZero() {
			t.Errorf("APIKeyByHash = %+v, want the new active key", got)
		}
		_, err = records(t, s).APIKeyByHash(t.Context(), "nope")
		wantCode(t, err, booking.CodeNotFound)

		must(t, records(t, s).TouchAPIKey(t.Context(), k.ID, t0.Add(time.Hour)))
		must(t, records(t, s).TouchAPIKey(t.Context(), k.ID, t0.Add(time.Minute))) // older: ignored
		other := newOrg(t, s, "other")
		_, err = records(t, s).RevokeAPIKey(t.Context(), other.ID, k.ID, t0)
		wantCode(t, err, booking.CodeNotFound)
		rev, err := records(t, s).RevokeAPIKey(t.Context(), w.org.ID, k.ID, t0.Add(2*time.Hour))
		must(t, err)
		again, err := records(t, s).RevokeAPIKey(t.Context(), w.org.ID, k.ID, t0.Add(3*time.Hour))
		must(t, err)
		if rev.Active() || !again.RevokedAt.Equal(t0.Add(2*time.Hour)) || !again.LastUsedAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("revoked twice = %+v, want revoked at the first time, last used at t0+1h", again)
		}
		list, err := records(t, s).APIKeys(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 1 || list[0].ID != k.ID || list[0].Active() {
			t.Errorf("APIKeys = %+v, want the one revoked key", list)
		}
		none, err := records(t, s).APIKeys(t.Context(), other.ID)
		must(t, err)
		if len(none) != 0 {
			t.Errorf("another organisation lists %d keys", len(none))
		}
	}},
	{"Host/AuditLogNewestFirst", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		var ids []int64
		for i := range 3 {
			e := &host.AuditEntry{OrgID: w.org.ID, Actor: "key:1", ActorName: "pms", Action: "coupon.create",
				Target: "coupon:1", After: json.RawMessage(`{"code":"A"}`), At: t0.Add(time.Duration(i) * time.Minute)}
			must(t, records(t, s).RecordAudit(t.Context(), e))
			ids = append(ids, e.ID)
		}
		page, err := records(t, s).AuditLog(t.Context(), w.org.ID, 0, 2)
		must(t, err)
		if len(page) != 2 || page[0].ID != ids[2] || page[1].ID != ids[1] {
			t.Fatalf("first page = %+v, want entries %d, %d", page, ids[2], ids[1])
		}
		var after map[string]string
		must(t, json.Unmarshal(page[0].After, &after))
		if after["code"] != "A" || string(page[0].Before) != "null" || !page[0].At.Equal(t0.Add(2*time.Minute)) {
			t.Errorf("entry = %+v, want after {code: A}, before null", page[0])
		}
		rest, err := records(t, s).AuditLog(t.Context(), w.org.ID, page[1].ID, 2)
		must(t, err)
		if len(rest) != 1 || rest[0].ID != ids[0] {
			t.Errorf("second page = %+v, want entry %d", rest, ids[0])
		}
	}},
	{"Host/RequestReservedOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		r := &host.Request{OrgID: w.org.ID, Key: "k", RequestHash: "h", CreatedAt: t0}
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
				_, err := records(t, s).ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
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
		must(t, records(t, s).CompleteHostRequest(t.Context(), w.org.ID, "k", 201, []byte(`{"ok":1}`), 0))
		got, err := records(t, s).ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
		wantCode(t, err, booking.CodeConflict)
		if got == nil || got.Status != 201 || string(got.Body) != `{"ok":1}` || got.RequestHash != "h" {
			t.Errorf("recorded = %+v, want status 201 and the body", got)
		}
		// Forgotten, or older than the window: the key is free again.
		must(t, records(t, s).ForgetHostRequest(t.Context(), w.org.ID, "k"))
		_, err = records(t, s).ReserveHostRequest(t.Context(), r, t0.Add(-time.Hour))
		must(t, err)
		_, err = records(t, s).ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: "k", RequestHash: "h2", CreatedAt: t0.Add(48 * time.Hour)}, t0.Add(time.Hour))
		must(t, err)
	}},
	{"Host/RequestsPurgedAfterTheirWindow", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		other := newOrg(t, s, "other")
		for _, r := range []host.Request{
			{OrgID: w.org.ID, Key: "old", RequestHash: "h", CreatedAt: t0},
			{OrgID: other.ID, Key: "old", RequestHash: "h", CreatedAt: t0.Add(time.Minute)},
			{OrgID: w.org.ID, Key: "new", RequestHash: "h", CreatedAt: t0.Add(23 * time.Hour)},
		} {
			_, err := records(t, s).ReserveHostRequest(t.Context(), &r, r.CreatedAt.Add(-time.Hour))
			must(t, err)
			must(t, records(t, s).CompleteHostRequest(t.Context(), r.OrgID, r.Key, 201, []byte(`{"ok":1}`), 0))
		}
		n, err := s.PurgeHostRequests(t.Context(), t0.Add(time.Hour))
		must(t, err)
		if n != 2 {
			t.Errorf("purged %d host requests, want the 2 older than the cut", n)
		}
		// The purged keys are gone, even for a lookup reaching back
		// before them; the newer one is kept.
		for _, org := range []int64{w.org.ID, other.ID} {
			_, err := records(t, s).ReserveHostRequest(t.Context(), &host.Request{OrgID: org, Key: "old", RequestHash: "h2", CreatedAt: t0.Add(2 * time.Hour)}, t0.Add(-48*time.Hour))
			must(t, err)
		}
		got, err := records(t, s).ReserveHostRequest(t.Context(), &host.Request{OrgID: w.org.ID, Key: "new", RequestHash: "h2", CreatedAt: t0.Add(24 * time.Hour)}, t0)
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
		list, err := records(t, s).Coupons(t.Context(), w.org.ID)
		must(t, err)
		if len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
			t.Errorf("Coupons = %+v, want ALPHA then BETA", list)
		}
		got, err := records(t, s).CouponByID(t.Context(), w.org.ID, b.ID)
		must(t, err)
		sameJSON(t, "coupon", got, b)
		other := newOrg(t, s, "other")
		_, err = records(t, s).CouponByID(t.Context(), other.ID, b.ID)
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"Host/UsersAndSessions", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		u := &host.User{OrgID: w.org.ID, Email: "ana@example.com", PasswordHash: "$argon2id$x", CreatedAt: t0}
		must(t, records(t, s).CreateHostUser(t.Context(), u))
		if u.ID == 0 {
			t.Fatal("CreateHostUser set no ID")
		}
		wantCode(t, records(t, s).CreateHostUser(t.Context(), &host.User{OrgID: w.org.ID, Email: "ana@example.com", PasswordHash: "h", CreatedAt: t0}), booking.CodeConflict)
		got, err := records(t, s).HostUserByEmail(t.Context(), "ana@example.com")
		must(t, err)
		if got.ID != u.ID || got.PasswordHash != "$argon2id$x" || got.OrgID != w.org.ID {
			t.Errorf("HostUserByEmail = %+v", got)
		}
		_, err = records(t, s).HostUserByEmail(t.Context(), "bob@example.com")
		wantCode(t, err, booking.CodeNotFound)

		must(t, records(t, s).CreateHostSession(t.Context(), &host.Session{Hash: "s1", UserID: u.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}))
		sess, user, err := records(t, s).HostSession(t.Context(), "s1", t0.Add(time.Minute))
		must(t, err)
		if sess.UserID != u.ID || user.Email != "ana@example.com" || !sess.ExpiresAt.Equal(t0.Add(time.Hour)) {
			t.Errorf("HostSession = %+v, %+v", sess, user)
		}
		_, _, err = records(t, s).HostSession(t.Context(), "s1", t0.Add(time.Hour))
		wantCode(t, err, booking.CodeNotFound) // expired
		must(t, records(t, s).DeleteHostSession(t.Context(), "s1"))
		_, _, err = records(t, s).HostSession(t.Context(), "s1", t0)
		wantCode(t, err, booking.CodeNotFound)
		wantCode(t, records(t, s).CreateHostSession(t.Context(), &host.Session{Hash: "s2", UserID: 999999, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}), booking.CodeNotFound)
	}},
}

// records is s as the store of the host's records (host.Store), which
// store/sqlite and store/postgres implement beside booking.Stores.
func records(t *testing.T, s Stores) host.Store {
	t.Helper()
	if s.Records == nil {
		t.Fatal("the store under test gave no host.Store (Stores.Records)")
	}
	return s.Records
}

// capabilityOf is the store under test as a capability's store S (notes,
// closeout, mailsettings…): Records, which a database fills.
func capabilityOf[S any](t *testing.T, s Stores) S {
	t.Helper()
	c, ok := records(t, s).(S)
	if !ok {
		var zero S
		t.Fatalf("Records (%T) is no %T", s.Records, &zero)
	}
	return c
}
