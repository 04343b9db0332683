package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/icalsync"
)

const icalUsage = `Usage: server ical COMMAND [flags] [-db FILE | -postgres URL]

Calendar sync with Airbnb, Booking.com, Vrbo and other channels:

  feeds -org SLUG                                 list the imported feeds, their status and conflicts
  (add-feed and sync-now take -outbound-allow HOST:PORT,… as the server does)
  add-feed -org SLUG -property ID -url URL -name NAME [-end-is-last-night]
                                                  import a channel's iCal feed into a property
  remove-feed -org SLUG -feed ID                  stop importing a feed (its nights are freed)
  sync-now -org SLUG -feed ID                     fetch a feed now
  export-url -org SLUG -property ID [-public-url URL]
                                                  show the URL to paste into a channel
  rotate-token -org SLUG -property ID [-public-url URL]
                                                  replace that URL (the old one stops working)
`

// runICal runs "server ical COMMAND ...".
func runICal(ctx context.Context, args []string, open Opener, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stderr, icalUsage)
		if len(args) == 0 {
			return ErrUsage
		}
		return flag.ErrHelp
	}
	name := args[0]
	fs := flag.NewFlagSet("ical "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), icalUsage) }
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	property := fs.Int64("property", 0, "property `ID`")
	feedID := fs.Int64("feed", 0, "feed `ID` (see ical feeds)")
	feedURL := fs.String("url", "", "the channel's iCal export `URL`")
	feedName := fs.String("name", "", "the feed's `name`, e.g. Airbnb")
	endIsLastNight := fs.Bool("end-is-last-night", false, "the feed's end dates are the last night, not the check-out day")
	publicURL := fs.String("public-url", "http://127.0.0.1:8080", "`URL` channels reach this server at")
	allow := fs.String("outbound-allow", "", "comma-separated `HOST:PORT` targets feeds may be fetched from although private, as the server's flag")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	need := map[string][]string{
		"feeds":        nil,
		"add-feed":     {"property", "url", "name"},
		"remove-feed":  {"feed"},
		"sync-now":     {"feed"},
		"export-url":   {"property"},
		"rotate-token": {"property"},
	}
	required, ok := need[name]
	switch {
	case !ok:
		return usageError(fs, "unknown ical command %q", name)
	case fs.NArg() > 0:
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	case *org == "":
		return usageError(fs, "-org is required")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, r := range required {
		if !set[r] {
			return usageError(fs, "-%s is required", r)
		}
	}

	db := database()
	if err := db.exists(); err != nil {
		return err
	}
	syncer, store, closeDB, err := open.Calendars(ctx, db, *allow)
	if err != nil {
		return err
	}
	defer closeDB()
	o, err := store.OrganizationBySlug(ctx, *org)
	if err != nil {
		return fmt.Errorf("organisation %s: %w", *org, err)
	}

	switch name {
	case "feeds":
		list, err := syncer.Feeds(ctx, o.ID)
		if err != nil {
			return err
		}
		return printFeeds(ctx, stdout, store, syncer, list)
	case "add-feed":
		f := &feed.Feed{OrgID: o.ID, PropertyID: *property, Name: *feedName, URL: *feedURL, Active: true, EndIsLastNight: *endIsLastNight}
		if err := syncer.AddFeed(ctx, f); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "feed %d added to property %d; the server fetches it within a minute, then every %s\n", f.ID, f.PropertyID,
			syncer.PollEvery().Round(time.Minute))
	case "remove-feed":
		if err := syncer.RemoveFeed(ctx, o.ID, *feedID); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "feed %d removed; the nights it held are free\n", *feedID)
	case "sync-now":
		res, err := syncer.SyncFeed(ctx, o.ID, *feedID)
		if err != nil {
			return fmt.Errorf("sync feed %d: %w", *feedID, err)
		}
		if res.NotModified {
			fmt.Fprintf(stdout, "feed %d: not modified since the last fetch\n", *feedID)
			return nil
		}
		fmt.Fprintf(stdout, "feed %d: %d events, %d added, %d moved, %d removed, %d conflicts\n", *feedID, res.Events,
			len(res.Plan.Add), len(res.Plan.Move), len(res.Plan.Remove), len(res.Conflicts))
		for _, c := range res.Conflicts {
			fmt.Fprintf(stdout, "  conflict: %s–%s overlaps booking %d (kept; the event is not applied)\n", c.Start, c.End, c.BookingID)
		}
	case "export-url", "rotate-token":
		var tok *feed.ExportToken
		if name == "export-url" {
			tok, err = syncer.ExportToken(ctx, o.ID, *property)
		} else {
			tok, err = syncer.RotateExportToken(ctx, o.ID, *property)
		}
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, strings.TrimRight(*publicURL, "/")+icalsync.ExportPath(tok.Token))
	}
	return nil
}

// printFeeds writes one line per feed, then its conflicts.
func printFeeds(ctx context.Context, w io.Writer, store feed.FeedStore, syncer *icalsync.Syncer, list []feed.Feed) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPROPERTY\tNAME\tACTIVE\tEVENTS\tCONFLICTS\tLAST SUCCESS\tLAST ATTEMPT\tLAST ERROR\tEXPOSURE\tURL")
	when := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return t.UTC().Format("2006-01-02 15:04Z")
	}
	for _, f := range list {
		h, exposure := syncer.Health(f), "unknown"
		if h.Known {
			exposure = h.Exposure.Round(time.Minute).String()
		}
		if h.Stale {
			exposure += " (unchanged 14 days)"
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%t\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", f.ID, f.PropertyID, cell(f.Name), f.Active, f.EventsImported,
			f.Conflicts, when(f.LastSuccessAt), when(f.LastAttemptAt), cell(f.LastError), exposure, cell(f.URL))
	}
	if len(list) == 0 {
		fmt.Fprintln(tw, "(no feeds)")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, f := range list {
		if f.Conflicts == 0 {
			continue
		}
		conflicts, err := store.FeedConflicts(ctx, f.ID)
		if err != nil {
			return err
		}
		for _, c := range conflicts {
			fmt.Fprintf(w, "feed %d conflict: %s–%s (%s) overlaps booking %d, since %s\n", f.ID, c.Start, c.End,
				cell(c.Summary), c.BookingID, when(c.DetectedAt))
		}
	}
	return nil
}
