package cli

import (
	"bytes"
	"errors"
	"github.com/staykit/staykit/internal/cli/clitest"
	"io"
	"os"
	"strings"
	"testing"
)

// fakeTerminal is the shared fake terminal, as this package's Terminal.
type fakeTerminal struct{ clitest.Terminal }

func (f *fakeTerminal) terminal() Terminal {
	return Terminal{IsTerminal: f.IsTerminal, ReadPassword: f.ReadPassword}
}

func pipeWith(t *testing.T, content string) *os.File { return clitest.Pipe(t, content) }

func TestReadPassword(t *testing.T) {
	errTTY := errors.New("tty gone")
	tests := []struct {
		name      string
		stdin     func(t *testing.T) io.Reader
		tty       fakeTerminal
		want      string
		wantErr   error
		wantReads int
		wantNL    bool // a newline written to stderr after the hidden input
	}{
		{
			name:  "PipedLine",
			stdin: func(t *testing.T) io.Reader { return pipeWith(t, "piped secret\r\nnext line\n") },
			tty:   fakeTerminal{clitest.Terminal{IsTTY: false}},
			want:  "piped secret",
		},
		{
			name:  "PipedWithoutNewline",
			stdin: func(t *testing.T) io.Reader { return pipeWith(t, "no newline") },
			tty:   fakeTerminal{clitest.Terminal{IsTTY: false}},
			want:  "no newline",
		},
		{
			name:      "TerminalNoEcho",
			stdin:     func(t *testing.T) io.Reader { return pipeWith(t, "must not be read\n") },
			tty:       fakeTerminal{clitest.Terminal{IsTTY: true, Password: "typed secret"}},
			want:      "typed secret",
			wantReads: 1,
			wantNL:    true,
		},
		{
			name:      "TerminalError",
			stdin:     func(t *testing.T) io.Reader { return pipeWith(t, "must not be read\n") },
			tty:       fakeTerminal{clitest.Terminal{IsTTY: true, Err: errTTY}},
			wantErr:   errTTY,
			wantReads: 1,
			wantNL:    true,
		},
		{
			// Not a file, so it has no descriptor to be a terminal.
			name:  "ReaderNeverTerminal",
			stdin: func(*testing.T) io.Reader { return strings.NewReader("reader secret\n") },
			tty:   fakeTerminal{clitest.Terminal{IsTTY: true, Password: "wrong"}},
			want:  "reader secret",
		},
		{
			name:    "EmptyStdin",
			stdin:   func(*testing.T) io.Reader { return strings.NewReader("") },
			tty:     fakeTerminal{clitest.Terminal{IsTTY: false}},
			wantErr: io.EOF,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := readPassword(tt.stdin(t), tt.tty.terminal(), &stderr)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got != tt.want {
				t.Errorf("password = %q, want %q", got, tt.want)
			}
			if tt.tty.Reads != tt.wantReads {
				t.Errorf("terminal reads = %d, want %d", tt.tty.Reads, tt.wantReads)
			}
			if gotNL := stderr.String() == "\n"; gotNL != tt.wantNL {
				t.Errorf("stderr = %q, want a newline: %v", stderr.String(), tt.wantNL)
			}
		})
	}
}
