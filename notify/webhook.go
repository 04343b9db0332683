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
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/staykit/staykit/outbox"
)

// UserAgent names staykit to webhook receivers.
const UserAgent = "staykit-webhooks/1 (+https://github.com/staykit/staykit)"

// maxResponse is how much of a receiver's answer is read (and kept in the
// delivery log's error, shortened).
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
	// AllowPrivate lets endpoints be plain http and on loopback or
	// private addresses (tests, a receiver on the same machine).
	AllowPrivate bool
}

// NewWebhookClient returns a client that only posts to https endpoints on
// public addresses (unless o.AllowPrivate), checked when connecting, so a
// name that resolves to a private address or a redirect there is refused;
// it follows no redirect at all.
func NewWebhookClient(o WebhookOptions) *WebhookClient {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	if !o.AllowPrivate {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip := net.ParseIP(host)
			if ip == nil || !publicIP(ip) {
				return fmt.Errorf("webhook endpoint address %s is not public", host)
			}
			return nil
		}
	}
	transport := &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 5 * time.Second,
		ResponseHeaderTimeout: o.Timeout, MaxIdleConnsPerHost: 2, IdleConnTimeout: 30 * time.Second}
	return &WebhookClient{http: &http.Client{Transport: &schemeCheck{next: transport, allowHTTP: o.AllowPrivate},
		Timeout: o.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a receiver answers, it does not send us elsewhere
		}}}
}

// schemeCheck refuses plain http unless allowed.
type schemeCheck struct {
	next      http.RoundTripper
	allowHTTP bool
}

func (s *schemeCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != "https" && !(s.allowHTTP && r.URL.Scheme == "http") {
		return nil, fmt.Errorf("webhook endpoint must be https, not %s", r.URL.Scheme)
	}
	return s.next.RoundTrip(r)
}

func publicIP(ip net.IP) bool {
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast())
}

// ValidEndpointURL checks an endpoint's URL when it is added.
func ValidEndpointURL(raw string, allowHTTP bool) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && !(allowHTTP && u.Scheme == "http")) {
		return fmt.Errorf("webhook URL %q must be an absolute https URL", raw)
	}
	return nil
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
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("endpoint answered %d: %.200s", resp.StatusCode, answer)
	}
	return resp.StatusCode, nil
}
