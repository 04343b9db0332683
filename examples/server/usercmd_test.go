package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	hostcli "github.com/staykit/staykit/internal/cli"
)

// fakeTerminal is a terminal that answers isTerminal with isTTY and reads
// password (or fails with err) without touching stdin; reads counts the
// calls, so a test sees which path was taken.
type fakeTerminal struct {
	isTTY    bool
	password string
	err      error
	reads    int
}

func (f *fakeTerminal) terminal() hostcli.Terminal {
	return hostcli.Terminal{
		IsTerminal: func(int) bool { return f.isTTY },
		ReadPassword: func(int) ([]byte, error) {
			f.reads++
			return []byte(f.password), f.err
		},
	}
}

// pipeWith returns the read end of an OS pipe holding content: an *os.File
// like the real stdin, which the fake terminal may or may not claim.
func pipeWith(t *testing.T, content string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := io.WriteString(w, content); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return r
}

// TestUserCreatePassword creates users through the command, the password
// piped on stdin and typed at a (fake) terminal, and signs in with each.
func TestUserCreatePassword(t *testing.T) {
	ts := startServer(t, nil)
	tests := []struct {
		name  string
		email string
		stdin string
		tty   fakeTerminal
		login string
	}{
		{name: "Piped", email: "piped@example.com", stdin: "a long piped password\n", login: "a long piped password"},
		{name: "Terminal", email: "typed@example.com", stdin: "not the password\n",
			tty: fakeTerminal{isTTY: true, password: "a long typed password"}, login: "a long typed password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			noEnv := func(string) string { return "" }
			args := []string{"user", "create", "-org", "demo", "-email", tt.email, "-db", ts.dbPath}
			if err := runWith(context.Background(), args, noEnv, pipeWith(t, tt.stdin), tt.tty.terminal(), &out, &errOut); err != nil {
				t.Fatalf("user create: %v\n%s", err, errOut.String())
			}
			if strings.Contains(errOut.String(), tt.login) {
				t.Errorf("stderr shows the password: %q", errOut.String())
			}
			if res := login(t, newClient(t), ts, tt.email, tt.login); res.StatusCode != http.StatusSeeOther {
				t.Errorf("login with the password given: %d, want 303", res.StatusCode)
			}
		})
	}
}
