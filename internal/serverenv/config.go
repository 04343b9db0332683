// Package serverenv is the environment a staykit server runs in: its
// configuration, read from flags and the environment (Parse), and the
// backends that configuration names, opened in one place (Open): the
// booking store (a SQLite file by default, PostgreSQL with -postgres),
// the plant store, the rate limiter (in memory, or Redis shared by
// replicas), the read model over the store, the payment provider (the
// in-memory fake, Stripe, or Stripe as a Connect platform), the mailer
// and the outbound policy of calendar feeds and webhooks.
//
// examples/server serves with it and cmd/staykit, the host's command line,
// opens the same database the same way (Opener), so that a command acts
// as the server would.
package serverenv

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

	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/httpapi"
	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/payment/stripe"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/ratelimit/redislimit"
)

// Config is everything a server is started with. Parse fills it from
// flags and the environment; its zero value is not meant to be used.
type Config struct {
	Addr        string // listen address (-addr)
	DBPath      string // the SQLite file (-db)
	PostgresURL string // set: PostgreSQL instead of the SQLite file (-postgres)
	RedisAddr   string // set: rate limits shared through Redis (host:port or a redis:// URL)
	SeedPath    string // empty: the server's built-in demo seed
	PublicURL   string // empty: http://{listen address}
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed.
	TrustedProxies []netip.Prefix
	// ServiceDomain and PreviewDomains: their https subdomains are
	// allowed origins for every organisation.
	ServiceDomain  string
	PreviewDomains []string
	Stripe         stripe.Config // SecretKey empty: fake payments
	// FakePayments says fake payments are intended even with -postgres,
	// where several replicas would each keep their own fake intents.
	FakePayments bool
	PlantTokens  []string // bearer tokens of the plant store
	// HostKeyRequests is the host API's limit per credential
	// (hostapi.Options.KeyRequests): zero, its default; -no-rate-limits
	// makes it hostapi.NoLimit.
	HostKeyRequests ratelimit.Limit
	// Limits override the API's rate limits; -no-rate-limits turns them
	// all off, for the load-test harness (examples/loadtest).
	Limits map[string]ratelimit.Limit
	// RedisTimeout bounds each rate-limited request's wait for Redis
	// (ratelimit.Breaker).
	RedisTimeout time.Duration

	// MaxConns and MaxConnsPerAddr cap open connections, overall and per
	// client address.
	MaxConns, MaxConnsPerAddr int
	// ReadHeaderTimeout bounds reading a request's headers, ReadTimeout
	// its headers and body (at most 64 KiB on every route).
	ReadHeaderTimeout, ReadTimeout time.Duration

	// SweepEvery is how often lapsed holds are expired.
	SweepEvery time.Duration
	// ShutdownTimeout bounds how long in-flight requests may take to
	// finish after SIGTERM.
	ShutdownTimeout time.Duration

	// Outbox is how e-mails and webhooks are delivered.
	Outbox Outbox

	// PlatformFeePercent and PlatformFeeFixed are the fee of a Stripe
	// Connect platform (Stripe.ChargeType set) on its organisations'
	// charges, applied to every organisation at start (ApplyPlatformFee);
	// PlatformFeeSet says a flag gave it.
	PlatformFeePercent decimal.Decimal
	PlatformFeeFixed   int64
	PlatformFeeSet     bool
}

// Defaults of the server.
const (
	DefaultAddr            = "127.0.0.1:8080"
	DefaultDB              = hostcli.DefaultDB
	DefaultSweepEvery      = time.Minute
	DefaultShutdownTimeout = 20 * time.Second
	// A request's headers must arrive within 5 s and its whole body
	// (64 KiB at most) within 10 s: a slow client cannot hold a
	// connection and its goroutine for long.
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 10 * time.Second
)

// Connection limits. Every open connection costs a file descriptor and
// some memory whether or not it ever sends a request, so without a cap
// one client opening tens of thousands of slow connections exhausts the
// process's open-file limit and normal requests time out.
//
// 1024 overall keeps the server well inside the usual file limits, with
// room for the database and outgoing calls (Stripe, Redis), while being
// far more than a booking page needs: a browser opens at most 6
// connections to a host. 64 per client address leaves room for about ten
// browsers behind one NAT (an office, a hotel) and keeps a single client
// at 1/16 of the total.
const (
	DefaultMaxConns        = 1024
	DefaultMaxConnsPerAddr = 64
)

