package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/payment/paymenttest"
)

// setInput sets an input's value as a person typing it would, with the
// input and change events.
func (b *browser) setInput(sel, value string) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`(() => {
		const s = document.querySelector(%q);
		s.value = %q;
		s.dispatchEvent(new Event('input', { bubbles: true }));
		s.dispatchEvent(new Event('change', { bubbles: true }));
		return '';
	})()`, sel, value))
}

// waitFor waits until the JavaScript condition js holds on the page, at
// most stepTimeout, failing the test with step otherwise.
func (b *browser) waitFor(step, js string) {
	b.t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for time.Now().Before(deadline) {
		if b.eval(`String(!!(`+js+`))`) == "true" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.shot("failed-" + step)
	b.t.Fatalf("%s: %s never held", step, js)
}

// dayAfter is the date n days after d.
func dayAfter(t *testing.T, d string, n int) string {
	t.Helper()
	return civil.MustParse(d).AddDays(n).String()
}

// bookingStay reads a booking's dates over the API.
func bookingStay(t *testing.T, ts *testServer, org, token string) (string, string) {
	t.Helper()
	r := call(t, http.MethodGet, ts.URL+"/api/v1/book/"+org+"/booking/"+token, nil, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("booking: %d %s", r.Status, r.Raw)
	}
	d := r.data(t)
	return str(d, "check_in"), str(d, "check_out")
}

// TestBrowserGuestChangesDates changes a paid stay from its page, in
// English and in French: one night more costs more, which the guest pays
// with the test card before the change applies; one night less costs
// less, and the difference is refunded at once. The page shows the new
// dates and the payments.
func TestBrowserGuestChangesDates(t *testing.T) {
	ts := startServer(t, nil)
	for _, tc := range []struct {
		lang   string
		nights int // the new stay's, from the booked 3
		pay    bool
		quoted string // what the offer says is charged or refunded
	}{
		{"en", 4, true, "To pay now"},
		{"fr", 2, false, "Remboursé"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			days := 30
			if tc.lang == "fr" {
				days = 50
			}
			token := paidBooking(t, ts, "demo", days)
			in, out := bookingStay(t, ts, "demo", token)
			newOut := civil.MustParse(in).AddDays(tc.nights).String()
			b := newBrowser(t)
			b.do("open the confirmed booking",
				chromedp.Navigate(ts.URL+"/?org=demo&lang="+tc.lang+"&booking="+token),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="change-check-out"]`)),
			)
			if got := b.eval(`document.querySelector('[data-testid="change-check-out"]').value`); got != out {
				t.Fatalf("the form starts at check-out %q, want the booking's %q", got, out)
			}
			b.setInput(`[data-testid="change-check-out"]`, newOut)
			b.do("quote the change",
				chromedp.Click(chromedp.CSS(`[data-testid="change-quote"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="change-accept"]`)),
			)
			b.shot("offer")
			if lines := b.text(`[data-testid="change-offer-lines"]`); !strings.Contains(lines, tc.quoted) {
				t.Fatalf("the offer says %q, want %q", lines, tc.quoted)
			}
			charge := dec(t, b.attr(`[data-testid="change-offer-lines"]`, "data-charge"))
			refund := dec(t, b.attr(`[data-testid="change-offer-lines"]`, "data-refund"))
			if tc.pay != charge.IsPositive() || tc.pay == refund.IsPositive() {
				t.Fatalf("offer charges %s and refunds %s", charge, refund)
			}
			b.do("accept", chromedp.Click(chromedp.CSS(`[data-testid="change-accept"]`)))
			if tc.pay {
				b.do("the change waits for its payment", chromedp.WaitVisible(chromedp.CSS(`[data-testid="change-card"]`)))
				b.shot("paying")
				if _, got := bookingStay(t, ts, "demo", token); got != out {
					t.Fatalf("the booking moved to %s before the change was paid", got)
				}
				b.do("pay the difference with the test card",
					chromedp.SendKeys(chromedp.CSS(`[data-testid="change-card"]`), paymenttest.CardSucceeds),
					chromedp.Click(chromedp.CSS(`[data-testid="change-pay"]`)),
				)
			}
			// The page is shown again once the change applied: the status
			// card counts the new nights.
			b.waitFor("the page shows the new stay", fmt.Sprintf(
				`(document.querySelector('[data-testid="status-nights"]') || {}).textContent === %q && !document.querySelector('[data-testid="change-accept"]') && !!document.querySelector('[data-testid="payments-box"]')`,
				fmt.Sprint(tc.nights)))
			if got := b.eval(`document.querySelector('[data-testid="change-check-out"]').value`); got != newOut {
				t.Fatalf("after the change the page shows check-out %q, want %q", got, newOut)
			}
			b.shot("changed")
			if _, got := bookingStay(t, ts, "demo", token); got != newOut {
				t.Fatalf("booking check-out %s, want %s", got, newOut)
			}
			kind := "change_charge"
			if !tc.pay {
				kind = "refund"
			}
			b.do("the payments list the change", chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-testid="payment-row"][data-kind=%q]`, kind))))
			if !tc.pay {
				if got := b.text(`[data-testid="status-refunded"]`); got == "" {
					t.Error("the status shows no refund")
				}
			}
			b.checkNoProblems()
		})
	}
}

// TestBrowserGuestPaysTheBalanceEarly pays a deposit booking's balance
// from its page before its due date, in English and in French: the page
// then shows the booking paid in full, the schedule lists the balance
// paid, and the receipt downloads as a PDF.
func TestBrowserGuestPaysTheBalanceEarly(t *testing.T) {
	ts := startServer(t, nil)
	for i, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			token := paidBooking(t, ts, "demo-deposit", 60+10*i)
			b := newBrowser(t)
			b.do("open the deposit booking",
				chromedp.Navigate(ts.URL+"/?org=demo-deposit&lang="+lang+"&booking="+token),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="balance-pay-now"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-row"][data-kind="balance"][data-status="scheduled"]`)),
			)
			b.shot("schedule")
			if paid, total := b.text(`[data-testid="status-paid"]`), b.text(`[data-testid="status-total"]`); paid == total {
				t.Fatalf("paid %s before the balance, want less than %s", paid, total)
			}
			b.do("pay the balance now",
				chromedp.Click(chromedp.CSS(`[data-testid="balance-pay-now"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-row"][data-kind="balance"][data-status="paid"]`)),
			)
			b.shot("balance-paid")
			if paid, total := b.text(`[data-testid="status-paid"]`), b.text(`[data-testid="status-total"]`); paid == "" || paid != total {
				t.Errorf("page shows %q paid, want the total %q", paid, total)
			}
			if b.visible(`[data-testid="balance-pay-now"]`) {
				t.Error("a paid balance is still offered")
			}
			href := b.attr(`[data-testid="receipt-link"]`, "href")
			if !strings.HasSuffix(href, "locale="+lang) {
				t.Errorf("receipt link %s is not in %s", href, lang)
			}
			got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
				`fetch(%q).then(async (r) => r.status + ' ' + r.headers.get('Content-Type') + ' ' + (await r.text()).slice(0, 5))`, href), chromedp.EvalAwaitPromise))
			if err != nil || got != "200 application/pdf %PDF-" {
				t.Errorf("receipt %s: %q, %v", href, got, err)
			}
			b.checkNoProblems()
		})
	}
}
