package jobs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/staykit/staykit/notify"
)

// The periodic task "messages" records the scheduled messages that are due
// (notify.Worker.QueueMessages), and says so when it fails; without the
// hook it does nothing.
func TestTaskMessagesQueuesScheduledMessages(t *testing.T) {
	calls := 0
	worker := &notify.Worker{QueueMessages: func(context.Context) error { calls++; return nil }}
	w := &Workers{opts: Options{Outbox: worker, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	if err := w.runTask(t.Context(), TaskMessages); err != nil || calls != 1 {
		t.Fatalf("runTask(messages) = %v after %d calls, want nil after 1", err, calls)
	}
	worker.QueueMessages = func(context.Context) error { return errors.New("database down") }
	if err := w.runTask(t.Context(), TaskMessages); err == nil || !strings.Contains(err.Error(), "queue scheduled messages: database down") {
		t.Errorf("runTask(messages) with a failing hook = %v", err)
	}
	worker.QueueMessages = nil
	if err := w.runTask(t.Context(), TaskMessages); err != nil {
		t.Errorf("runTask(messages) without the hook = %v", err)
	}
}
