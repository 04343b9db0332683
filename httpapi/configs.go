package httpapi

import (
	"maps"
	"sync"

	"github.com/staykit/staykit/internal/apihttp"
)

// An organisation's configuration is encoded once per change, not per
// request (issue #31): the last view answered and its encoded body are
// kept per organisation, and a request whose view equals the kept one is
// answered with the kept bytes and ETag. Comparing the view rather than
// a version of the store's entries needs no read model and cannot serve
// a body that differs from the view: the body is the view's encoding.

// configs keeps each organisation's last configuration. The zero configs
// is ready. It holds one body per organisation the server answered for.
type configs struct {
	mu    sync.Mutex
	byOrg map[int64]keptConfig
}

// keptConfig is a view and its encoded body.
type keptConfig struct {
	view configView
	b    *keptBody
}

// body returns the encoded body of v for organisation org, encoding and
// keeping it when the kept view differs.
func (c *configs) body(org int64, v configView) (*keptBody, error) {
	c.mu.Lock()
	k, ok := c.byOrg[org]
	c.mu.Unlock()
	if ok && k.view.equal(v) {
		return k.b, nil
	}
	body, err := apihttp.EncodeData(v)
	if err != nil {
		return nil, err
	}
	b := &keptBody{body: body, etag: etagOf(body)}
	c.mu.Lock()
	if c.byOrg == nil {
		c.byOrg = map[int64]keptConfig{}
	}
	c.byOrg[org] = keptConfig{view: v, b: b}
	c.mu.Unlock()
	return b, nil
}

// equal reports whether v and w encode the same.
func (v configView) equal(w configView) bool {
	a, b := v.Config, w.Config
	return v.Organization.Name == w.Organization.Name && v.Organization.Slug == w.Organization.Slug &&
		equalPtr(v.Organization.Logo, w.Organization.Logo) &&
		a.PaymentMode == b.PaymentMode && a.DefaultLocale == b.DefaultLocale &&
		maps.Equal(a.Branding, b.Branding) && (a.Branding == nil) == (b.Branding == nil) &&
		equalPtr(a.TermsURL, b.TermsURL) && equalPtr(a.MinStayNights, b.MinStayNights) &&
		equalPtr(a.MaxStayNights, b.MaxStayNights) && a.Currency == b.Currency && a.Timezone == b.Timezone &&
		a.Country == b.Country && a.BookingHorizonDays == b.BookingHorizonDays &&
		v.PaymentPublicKey == w.PaymentPublicKey && v.PaymentsReady == w.PaymentsReady &&
		v.PaymentAccount == w.PaymentAccount
}

// equalPtr reports whether two optional values are both absent or equal.
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
