package httpserve

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogSinkBatchesUntilFlush: info lines wait in the sink; a warning
// writes them out with itself, in order; Close writes the rest.
func TestLogSinkBatchesUntilFlush(t *testing.T) {
	var out syncBuffer
	sink := newLogSink(&out, time.Hour) // the timer never fires here
	log := slog.New(flushAtWarn{slog.NewTextHandler(sink, nil), sink})

	log.Info("first")
	log.Info("second")
	if got := out.String(); got != "" {
		t.Fatalf("info lines written before a flush:\n%s", got)
	}
	log.Warn("trouble")
	got := out.String()
	i1, i2, i3 := strings.Index(got, "msg=first"), strings.Index(got, "msg=second"), strings.Index(got, "msg=trouble")
	if i1 < 0 || i2 < i1 || i3 < i2 {
		t.Fatalf("a warning did not write the buffered lines, in order, with itself:\n%s", got)
	}
	log.With("k", "v").Info("last")
	if strings.Contains(out.String(), "msg=last") {
		t.Fatalf("info line written before a flush")
	}
	if err := sink.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if !strings.Contains(out.String(), "msg=last k=v") {
		t.Fatalf("Close did not write the last line:\n%s", out.String())
	}
}

// TestLogSinkTimerAndSize: the timer writes lines out on its own, and a
// buffer past logFlushSize is written at once.
func TestLogSinkTimerAndSize(t *testing.T) {
	var out syncBuffer
	sink := newLogSink(&out, time.Millisecond)
	sink.Write([]byte("line\n"))
	deadline := time.Now().Add(10 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if out.String() != "line\n" {
		t.Fatalf("the timer did not write the line out: %q", out.String())
	}
	sink.Close()

	var big syncBuffer
	sink = newLogSink(&big, time.Hour)
	defer sink.Close()
	line := strings.Repeat("x", 1023) + "\n"
	for range logFlushSize / len(line) {
		sink.Write([]byte(line))
	}
	if len(big.String()) != logFlushSize {
		t.Fatalf("a full buffer was not written at once: %d bytes out, want %d", len(big.String()), logFlushSize)
	}
}

// syncBuffer is a bytes.Buffer safe for the sink's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
