// Package testenv finds the external services that gated test suites need
// (PostgreSQL, Redis, stripe-mock, Chromium), so that every suite finds
// them the same way and none skips silently:
//
//   - the service's variable (STAYKIT_TEST_POSTGRES_URL,
//     STAYKIT_TEST_REDIS_ADDR, STAYKIT_TEST_STRIPE_MOCK_URL,
//     STAYKIT_TEST_CHROMIUM) wins when set, and is used as is;
//   - else the usual local address is tried, with a short connect timeout
//     (chromium on the PATH for the browser);
//   - when neither answers the test is skipped, naming the variable, unless
//     STAYKIT_TEST_REQUIRE_SERVICES=1, in which case it fails: CI sets it,
//     so a missing service can never pass for a green run.
package testenv

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"time"
)

// RequireVar is the variable that turns an absent service from a skip into
// a failure when it is "1".
const RequireVar = "STAYKIT_TEST_REQUIRE_SERVICES"

// Variables naming each service, and the usual local addresses tried when
// they are unset.
const (
	PostgresVar       = "STAYKIT_TEST_POSTGRES_URL"
	RedisVar          = "STAYKIT_TEST_REDIS_ADDR"
	StripeMockVar     = "STAYKIT_TEST_STRIPE_MOCK_URL"
	ChromiumVar       = "STAYKIT_TEST_CHROMIUM"
	DefaultPostgres   = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	DefaultRedis      = "127.0.0.1:6379"
	DefaultStripeMock = "http://127.0.0.1:12111"
	DefaultChromium   = "chromium"
)

// dialTimeout bounds the connection attempt to a usual local address:
// local services answer in well under it, absent ones are refused at once.
const dialTimeout = time.Second

// TB is the part of testing.TB the helpers use; *testing.T and *testing.B
// have it.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// PostgresURL returns the PostgreSQL URL the tests may use.
func PostgresURL(t TB) string {
	t.Helper()
	return lookup(t, PostgresVar, DefaultPostgres, "PostgreSQL", func(u string) bool { return dialURL(u, "5432") })
}

// RedisAddr returns the address of the Redis the tests may use.
func RedisAddr(t TB) string {
	t.Helper()
	return lookup(t, RedisVar, DefaultRedis, "Redis", dial)
}

// StripeMockURL returns the URL of the stripe-mock the tests may use
// (start one with .ci/stripe-mock.sh).
func StripeMockURL(t TB) string {
	t.Helper()
	return lookup(t, StripeMockVar, DefaultStripeMock, "stripe-mock", func(u string) bool { return dialURL(u, "80") })
}

// Chromium returns the path of the Chromium the browser tests may drive.
func Chromium(t TB) string {
	t.Helper()
	return lookup(t, ChromiumVar, DefaultChromium, "Chromium", nil)
}

// Program returns the path of a command-line program the tests run (say
// "pdftotext" of poppler-utils) found on the PATH; without it t skips, or
// fails when RequireVar is "1" (.ci/run installs every one).
func Program(t TB, name string) string {
	t.Helper()
	if path, err := exec.LookPath(name); err == nil {
		return path
	}
	absent(t, fmt.Sprintf("the program %s is absent from the PATH", name))
	return ""
}

// lookup returns the value of variable env when set; else def when present
// reports it answers (or, with a nil present, when def is a program found
// on the PATH, whose path it returns); else it skips t, or fails it when
// RequireVar is "1", and returns "".
func lookup(t TB, env, def, service string, present func(string) bool) string {
	t.Helper()
	if v := os.Getenv(env); v != "" {
		return v
	}
	if present == nil {
		if path, err := exec.LookPath(def); err == nil {
			return path
		}
	} else if present(def) {
		return def
	}
	absent(t, fmt.Sprintf("%s is absent: %s is unset and %s does not answer", service, env, def))
	return ""
}

// absent skips t for what msg says is missing, or fails it when
// RequireVar is "1".
func absent(t TB, msg string) {
	t.Helper()
	if os.Getenv(RequireVar) == "1" {
		t.Fatalf("%s, and %s=1 requires it", msg, RequireVar)
		return
	}
	t.Skipf("%s (set %s=1 to fail instead)", msg, RequireVar)
}

// dial reports whether something accepts TCP connections at addr.
func dial(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, dialTimeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// dialURL dials the host of a URL, on defaultPort when it names none.
func dialURL(raw, defaultPort string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return false
	}
	port := u.Port()
	if port == "" {
		port = defaultPort
	}
	return dial(net.JoinHostPort(u.Hostname(), port))
}
