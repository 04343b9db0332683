package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
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

func (f *fakeTerminal) terminal() Terminal {
	return Terminal{
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
			tty:   fakeTerminal{isTTY: false},
			want:  "piped secret",
		},
		{
			name:  "PipedWithoutNewline",
			stdin: func(t *testing.T) io.Reader { return pipeWith(t, "no newline") },
			tty:   fakeTerminal{isTTY: false},
			want:  "no newline",
		},
		{
			name:      "TerminalNoEcho",
			stdin:     func(t *testing.T) io.Reader { return pipeWith(t, "must not be read\n") },
			tty:       fakeTerminal{isTTY: true, password: "typed secret"},
			want:      "typed secret",
			wantReads: 1,
			wantNL:    true,
		},
		{
			name:      "TerminalError",
			stdin:     func(t *testing.T) io.Reader { return pipeWith(t, "must not be read\n") },
			tty:       fakeTerminal{isTTY: true, err: errTTY},
			wantErr:   errTTY,
			wantReads: 1,
			wantNL:    true,
		},
		{
			// Not a file, so it has no descriptor to be a terminal.
			name:  "ReaderNeverTerminal",
			stdin: func(*testing.T) io.Reader { return strings.NewReader("reader secret\n") },
			tty:   fakeTerminal{isTTY: true, password: "wrong"},
			want:  "reader secret",
		},
		{
			name:    "EmptyStdin",
			stdin:   func(*testing.T) io.Reader { return strings.NewReader("") },
			tty:     fakeTerminal{isTTY: false},
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
			if tt.tty.reads != tt.wantReads {
				t.Errorf("terminal reads = %d, want %d", tt.tty.reads, tt.wantReads)
			}
			if gotNL := stderr.String() == "\n"; gotNL != tt.wantNL {
				t.Errorf("stderr = %q, want a newline: %v", stderr.String(), tt.wantNL)
			}
		})
	}
}
