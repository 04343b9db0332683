// Package clitest holds the fakes the command line's tests share: a
// terminal that types a password, and a stdin with content piped in.
package clitest

import (
	"io"
	"os"
	"testing"
)

// Terminal is a terminal that answers IsTerminal with IsTTY and reads
// Password (or fails with Err) without touching stdin; Reads counts the
// calls, so a test sees which path was taken. Its two methods are the
// fields of cli.Terminal.
type Terminal struct {
	IsTTY    bool
	Password string
	Err      error
	Reads    int
}

// IsTerminal reports IsTTY, whatever the file descriptor.
func (f *Terminal) IsTerminal(int) bool { return f.IsTTY }

// ReadPassword returns Password, or Err, and counts the call.
func (f *Terminal) ReadPassword(int) ([]byte, error) {
	f.Reads++
	return []byte(f.Password), f.Err
}

// Pipe returns the read end of an OS pipe holding content: an *os.File
// like the real stdin, which the fake terminal may or may not claim. It is
// closed when the test ends.
func Pipe(t testing.TB, content string) *os.File {
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
