package httpserve

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Log batching. One write(2) per request line cost the server about a
// tenth of its CPU under load (examples/loadtest); the sink gathers lines
// and writes them together instead. A line waits at most logFlushEvery, a
// warning or error is written at once with everything before it, and
// Close writes what is left.
const (
	logFlushEvery = 100 * time.Millisecond
	logFlushSize  = 64 << 10 // bytes buffered before a write regardless of the timer
)

// logSink is an io.Writer that batches whole log lines (slog writes each
// record with one Write) for w.
type logSink struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	err error // the last write's error, returned by Close

	stop chan struct{}
	done chan struct{}
}

// newLogSink starts the sink's timer; Close stops it.
func newLogSink(w io.Writer, every time.Duration) *logSink {
	s := &logSink{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go s.run(every)
	return s
}

func (s *logSink) run(every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Flush()
		}
	}
}

// Write buffers p, writing the buffer out once it passes logFlushSize.
func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	if len(s.buf) >= logFlushSize {
		s.flushLocked()
	}
	return len(p), nil
}

// Flush writes out what is buffered.
func (s *logSink) Flush() {
	s.mu.Lock()
	s.flushLocked()
	s.mu.Unlock()
}

func (s *logSink) flushLocked() {
	if len(s.buf) == 0 {
		return
	}
	if _, err := s.w.Write(s.buf); err != nil {
		s.err = err
	}
	s.buf = s.buf[:0]
}

// Close stops the timer and writes out what is left; it returns the last
// error a write met, if any.
func (s *logSink) Close() error {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	return s.err
}

// flushAtWarn is a slog.Handler that writes the sink out after every
// record at Warn level or above, so that trouble is never left waiting in
// the buffer.
type flushAtWarn struct {
	slog.Handler
	sink *logSink
}

func (h flushAtWarn) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.sink.Flush()
	}
	return err
}

func (h flushAtWarn) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushAtWarn{h.Handler.WithAttrs(attrs), h.sink}
}

func (h flushAtWarn) WithGroup(name string) slog.Handler {
	return flushAtWarn{h.Handler.WithGroup(name), h.sink}
}

// NewBatchedLogger returns a server's logger, writing text lines to w in
// batches (a line waits at most 100 ms; a warning or error is written at
// once, with everything before it), and the io.Closer to Close when the
// server stops, which writes what is left.
func NewBatchedLogger(w io.Writer) (*slog.Logger, io.Closer) {
	sink := newLogSink(w, logFlushEvery)
	return slog.New(flushAtWarn{slog.NewTextHandler(sink, nil), sink}), sink
}
