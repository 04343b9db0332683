package testenv_test

import (
	"fmt"
	"net"
	"os/exec"
	"testing"

	"github.com/staykit/staykit/internal/testenv"
)

// fakeTB records what a helper asked of its test instead of stopping it.
type fakeTB struct {
	skipped, failed string
}

func (f *fakeTB) Helper()                           {}
func (f *fakeTB) Skipf(format string, args ...any)  { f.skipped = fmt.Sprintf(format, args...) }
func (f *fakeTB) Fatalf(format string, args ...any) { f.failed = fmt.Sprintf(format, args...) }

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestLookup(t *testing.T) {
	const env = "STAYKIT_TEST_TESTENV_ADDR"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	open, closed := l.Addr().String(), closedAddr(t)
	dial := func(addr string) bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	never := func(string) bool { t.Error("probed although the variable is set"); return false }

	tests := []struct {
		name        string
		env         string
		require     string
		def         string
		present     func(string) bool
		want        string
		wantSkip    bool
		wantFailure bool
	}{
		{name: "EnvWins", env: "10.0.0.1:1", def: open, present: never, want: "10.0.0.1:1"},
		{name: "EnvWinsWhenRequired", env: "10.0.0.1:1", require: "1", def: closed, present: never, want: "10.0.0.1:1"},
		{name: "DefaultAnswers", def: open, present: dial, want: open},
		{name: "AbsentSkips", def: closed, present: dial, wantSkip: true},
		{name: "AbsentRequiredFails", require: "1", def: closed, present: dial, wantFailure: true},
		{name: "RequireOtherThan1Skips", require: "yes", def: closed, present: dial, wantSkip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(env, tt.env)
			t.Setenv(testenv.RequireVar, tt.require)
			var f fakeTB
			got := testenv.Lookup(&f, env, tt.def, "Thing", tt.present)
			if got != tt.want {
				t.Errorf("Lookup = %q, want %q", got, tt.want)
			}
			if (f.skipped != "") != tt.wantSkip {
				t.Errorf("skipped = %q, want a skip: %v", f.skipped, tt.wantSkip)
			}
			if (f.failed != "") != tt.wantFailure {
				t.Errorf("failed = %q, want a failure: %v", f.failed, tt.wantFailure)
			}
		})
	}
}

func TestLookupProgram(t *testing.T) {
	const env = "STAYKIT_TEST_TESTENV_PROGRAM"
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh on the PATH: %v", err)
	}
	t.Setenv(env, "")
	t.Setenv(testenv.RequireVar, "")
	var f fakeTB
	if got := testenv.Lookup(&f, env, "sh", "Shell", nil); got != sh || f.skipped != "" || f.failed != "" {
		t.Errorf("Lookup(sh) = %q (skip %q, fail %q), want %q", got, f.skipped, f.failed, sh)
	}
	t.Setenv(testenv.RequireVar, "1")
	f = fakeTB{}
	if got := testenv.Lookup(&f, env, "staykit-no-such-program", "Nothing", nil); got != "" || f.failed == "" {
		t.Errorf("Lookup(missing) = %q (fail %q), want \"\" and a failure", got, f.failed)
	}
	f = fakeTB{}
	if got := testenv.Program(&f, "sh"); got != sh || f.skipped != "" || f.failed != "" {
		t.Errorf("Program(sh) = %q (skip %q, fail %q), want %q", got, f.skipped, f.failed, sh)
	}
	f = fakeTB{}
	if got := testenv.Program(&f, "staykit-no-such-program"); got != "" || f.failed == "" || f.skipped != "" {
		t.Errorf("Program(missing) with %s=1 = %q (skip %q, fail %q), want a failure", testenv.RequireVar, got, f.skipped, f.failed)
	}
	t.Setenv(testenv.RequireVar, "")
	f = fakeTB{}
	if got := testenv.Program(&f, "staykit-no-such-program"); got != "" || f.skipped == "" || f.failed != "" {
		t.Errorf("Program(missing) = %q (skip %q, fail %q), want a skip", got, f.skipped, f.failed)
	}
}

// TestHelpersFindLocalServices runs the real helpers: with
// STAYKIT_TEST_REQUIRE_SERVICES=1 (as in CI) each must find its service.
func TestHelpersFindLocalServices(t *testing.T) {
	for name, find := range map[string]func(testenv.TB) string{
		"Postgres":   testenv.PostgresURL,
		"Redis":      testenv.RedisAddr,
		"StripeMock": testenv.StripeMockURL,
		"Chromium":   testenv.Chromium,
	} {
		t.Run(name, func(t *testing.T) {
			if got := find(t); got == "" {
				t.Error("found nothing")
			}
		})
	}
}
