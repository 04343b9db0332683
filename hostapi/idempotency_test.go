package hostapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// replaysWithoutSecret sends r twice with one Idempotency-Key and checks
// that the first answer has the secret in field, the replay the same
// answer with field null, and that the request record the store keeps
// for the replay never holds the secret.
func replaysWithoutSecret(t *testing.T, e *env, org string, r req, field string) map[string]any {
	t.Helper()
	key := "retry-" + strings.NewReplacer("/", "-", "{", "", "}", "").Replace(r.path)
	r.header = map[string]string{"Idempotency-Key": key}
	first := e.do(org, r)
	if first.status >= 300 {
		t.Fatalf("%s %s: %d %s", r.method, r.path, first.status, first.body)
	}
	secret, _ := first.data(t)[field].(string)
	if secret == "" {
		t.Fatalf("%s %s: no %s in the first answer: %s", r.method, r.path, field, first.body)
	}
	again := e.do(org, r)
	if again.status != first.status || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay of %s %s: %d (replayed %q), want %d replayed", r.method, r.path, again.status,
			again.header.Get("Idempotent-Replayed"), first.status)
	}
	if strings.Contains(string(again.body), secret) {
		t.Errorf("replay of %s %s holds the secret: %s", r.method, r.path, again.body)
	}
	d := again.data(t)
	if v, ok := d[field]; !ok || v != nil {
		t.Errorf("replay of %s %s: %s = %v, want null", r.method, r.path, field, v)
	}
	if d["id"] != first.data(t)["id"] {
		t.Errorf("replay of %s %s: id %v, want the first answer's %v", r.method, r.path, d["id"], first.data(t)["id"])
	}
	// What the store keeps to replay.
	now := e.clock.Now()
	stored, err := e.replicas[0].store.Records.ReserveHostRequest(t.Context(), &host.Request{OrgID: e.orgs[org].ID, Key: key,
		RequestHash: "probe", CreatedAt: now}, now.Add(-hostapi.IdempotencyWindow))
	if booking.ErrorCode(err) != booking.CodeConflict || stored == nil {
		t.Fatalf("stored request of %s %s: %v", r.method, r.path, err)
	}
	if strings.Contains(string(stored.Body), secret) {
		t.Errorf("the store keeps the secret of %s %s: %s", r.method, r.path, stored.Body)
	}
	return first.data(t)
}

// TestIdempotentReplayHoldsNoSecret: answers that carry a secret (a new
// API key, a webhook's signing secret, a rotated export URL) are stored
// without it, and a retry with the same Idempotency-Key gets the answer
// with the secret null.
func TestIdempotentReplayHoldsNoSecret(t *testing.T) {
	forEachChannelStore(t, func(t *testing.T, e *env) {
		replaysWithoutSecret(t, e, "villa", req{method: "POST", path: hostPath("villa", "/api-keys"), body: map[string]any{"name": "pms"}}, "key")
		srv := httptest.NewServer(http.NotFoundHandler())
		t.Cleanup(srv.Close)
		hook := replaysWithoutSecret(t, e, "villa", req{method: "POST", path: hostPath("villa", "/webhooks"), body: map[string]any{"url": srv.URL}}, "secret")
		replaysWithoutSecret(t, e, "villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/webhooks/%v/rotate-secret", hook["id"]))}, "secret")
		replaysWithoutSecret(t, e, "villa", req{method: "POST", path: hostPath("villa", fmt.Sprintf("/properties/%d/ical/rotate", e.props["soleil"]))}, "url")
	})
}

// TestIdempotentReplayHoldsNoOnboardingLink: a Stripe onboarding link
// opens the account's onboarding to whoever has it: not stored either.
func TestIdempotentReplayHoldsNoOnboardingLink(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1), func(o *booking.Options) {
		o.Connect = paymenttest.NewPlatform(o.Payments.(*paymenttest.Provider), payment.ChargeDestination)
	})
	replaysWithoutSecret(t, e, "villa", req{method: "POST", path: hostPath("villa", "/stripe/onboarding"),
		body: map[string]string{"return_url": "https://host.test/done", "refresh_url": "https://host.test/again"}}, "url")
}
