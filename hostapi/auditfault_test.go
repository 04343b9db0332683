package hostapi_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/staykit/staykit/host"
)

// auditDown is a host store whose audit log cannot be written while down
// is set: RecordAudit fails after the change it records was written.
type auditDown struct {
	host.Store
	down atomic.Bool
}

func (s *auditDown) RecordAudit(ctx context.Context, e *host.AuditEntry) error {
	if s.down.Load() {
		return errors.New("audit log unavailable")
	}
	return s.Store.RecordAudit(ctx, e)
}

// TestFailedAuditKeepsNoChange: a change whose audit entry cannot be
// written is not kept either (they are written in one transaction), so
// the host API's 500 leaves nothing behind and does not burn the
// Idempotency-Key: the retry with the same key makes exactly one object,
// and its replay answers the same object.
func TestFailedAuditKeepsNoChange(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t, 1)[0]
			audit := &auditDown{Store: st.Records}
			st.Records = audit
			e := newEnv(t, []host.Stores{st})
			org := e.orgs["villa"]
			count := func(list func() (int, error)) int {
				t.Helper()
				n, err := list()
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			for _, tt := range []struct {
				what, path string
				body       map[string]any
				count      func() (int, error)
			}{
				{"property", "/properties", map[string]any{"name": "Audited", "max_guests": 2, "rates": map[string]any{"base_rate": "80"}},
					func() (int, error) { l, err := st.Properties(t.Context(), org.ID); return len(l), err }},
				{"coupon", "/coupons", map[string]any{"code": "AUDITED", "kind": "fixed", "value": "5"},
					func() (int, error) { l, err := st.Records.Coupons(t.Context(), org.ID); return len(l), err }},
				{"api key", "/api-keys", map[string]any{"name": "audited"},
					func() (int, error) { l, err := st.Records.APIKeys(t.Context(), org.ID); return len(l), err }},
				{"webhook", "/webhooks", map[string]any{"url": "https://hooks.example/audited"},
					func() (int, error) { l, err := st.WebhookEndpoints(t.Context(), org.ID); return len(l), err }},
			} {
				t.Run(tt.what, func(t *testing.T) {
					r := req{method: "POST", path: hostPath("villa", tt.path), body: tt.body,
						header: map[string]string{"Idempotency-Key": "audit-" + tt.what}}
					before := count(tt.count)

					audit.down.Store(true)
					want(t, e.do("villa", r), http.StatusInternalServerError, "internal")
					audit.down.Store(false)
					if n := count(tt.count); n != before {
						t.Fatalf("after the failed audit: %d of kind %s, want %d (the change rolled back)", n, tt.what, before)
					}

					first := e.do("villa", r)
					want(t, first, http.StatusCreated)
					if first.header.Get("Idempotent-Replayed") != "" {
						t.Fatalf("the retry was answered as a replay of the failed request: %s", first.body)
					}
					if n := count(tt.count); n != before+1 {
						t.Fatalf("after the retry: %d of kind %s, want %d: exactly one made", n, tt.what, before+1)
					}
					again := e.do("villa", r)
					want(t, again, http.StatusCreated)
					if again.header.Get("Idempotent-Replayed") != "true" || again.data(t)["id"] != first.data(t)["id"] {
						t.Errorf("second retry: replayed %q, id %v, want the replay of id %v", again.header.Get("Idempotent-Replayed"),
							again.data(t)["id"], first.data(t)["id"])
					}
					if n := count(tt.count); n != before+1 {
						t.Errorf("after the replay: %d of kind %s, want %d", n, tt.what, before+1)
					}
				})
			}
		})
	}
}
