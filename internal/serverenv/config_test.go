package serverenv_test

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/internal/serverenv"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		check   func(t *testing.T, c serverenv.Config)
		wantErr string
	}{
		{name: "defaults", check: func(t *testing.T, c serverenv.Config) {
			got := []any{c.Addr, c.DBPath, c.SeedPath, c.PublicURL, c.Stripe.SecretKey, len(c.PlantTokens), c.SweepEvery}
			if want := []any{"127.0.0.1:8080", "staykit.db", "", "", "", 0, time.Minute}; !reflect.DeepEqual(got, want) {
				t.Errorf("defaults = %v, want %v", got, want)
			}
		}},
		{name: "flags", args: []string{"-addr", ":9000", "-db", "x.db", "-seed", "my.json", "-public-url", "https://Book.Example.com/path",
			"-trusted-proxies", "10.0.0.0/8, 192.168.1.7,fd00::/8", "-service-domain", "staykit.app", "-preview-domains", "vercel.app,netlify.app"},
			check: func(t *testing.T, c serverenv.Config) {
				want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"), netip.MustParsePrefix("fd00::/8")}
				got := []any{c.Addr, c.DBPath, c.SeedPath, c.PublicURL, c.TrustedProxies, c.ServiceDomain, c.PreviewDomains}
				if w := []any{":9000", "x.db", "my.json", "https://book.example.com", want, "staykit.app", []string{"vercel.app", "netlify.app"}}; !reflect.DeepEqual(got, w) {
					t.Errorf("config = %v, want %v", got, w)
				}
			}},
		{name: "environment", env: map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1", "PLANTSTORE_TOKENS": "a,,b"},
			check: func(t *testing.T, c serverenv.Config) {
				got := []any{c.Stripe.SecretKey, c.Stripe.PublishableKey, c.Stripe.WebhookSecret, c.PlantTokens}
				if want := []any{"sk_test_1", "pk_test_1", "whsec_1", []string{"a", "b"}}; !reflect.DeepEqual(got, want) {
					t.Errorf("config = %v, want %v", got, want)
				}
			}},
		{name: "bad proxy", args: []string{"-trusted-proxies", "10.0.0.0/33"}, wantErr: "-trusted-proxies"},
		{name: "bad public URL", args: []string{"-public-url", "ftp://x"}, wantErr: "-public-url"},
		{name: "unknown flag", args: []string{"-port", "80"}, wantErr: "usage"},
		{name: "stray argument", args: []string{"serve"}, wantErr: "usage"},
		{name: "Stripe keys without the secret", env: map[string]string{"STRIPE_PUBLISHABLE_KEY": "pk_test_1"}, wantErr: "STRIPE_SECRET_KEY is not"},
		{name: "Stripe secret without the publishable key", env: map[string]string{"STRIPE_SECRET_KEY": "sk_test_1"}, wantErr: "STRIPE_PUBLISHABLE_KEY is not"},
		{name: "postgres without Stripe keys", args: []string{"-postgres", "postgres://u@db/x"}, wantErr: "pass -fake-payments if fake payments are intended"},
		{name: "postgres with -fake-payments", args: []string{"-postgres", "postgres://u@db/x", "-fake-payments"},
			check: func(t *testing.T, c serverenv.Config) {
				if !c.FakePayments || c.PostgresURL != "postgres://u@db/x" {
					t.Errorf("config = %+v, want fake payments on postgres", c)
				}
			}},
		{name: "postgres with Stripe", args: []string{"-postgres", "postgres://u@db/x"},
			env: map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1"},
			check: func(t *testing.T, c serverenv.Config) {
				if c.FakePayments || c.Stripe.SecretKey != "sk_test_1" {
					t.Errorf("config = %+v, want Stripe on postgres", c)
				}
			}},
		{name: "connection caps", args: []string{"-max-conns", "200", "-max-conns-per-addr", "10"},
			check: func(t *testing.T, c serverenv.Config) {
				if c.MaxConns != 200 || c.MaxConnsPerAddr != 10 {
					t.Errorf("caps = %d, %d; want 200, 10", c.MaxConns, c.MaxConnsPerAddr)
				}
			}},
		{name: "per-address cap above the total", args: []string{"-max-conns", "10", "-max-conns-per-addr", "20"}, wantErr: "-max-conns-per-addr"},
		{name: "zero cap", args: []string{"-max-conns", "0"}, wantErr: "-max-conns"},
		{name: "-fake-payments with Stripe keys", args: []string{"-fake-payments"},
			env: map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1"}, wantErr: "choose one"},
		{name: "-outbox-every accepted and ignored", args: []string{"-outbox-every", "1h"}, check: func(t *testing.T, c serverenv.Config) {
			if c.SweepEvery != time.Minute {
				t.Errorf("SweepEvery = %v, want the default", c.SweepEvery)
			}
		}},
		{name: "no rate limits", args: []string{"-no-rate-limits"}, check: func(t *testing.T, c serverenv.Config) {
			if c.HostKeyRequests != hostapi.NoLimit || !c.Limits[httpapi.RouteCheckout].IsZero() {
				t.Errorf("host key limit %v, checkout %v; want both off", c.HostKeyRequests, c.Limits[httpapi.RouteCheckout])
			}
		}},
		{name: "redis address", args: []string{"-redis", "cache:6379"}, check: func(t *testing.T, c serverenv.Config) {
			if c.RedisAddr != "cache:6379" || c.RedisTimeout != 50*time.Millisecond {
				t.Errorf("redis %q timeout %v, want cache:6379 and 50ms", c.RedisAddr, c.RedisTimeout)
			}
		}},
		{name: "redis URL", args: []string{"-redis", "rediss://app:s3cret@cache:6380/2", "-redis-timeout", "30ms"}, check: func(t *testing.T, c serverenv.Config) {
			if c.RedisAddr != "rediss://app:s3cret@cache:6380/2" || c.RedisTimeout != 30*time.Millisecond {
				t.Errorf("redis %q timeout %v", c.RedisAddr, c.RedisTimeout)
			}
		}},
		{name: "redis without port", args: []string{"-redis", "cache"}, wantErr: "-redis"},
		{name: "redis URL with a bad database", args: []string{"-redis", "redis://app:s3cret@cache:6379/x"}, wantErr: "redis://app:xxxxx@cache:6379/x"},
		{name: "redis timeout zero", args: []string{"-redis", "cache:6379", "-redis-timeout", "0s"}, wantErr: "-redis-timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := serverenv.Parse(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestStoreAttrsHidePostgresPasswords(t *testing.T) {
	tests := []struct {
		name string
		cfg  serverenv.Config
		want string
	}{
		{"SQLite", serverenv.Config{DBPath: "/var/lib/staykit.db"}, "[store sqlite path /var/lib/staykit.db]"},
		{"URLWithPassword", serverenv.Config{DBPath: "staykit.db", PostgresURL: "postgres://app:s3cret@db:5432/staykit?sslmode=require"},
			"[store postgres url postgres://app:xxxxx@db:5432/staykit?sslmode=require]"},
		{"PasswordParameter", serverenv.Config{PostgresURL: "postgresql://app@db/staykit?password=s3cret"},
			"[store postgres url postgresql://app@db/staykit?password=xxxxx]"},
		{"NoPassword", serverenv.Config{PostgresURL: "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"},
			"[store postgres url postgres://postgres@127.0.0.1:5432/test?sslmode=disable]"},
		{"KeyValue", serverenv.Config{PostgresURL: "host=db user=app password=s3cret dbname=staykit"},
			"[store postgres url host=db user=app password=xxxxx dbname=staykit]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprint(tt.cfg.StoreAttrs())
			if got != tt.want || strings.Contains(got, "s3cret") {
				t.Errorf("storeAttrs = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestURLsAndOrigins(t *testing.T) {
	tests := []struct {
		name       string
		publicURL  string
		addr       string
		wantPublic string
		want       []string
	}{
		{"loopback", "", "127.0.0.1:8080", "http://127.0.0.1:8080", []string{"http://127.0.0.1:8080", "http://localhost:8080"}},
		{"all interfaces", "", "0.0.0.0:8080", "http://localhost:8080", []string{"http://localhost:8080", "http://127.0.0.1:8080"}},
		{"behind a proxy", "https://book.example.com", "10.1.2.3:8080", "https://book.example.com", []string{"https://book.example.com", "http://10.1.2.3:8080"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ap := netip.MustParseAddrPort(tt.addr)
			public, origins := serverenv.Config{PublicURL: tt.publicURL}.URLs(net.TCPAddrFromAddrPort(ap))
			if public != tt.wantPublic || !reflect.DeepEqual(origins, tt.want) {
				t.Errorf("urls = %q %v, want %q %v", public, origins, tt.wantPublic, tt.want)
			}
		})
	}
}

func TestConnectFlags(t *testing.T) {
	keys := map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_PUBLISHABLE_KEY": "pk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1"}
	withConnect := map[string]string{"STRIPE_CONNECT_WEBHOOK_SECRET": "whsec_c"}
	for k, v := range keys {
		withConnect[k] = v
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{"single account by default", nil, keys, ""},
		{"fee without connect", []string{"-platform-fee-percent", "5"}, keys, "need -stripe-connect"},
		{"unknown charge type", []string{"-stripe-connect", "separate"}, withConnect, "want destination or direct"},
		{"connect without keys", []string{"-stripe-connect", "direct"}, nil, "needs STRIPE_SECRET_KEY"},
		{"connect without its webhook secret", []string{"-stripe-connect", "direct"}, keys, "STRIPE_CONNECT_WEBHOOK_SECRET"},
		{"on_behalf_of with direct", []string{"-stripe-connect", "direct", "-stripe-on-behalf-of"}, withConnect, "destination only"},
		{"fee out of range", []string{"-stripe-connect", "destination", "-platform-fee-percent", "120"}, withConnect, "from 0 to 100"},
		{"destination with fee", []string{"-stripe-connect", "destination", "-stripe-on-behalf-of", "-platform-fee-percent", "2.5", "-platform-fee-fixed", "30"}, withConnect, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := serverenv.Parse(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want one with %q", err, tt.wantErr)
			}
			if tt.name == "destination with fee" && (c.Stripe.ChargeType != "destination" || !c.Stripe.OnBehalfOf ||
				c.Stripe.ConnectWebhookSecret != "whsec_c" || c.PlatformFeePercent.String() != "2.5" || c.PlatformFeeFixed != 30) {
				t.Errorf("config = %+v", c)
			}
			if tt.name == "single account by default" && c.Stripe.ChargeType != "" {
				t.Errorf("charge type = %q, want none", c.Stripe.ChargeType)
			}
		})
	}
}

func TestDefaultReadTimeouts(t *testing.T) {
	c, err := serverenv.Parse(nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.ReadTimeout > 10*time.Second || c.ReadHeaderTimeout > 5*time.Second || c.ReadTimeout <= c.ReadHeaderTimeout {
		t.Errorf("read timeouts = header %v, request %v; want header ≤ 5 s < request ≤ 10 s", c.ReadHeaderTimeout, c.ReadTimeout)
	}
	if c.MaxConns != serverenv.DefaultMaxConns || c.MaxConnsPerAddr != serverenv.DefaultMaxConnsPerAddr || c.MaxConnsPerAddr >= c.MaxConns {
		t.Errorf("connection caps = %d overall, %d per address; want the defaults", c.MaxConns, c.MaxConnsPerAddr)
	}
}

// TestUnreachableRedisHidesThePassword: a server whose Redis does not
// answer does not start, and says so without the URL's password.
func TestUnreachableRedisHidesThePassword(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	cfg, err := serverenv.Parse([]string{"-db", filepath.Join(t.TempDir(), "s.db"), "-redis", "redis://app:s3cret@" + addr + "/1"},
		func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = serverenv.Open(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "reach redis at redis://app:xxxxx@"+addr+"/1") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("err = %v, want it to name Redis without the password", err)
	}
}
