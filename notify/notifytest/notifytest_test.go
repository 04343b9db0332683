package notifytest_test

import (
	"context"
	"sync"
	"testing"

	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/notify/notifytest"
)

func TestMailerRecordsInOrder(t *testing.T) {
	var m notifytest.Mailer
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { _ = m.Send(context.Background(), notify.Mail{To: "a@example.com", Kind: "booking.confirmed"}) })
	}
	wg.Wait()
	_ = m.Send(context.Background(), notify.Mail{ID: "last", To: "b@example.com", Kind: "booking.cancelled"})
	if got := len(m.Sent(nil)); got != 21 {
		t.Errorf("Sent = %d mails, want 21", got)
	}
	if got := m.To("b@example.com"); len(got) != 1 || got[0].ID != "last" {
		t.Errorf("To(b) = %+v, want the last mail", got)
	}
	if got := len(m.OfKind("booking.confirmed")); got != 20 {
		t.Errorf("OfKind(confirmed) = %d, want 20", got)
	}
	if got := m.Sent(nil); got[len(got)-1].ID != "last" {
		t.Errorf("the last mail sent is not last: %+v", got[len(got)-1])
	}
}
