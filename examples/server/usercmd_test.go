package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	hostcli "github.com/staykit/staykit/internal/cli"
	"github.com/staykit/staykit/internal/cli/clitest"
)

// TestUserCreatePassword creates users through the command, the password
// piped on stdin and typed at a (fake) terminal, and signs in with each.
func TestUserCreatePassword(t *testing.T) {
	ts := startServer(t, nil)
	tests := []struct {
		name  string
		email string
		stdin string
		tty   clitest.Terminal
		login string
	}{
		{name: "Piped", email: "piped@example.com", stdin: "a long piped password\n", login: "a long piped password"},
		{name: "Terminal", email: "typed@example.com", stdin: "not the password\n",
			tty: clitest.Terminal{IsTTY: true, Password: "a long typed password"}, login: "a long typed password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			noEnv := func(string) string { return "" }
			args := []string{"user", "create", "-org", "demo", "-email", tt.email, "-db", ts.dbPath}
			if err := runWith(context.Background(), args, noEnv, clitest.Pipe(t, tt.stdin), hostcli.Terminal{IsTerminal: tt.tty.IsTerminal, ReadPassword: tt.tty.ReadPassword}, &out, &errOut); err != nil {
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
