package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/httpapi"
	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/payment/stripe"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/ratelimit/redislimit"
)

// config is everything the server is started with.
type config struct {
	addr           string
	dbPath         string
	postgresURL    string // set: PostgreSQL instead of the SQLite file
	redisAddr      string // set: rate limits shared through Redis (host:port or a redis:// URL)
	seedPath       string // empty: the demo seed built into the binary
	publicURL      string // empty: http://{listen address}
	trustedProxies []netip.Prefix
	serviceDomain  string
	previewDomains []string
	stripe         stripe.Config // SecretKey empty: fake payments
	// fakePayments says fake payments are intended even with -postgres,
	// where several replicas would each keep their own fake intents.
	fakePayments bool
	plantTokens  []string
	// limits override the API's rate limits; -no-rate-limits turns them
	// all off, for the load-test harness (examples/loadtest).
	limits map[string]ratelimit.Limit
	// redisTimeout bounds each rate-limited request's wait for Redis
	// (ratelimit.Breaker).
	redisTimeout time.Duration

	// maxConns and maxConnsPerAddr cap open connections, overall and per
	// client address (see limitListener).
	maxConns, maxConnsPerAddr int
	// readHeaderTimeout bounds reading a request's headers, readTimeout
	// its headers and body (at most 64 KiB on every route).
	readHeaderTimeout, readTimeout time.Duration

	// sweepEvery is how often lapsed holds are expired.
	sweepEvery time.Duration
	// shutdownTimeout bounds how long in-flight requests may take to
	// finish after SIGTERM.
	shutdownTimeout time.Duration

	// outbox delivers e-mails and webhooks (outbox.go).
	outbox outboxConfig

	// platformFee is the fee of a Stripe Connect platform
	// (stripe.ChargeType set) on its organisations' charges, applied to
	// every organisation at start; feeSet says a flag gave it.
	platformFeePercent decimal.Decimal
	platformFeeFixed   int64
	platformFeeSet     bool
}

// Defaults of the server.
const (
	defaultAddr            = "127.0.0.1:8080"
	defaultDB              = hostcli.DefaultDB
	defaultSweepEvery      = time.Minute
	defaultShutdownTimeout = 20 * time.Second
	// A request's headers must arrive within 5 s and its whole body
	// (64 KiB at most) within 10 s: a slow client cannot hold a
	// connection and its goroutine for long.
	defaultReadHeaderTimeout = 5 * time.Second
	defaultReadTimeout       = 10 * time.Second
)

