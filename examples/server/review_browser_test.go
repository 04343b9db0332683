package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserGuestReviewsTheStay: once a stay is over (the sandbox clock
// moved past its check-out), its page asks for a review; in French from
// the e-mail's one-click link (&rate=4: the fourth star chosen), in English
// by clicking a star. After sending, the page thanks the guest with the
// rating stored, and the form is gone for good.
func TestBrowserGuestReviewsTheStay(t *testing.T) {
	ts := startServer(t, nil, "-sandbox")
	fr := paidBooking(t, ts, "demo", 5)
	en := paidBooking(t, ts, "demo", 12)
	b := newBrowser(t)
	b.do("open a stay not yet over",
		chromedp.Navigate(ts.URL+"/?org=demo&lang=fr&booking="+fr),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="cancel-preview"]`)),
	)
	if b.visible(`[data-testid="review-form"]`) {
		t.Fatal("a stay not yet over offers a review")
	}
	if r := sandboxCall(t, ts, http.MethodPost, "/api/v1/sandbox/clock", map[string]string{"advance": "P20D"}); r.Status != http.StatusOK {
		t.Fatalf("advance the clock: %d %s", r.Status, r.Raw)
	}

	for _, tc := range []struct {
		lang, token, query string
		click              int // the star clicked, 0: the link's
		rating             string
		thanks             string
	}{
		{"fr", fr, "&rate=4", 0, "4", "Merci ! Votre note : 4/5."},
		{"en", en, "", 2, "2", "Thank you! Your rating: 2/5."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			b.do("open the stay, now over",
				chromedp.Navigate(ts.URL+"/?org=demo&lang="+tc.lang+"&booking="+tc.token+tc.query),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-form"]`)),
			)
			if tc.click != 0 {
				b.do("choose the stars", chromedp.Click(chromedp.CSS(`[data-testid="review-star-`+tc.rating+`"]`)))
			}
			if got := b.attr(`[data-testid="review-star-`+tc.rating+`"]`, "aria-checked"); got != "true" {
				t.Fatalf("star %s aria-checked = %q, want true", tc.rating, got)
			}
			b.shot("review-form-" + tc.lang)
			b.do("write and send",
				chromedp.SendKeys(chromedp.CSS(`[data-testid="review-comment"]`), "Calme et propre"),
				chromedp.Click(chromedp.CSS(`[data-testid="review-send"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-done"]`)),
			)
			b.shot("review-done-" + tc.lang)
			if got := b.attr(`[data-testid="review-done"]`, "data-rating"); got != tc.rating {
				t.Errorf("stored rating %s, want %s", got, tc.rating)
			}
			if got := b.text(`[data-testid="review-done"] p`); got != tc.thanks {
				t.Errorf("thanks = %q, want %q", got, tc.thanks)
			}
			r := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/booking/"+tc.token+"/review", nil, nil)
			if d := r.data(t); d["reviewable"] != false || !strings.Contains(string(r.Raw), `"comment":"Calme et propre"`) {
				t.Errorf("the stored review: %s", r.Raw)
			}
			b.do("open it again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="review-done"]`)))
			if b.visible(`[data-testid="review-form"]`) {
				t.Error("a reviewed stay offers the form again")
			}
		})
	}
	b.checkNoProblems()
}

// TestBrowserHostPublishesAReview: the host finds a guest's review on the
// Reviews page, publishes it, and the property's public reviews show it
// with the guest's first name only; withdrawn, they show none again.
func TestBrowserHostPublishesAReview(t *testing.T) {
	ts := startServer(t, nil, "-sandbox")
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 5)
	if r := sandboxCall(t, ts, http.MethodPost, "/api/v1/sandbox/clock", map[string]string{"advance": "P10D"}); r.Status != http.StatusOK {
		t.Fatalf("advance the clock: %d %s", r.Status, r.Raw)
	}
	if r := call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+token+"/review",
		map[string]any{"rating": 5, "comment": "Une vue superbe"}, nil); r.Status != http.StatusCreated {
		t.Fatalf("review: %d %s", r.Status, r.Raw)
	}
	public := func() map[string]any {
		t.Helper()
		r := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo/properties/"+fmt.Sprint(propertyIDs(t, ts, "demo")[0])+"/reviews", nil, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("public reviews: %d %s", r.Status, r.Raw)
		}
		return r.data(t)
	}
	if n := num(public(), "reviews_count"); n != "0" {
		t.Fatalf("before publication: %s public reviews", n)
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-reviews")
	b.do("open Reviews", chromedp.Click(chromedp.CSS("#nav-reviews")), chromedp.WaitVisible(chromedp.CSS(`tr[data-published="false"] button.publish`)))
	if got := b.text(`tr[data-published="false"] td.comment`); got != "Une vue superbe" {
		t.Errorf("comment shown = %q", got)
	}
	if got := b.text(`tr[data-published="false"] td.rating`); got != "★★★★★" {
		t.Errorf("rating shown = %q", got)
	}
	b.do("publish", chromedp.Click(chromedp.CSS(`button.publish`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-published="true"] button.unpublish`)))
	b.shot("review-published")
	got := public()
	items, _ := got["items"].([]any)
	if num(got, "reviews_count") != "1" || num(got, "rating") != "5.0" || len(items) != 1 ||
		str(items[0].(map[string]any), "author") != "Ada" || str(items[0].(map[string]any), "comment") != "Une vue superbe" {
		t.Fatalf("after publication: %v", got)
	}
	b.do("withdraw", chromedp.Click(chromedp.CSS(`button.unpublish`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-published="false"] button.publish`)))
	if n := num(public(), "reviews_count"); n != "0" {
		t.Errorf("after the withdrawal: %s public reviews", n)
	}
	b.checkNoProblems()
}
