package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
)

// UserAgent names staykit to webhook receivers.
const UserAgent = "staykit-webhooks/1 (+https://github.com/staykit/staykit)"

// maxResponse is how much of a receiver's answer is read (and kept in the
// delivery log's error, shortened, when the receiver is public).
const maxResponse = 64 << 10

// Sign returns the Standard Webhooks signature header value of a payload:
// "v1," + base64(HMAC-SHA256(key, id + "." + timestamp + "." + body)), the
// key being the base64 part of a "whsec_" secret.
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not whsec_ + base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, ts.Unix())
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// WebhookClient posts signed events to endpoints. The zero value is not
// usable; build it with NewWebhookClient.
type WebhookClient struct {
	http *http.Client
}

// WebhookOptions configure a WebhookClient.
type WebhookOptions struct {
	// Timeout bounds one delivery; 0 means 10 seconds.
	Timeout time.Duration
	// Policy is where endpoints may be; the zero Policy: https endpoints
	// on public addresses only. The reference server's
	// -webhooks-allow-private is Policy.AllowPrivate (plain http, loopback
	// and private addresses: receivers on the same machine or LAN).
	Policy outbound.Policy
}

// NewWebhookClient returns a client that posts to endpoints as o.Policy
// allows, checked when connecting (package outbound), so a name that
// resolves to a private address is refused; it follows no redirect at
// all.
func NewWebhookClient(o WebhookOptions) *WebhookClient {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	return &WebhookClient{http: o.Policy.Client(outbound.ClientOptions{Timeout: o.Timeout,
		ResponseHeaderTimeout: o.Timeout, KeepAlive: true})}
}

// ValidEndpointURL checks an endpoint's URL when it is added: absolute,
// and https unless policy allows plain http to its host and port.
// Errors: a *outbound.Refusal for a URL the policy refuses.
func ValidEndpointURL(raw string, policy outbound.Policy) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("webhook URL %q must be an absolute https URL", raw)
	}
	return policy.CheckURL(raw)
}

// errPermanent marks an attempt not worth retrying.
var errPermanent = errors.New("permanent")

// Post sends one signed event. It returns the receiver's status (0 when
// none came) and an error unless it answered 2xx.
func (c *WebhookClient) Post(ctx context.Context, ep outbox.Endpoint, id string, at time.Time, body []byte) (int, error) {
	sig, err := Sign(ep.Secret, id, at, body)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errPermanent, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	// The delivery log shows the start of a failed answer, to help the
	// host fix a receiver, but only a public one's: an address the
	// operator allowed (a service on the LAN) keeps its answers.
	var public atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { public.Store(outbound.Public(info.Conn.RemoteAddr())) }}))
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	switch {
	case resp.StatusCode/100 == 2:
		return resp.StatusCode, nil
	case !public.Load():
		return resp.StatusCode, fmt.Errorf("endpoint answered %d (the answer of an endpoint on a private address is not kept)", resp.StatusCode)
	}
	return resp.StatusCode, fmt.Errorf("endpoint answered %d: %.200s", resp.StatusCode, answer)
}