// ErrUsage is returned, after the flag package printed why, for bad flags.
var ErrUsage = hostcli.ErrUsage

// Parse reads the server's flags (args, without the program name) and
// environment (getenv); the flag package writes usage and errors to
// stderr. A bad flag is ErrUsage, -h flag.ErrHelp, a bad combination an
// error saying which.
func Parse(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	cfg := Config{
		SweepEvery: DefaultSweepEvery, ShutdownTimeout: DefaultShutdownTimeout,
		ReadHeaderTimeout: DefaultReadHeaderTimeout, ReadTimeout: DefaultReadTimeout,
	}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", DefaultAddr, "listen address `host:port`")
	fs.StringVar(&cfg.DBPath, "db", DefaultDB, "SQLite database `file`, created and migrated if needed")
	fs.StringVar(&cfg.PostgresURL, "postgres", "", "PostgreSQL `URL` to keep data in instead of -db, for several replicas (e.g. postgres://user@host/db)")
	fs.StringVar(&cfg.RedisAddr, "redis", "", "Redis holding rate-limit counts shared by several replicas: `host:port` or a URL, redis://[user:password@]host:port[/db] (rediss:// for TLS)")
	fs.DurationVar(&cfg.RedisTimeout, "redis-timeout", ratelimit.DefaultBreakerTimeout, "longest `wait` for Redis per rate-limited request; after 5 failures in a row Redis is skipped for 10s and requests are allowed uncounted (fail open)")
	fs.StringVar(&cfg.SeedPath, "seed", "", "seed `file` loaded when the database has no organisation yet (default: the built-in demo, examples/server/demo-seed.json)")
	fs.StringVar(&cfg.PublicURL, "public-url", "", "`URL` browsers reach the server at (default http://{addr}); always an allowed origin")
	proxies := fs.String("trusted-proxies", "", "comma-separated `CIDRs` of reverse proxies whose X-Forwarded-For is believed")
	fs.StringVar(&cfg.ServiceDomain, "service-domain", "", "`domain` whose https subdomains are allowed origins for every organisation (e.g. staykit.app)")
	fs.BoolVar(&cfg.FakePayments, "fake-payments", false, "use fake payments with -postgres although each replica keeps its own fake intents (a single replica, a demo); without -postgres fake payments are the default when no Stripe key is set")
	fs.IntVar(&cfg.MaxConns, "max-conns", DefaultMaxConns, "most open client `connections`; more are closed at once")
	fs.IntVar(&cfg.MaxConnsPerAddr, "max-conns-per-addr", DefaultMaxConnsPerAddr, "most open `connections` from one client address (IPv6: one /64); trusted proxies are exempt")
	noLimits := fs.Bool("no-rate-limits", false, "turn the API's rate limits off (for load tests only: never in production)")
	previews := fs.String("preview-domains", "", "comma-separated `domains` whose https subdomains are allowed origins (e.g. vercel.app)")
	cfg.Outbox.addFlags(fs)
	connect := fs.String("stripe-connect", strings.TrimSpace(getenv("STRIPE_CONNECT")), "run as a Stripe Connect platform paying each organisation into its own Stripe account: `destination` or direct charges (needs the Stripe keys and STRIPE_CONNECT_WEBHOOK_SECRET; default $STRIPE_CONNECT, which the host commands read too)")
	onBehalfOf := fs.Bool("stripe-on-behalf-of", false, "with -stripe-connect destination: make the organisation's account the settlement merchant (on_behalf_of), when it settles in another country than the platform")
	keepFee := fs.Bool("stripe-keep-fee-on-refund", false, "with -stripe-connect: keep the platform fee when a charge is refunded (by default it is refunded in proportion)")
	feePercent := fs.String("platform-fee-percent", "", "with -stripe-connect: the platform's fee in `percent` of each charge, set on every organisation at start")
	fs.Int64Var(&cfg.PlatformFeeFixed, "platform-fee-fixed", 0, "with -stripe-connect: the platform's fixed fee per charge in `minor units` (cents), set on every organisation at start")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: server [flags]\n       server bookings|approve|decline|cancel -h\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nEnvironment: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET (Stripe instead of fake payments),\nPLANTSTORE_TOKENS (comma-separated bearer tokens of the plant store).\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		return cfg, ErrUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return cfg, ErrUsage
	}

	var err error
	if cfg.TrustedProxies, err = ParsePrefixes(*proxies); err != nil {
		return cfg, fmt.Errorf("-trusted-proxies: %w", err)
	}
	cfg.PreviewDomains = hostcli.SplitList(*previews)
	if cfg.RedisAddr != "" {
		if _, err := redislimit.ClientOptions(cfg.RedisAddr); err != nil {
			return cfg, fmt.Errorf("-redis: %w", err)
		}
	}
	if cfg.RedisTimeout <= 0 {
		return cfg, fmt.Errorf("-redis-timeout %v: must be positive", cfg.RedisTimeout)
	}
	if cfg.MaxConns < 1 || cfg.MaxConnsPerAddr < 1 || cfg.MaxConnsPerAddr > cfg.MaxConns {
		return cfg, fmt.Errorf("-max-conns %d and -max-conns-per-addr %d: both must be at least 1, and the second at most the first", cfg.MaxConns, cfg.MaxConnsPerAddr)
	}
	if *noLimits {
		cfg.Limits = map[string]ratelimit.Limit{}
		for route := range httpapi.DefaultLimits() {
			cfg.Limits[route] = ratelimit.Limit{}
		}
		cfg.HostKeyRequests = hostapi.NoLimit
	}
	if cfg.PublicURL != "" {
		if cfg.PublicURL, err = OriginOf(cfg.PublicURL); err != nil {
			return cfg, fmt.Errorf("-public-url: %w", err)
		}
	}
	cfg.Stripe = stripe.Config{
		SecretKey:      strings.TrimSpace(getenv("STRIPE_SECRET_KEY")),
		PublishableKey: strings.TrimSpace(getenv("STRIPE_PUBLISHABLE_KEY")),
		WebhookSecret:  strings.TrimSpace(getenv("STRIPE_WEBHOOK_SECRET")),
	}
	if cfg.Stripe.SecretKey == "" && (cfg.Stripe.PublishableKey != "" || cfg.Stripe.WebhookSecret != "") {
		return cfg, errors.New("STRIPE_PUBLISHABLE_KEY or STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set all three for Stripe, none for fake payments")
	}
	if cfg.Stripe.SecretKey != "" && cfg.Stripe.PublishableKey == "" {
		return cfg, errors.New("STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY is not: the booking page needs it for Stripe's Payment Element")
	}
	if cfg.FakePayments && cfg.Stripe.SecretKey != "" {
		return cfg, errors.New("-fake-payments is given but STRIPE_SECRET_KEY is set: choose one")
	}
	if cfg.PostgresURL != "" && cfg.Stripe.SecretKey == "" && !cfg.FakePayments {
		return cfg, errors.New("-postgres without STRIPE_SECRET_KEY: fake payments live in one process's memory, so a guest who pays on one replica cannot be confirmed on another; set the Stripe keys, or pass -fake-payments if fake payments are intended (a single replica)")
	}
	if err := cfg.parseConnect(*connect, *onBehalfOf, *keepFee, *feePercent, getenv); err != nil {
		return cfg, err
	}
	cfg.PlantTokens = hostcli.SplitList(getenv("PLANTSTORE_TOKENS"))
	if err := cfg.Outbox.finish(getenv); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// StoreAttrs are the log attributes naming the store in use: store=sqlite
// with its path, or store=postgres with the URL's password hidden.
func (c Config) StoreAttrs() []any {
	if c.PostgresURL != "" {
		return []any{"store", "postgres", "url", RedactPostgresURL(c.PostgresURL)}
	}
	return []any{"store", "sqlite", "path", c.DBPath}
}

// RedactPostgresURL hides the password of a PostgreSQL connection string,
// in URL form (postgres://user:pw@host/db, or ?password=) or key=value
// form (host=h password=pw).
func RedactPostgresURL(raw string) string {
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

// ParsePrefixes reads comma-separated CIDRs; a bare address is a
// single-address prefix.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
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

// OriginOf reduces a URL to its origin (scheme://host[:port]), the form
// browsers send in the Origin header.
func OriginOf(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", raw)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
