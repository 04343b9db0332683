package icalsync_test

import (
	"context"
	"net/http"
	"time"

	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
	"github.com/staykit/staykit/store/sqlite"
)

// An embedder serves the exported calendars on its mux and gives the
// syncer to its job engine (package jobs: jobs.Options{Feeds: syncer}),
// which polls each feed when due; both take the database it already has.
func Example() {
	var store *sqlite.DB // or a *postgres.DB, opened by the host
	ctx := context.Background()

	mux := http.NewServeMux()
	mux.Handle("GET /ical/", &icalsync.Handler{Store: store})

	syncer := icalsync.New(icalsync.Options{Store: store, Interval: 30 * time.Minute})

	// A feed of a property, and the URL to paste into the channel.
	_ = syncer.AddFeed(ctx, &feed.Feed{OrgID: 1, PropertyID: 1, Name: "Airbnb",
		URL: "https://www.airbnb.com/calendar/ical/123.ics?s=secret", Active: true})
	if tok, err := syncer.ExportToken(ctx, 1, 1); err == nil {
		_ = "https://book.example.com" + icalsync.ExportPath(tok.Token)
	}
}