// parseConfig reads the server's flags and environment.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	cfg := config{
		sweepEvery: defaultSweepEvery, shutdownTimeout: defaultShutdownTimeout,
		readHeaderTimeout: defaultReadHeaderTimeout, readTimeout: defaultReadTimeout,
	}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.addr, "addr", defaultAddr, "listen address `host:port`")
	fs.StringVar(&cfg.dbPath, "db", defaultDB, "SQLite database `file`, created and migrated if needed")
	fs.StringVar(&cfg.postgresURL, "postgres", "", "PostgreSQL `URL` to keep data in instead of -db, for several replicas (e.g. postgres://user@host/db)")
	fs.StringVar(&cfg.redisAddr, "redis", "", "Redis holding rate-limit counts shared by several replicas: `host:port` or a URL, redis://[user:password@]host:port[/db] (rediss:// for TLS)")
	fs.DurationVar(&cfg.redisTimeout, "redis-timeout", ratelimit.DefaultBreakerTimeout, "longest `wait` for Redis per rate-limited request; after 5 failures in a row Redis is skipped for 10s and requests are allowed uncounted (fail open)")
	fs.StringVar(&cfg.seedPath, "seed", "", "seed `file` loaded when the database has no organisation yet (default: the built-in demo, examples/server/demo-seed.json)")
	fs.StringVar(&cfg.publicURL, "public-url", "", "`URL` browsers reach the server at (default http://{addr}); always an allowed origin")
	proxies := fs.String("trusted-proxies", "", "comma-separated `CIDRs` of reverse proxies whose X-Forwarded-For is believed")
	fs.StringVar(&cfg.serviceDomain, "service-domain", "", "`domain` whose https subdomains are allowed origins for every organisation (e.g. staykit.app)")
	fs.BoolVar(&cfg.fakePayments, "fake-payments", false, "use fake payments with -postgres although each replica keeps its own fake intents (a single replica, a demo); without -postgres fake payments are the default when no Stripe key is set")
	fs.IntVar(&cfg.maxConns, "max-conns", defaultMaxConns, "most open client `connections`; more are closed at once")
	fs.IntVar(&cfg.maxConnsPerAddr, "max-conns-per-addr", defaultMaxConnsPerAddr, "most open `connections` from one client address (IPv6: one /64); trusted proxies are exempt")
	noLimits := fs.Bool("no-rate-limits", false, "turn the API's rate limits off (for load tests only: never in production)")
	previews := fs.String("preview-domains", "", "comma-separated `domains` whose https subdomains are allowed origins (e.g. vercel.app)")
	addOutboxFlags(fs, &cfg.outbox)
	connect := fs.String("stripe-connect", strings.TrimSpace(getenv("STRIPE_CONNECT")), "run as a Stripe Connect platform paying each organisation into its own Stripe account: `destination` or direct charges (needs the Stripe keys and STRIPE_CONNECT_WEBHOOK_SECRET; default $STRIPE_CONNECT, which the host commands read too)")
	onBehalfOf := fs.Bool("stripe-on-behalf-of", false, "with -stripe-connect destination: make the organisation's account the settlement merchant (on_behalf_of), when it settles in another country than the platform")
	keepFee := fs.Bool("stripe-keep-fee-on-refund", false, "with -stripe-connect: keep the platform fee when a charge is refunded (by default it is refunded in proportion)")
	feePercent := fs.String("platform-fee-percent", "", "with -stripe-connect: the platform's fee in `percent` of each charge, set on every organisation at start")
	fs.Int64Var(&cfg.platformFeeFixed, "platform-fee-fixed", 0, "with -stripe-connect: the platform's fixed fee per charge in `minor units` (cents), set on every organisation at start")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: server [flags]\n       server bookings|approve|decline|cancel -h\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nEnvironment: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET (Stripe instead of fake payments),\nPLANTSTORE_TOKENS (comma-separated bearer tokens of the plant store).\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		return cfg, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return cfg, errUsage
	}

	var err error
	if cfg.trustedProxies, err = parsePrefixes(*proxies); err != nil {
		return cfg, fmt.Errorf("-trusted-proxies: %w", err)
	}
	cfg.previewDomains = hostcli.SplitList(*previews)
	if cfg.redisAddr != "" {
		if _, err := redislimit.ClientOptions(cfg.redisAddr); err != nil {
			return cfg, fmt.Errorf("-redis: %w", err)
		}
	}
	if cfg.redisTimeout <= 0 {
		return cfg, fmt.Errorf("-redis-timeout %v: must be positive", cfg.redisTimeout)
	}
	if cfg.maxConns < 1 || cfg.maxConnsPerAddr < 1 || cfg.maxConnsPerAddr > cfg.maxConns {
		return cfg, fmt.Errorf("-max-conns %d and -max-conns-per-addr %d: both must be at least 1, and the second at most the first", cfg.maxConns, cfg.maxConnsPerAddr)
	}
	if *noLimits {
		cfg.limits = map[string]ratelimit.Limit{}
		for route := range httpapi.DefaultLimits() {
			cfg.limits[route] = ratelimit.Limit{}
		}
	}
	if cfg.publicURL != "" {
		if cfg.publicURL, err = originOf(cfg.publicURL); err != nil {
			return cfg, fmt.Errorf("-public-url: %w", err)
		}
	}
	cfg.stripe = stripe.Config{
		SecretKey:      strings.TrimSpace(getenv("STRIPE_SECRET_KEY")),
		PublishableKey: strings.TrimSpace(getenv("STRIPE_PUBLISHABLE_KEY")),
		WebhookSecret:  strings.TrimSpace(getenv("STRIPE_WEBHOOK_SECRET")),
	}
	if cfg.stripe.SecretKey == "" && (cfg.stripe.PublishableKey != "" || cfg.stripe.WebhookSecret != "") {
		return cfg, errors.New("STRIPE_PUBLISHABLE_KEY or STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set all three for Stripe, none for fake payments")
	}
	if cfg.stripe.SecretKey != "" && cfg.stripe.PublishableKey == "" {
		return cfg, errors.New("STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY is not: the booking page needs it for Stripe's Payment Element")
	}
	if cfg.fakePayments && cfg.stripe.SecretKey != "" {
		return cfg, errors.New("-fake-payments is given but STRIPE_SECRET_KEY is set: choose one")
	}
	if cfg.postgresURL != "" && cfg.stripe.SecretKey == "" && !cfg.fakePayments {
		return cfg, errors.New("-postgres without STRIPE_SECRET_KEY: fake payments live in one process's memory, so a guest who pays on one replica cannot be confirmed on another; set the Stripe keys, or pass -fake-payments if fake payments are intended (a single replica)")
	}
	if err := cfg.parseConnect(*connect, *onBehalfOf, *keepFee, *feePercent, getenv); err != nil {
		return cfg, err
	}
	cfg.plantTokens = hostcli.SplitList(getenv("PLANTSTORE_TOKENS"))
	if err := cfg.outbox.finish(getenv); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// storeAttrs are the log attributes naming the store in use: store=sqlite
// with its path, or store=postgres with the URL's password hidden.
func (c config) storeAttrs() []any {
	if c.postgresURL != "" {
		return []any{"store", "postgres", "url", redactPostgresURL(c.postgresURL)}
	}
	return []any{"store", "sqlite", "path", c.dbPath}
}

// redactPostgresURL hides the password of a PostgreSQL connection string,
// in URL form (postgres://user:pw@host/db, or ?password=) or key=value
// form (host=h password=pw).
func redactPostgresURL(raw string) string {
	const hidden = "xxxxx"
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		if q := u.Query(); q.Has("password") {
			q.Set("password", hidden)
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	if strings.Contains(raw, "://") {
		return "(unparsable URL, not shown)"
	}
	fields := strings.Fields(raw)
	for i, f := range fields {
		if k, _, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "password") {
			fields[i] = k + "=" + hidden
		}
	}
	return strings.Join(fields, " ")
}

// redactRedisURL hides the password of a -redis URL.
func redactRedisURL(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL, not shown)"
	}
	return u.Redacted()
}

// parsePrefixes reads comma-separated CIDRs; a bare address is a
// single-address prefix.
func parsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range hostcli.SplitList(s) {
		if !strings.Contains(item, "/") {
			a, err := netip.ParseAddr(item)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or CIDR", item)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR: %w", item, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// originOf reduces a URL to its origin (scheme://host[:port]), the form
// browsers send in the Origin header.
func originOf(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", raw)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
