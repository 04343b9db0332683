package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbound"
	"github.com/staykit/staykit/outbox"
)

// outboxCommands are the host's commands about messages.
var outboxCommands = map[string]string{
	"webhook": "webhook add|list|remove|redeliver|deliveries|resume|replay -org SLUG ...: manage an organisation's webhook endpoints (replay -id ENDPOINT -from T -to T: send again the deliveries of the events of [T, T), RFC 3339)",
	"contact": "contact -org SLUG [-email ADDRESS]: show or set the address the host's e-mails go to (-email \"\" clears it)",
}

// runOutboxCommand runs webhook and contact commands on the server's
// database.
func runOutboxCommand(ctx context.Context, name string, args []string, open Opener, stdout, stderr io.Writer) error {
	sub := ""
	if name == "webhook" {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			fmt.Fprintln(stderr, "Usage: server "+outboxCommands[name])
			return ErrUsage
		}
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet(strings.TrimSpace(name+" "+sub), flag.ContinueOnError)
	fs.SetOutput(stderr)
	database := databaseFlags(fs)
	org := fs.String("org", "", "organisation `slug` (required)")
	email := fs.String("email", "\x00", "contact e-mail `address`")
	endpointURL := fs.String("url", "", "endpoint `URL` (https)")
	events := fs.String("events", "", "comma-separated event `types` (default: all)")
	id := fs.Int64("id", 0, "endpoint or delivery `id`")
	allowPrivate := fs.Bool("allow-private", false, "accept a plain http URL (a local receiver; the server needs -webhooks-allow-private)")
	replay := fs.Bool("replay", false, "with resume: send again what the endpoint missed while its deliveries failed")
	from := fs.String("from", "", "with replay: the range's start (RFC 3339)")
	to := fs.String("to", "", "with replay: the range's end, excluded (RFC 3339)")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), "Usage: server "+outboxCommands[name]); fs.PrintDefaults() }
	if err := parse(fs, args); err != nil {
		return err
	}
	if *org == "" {
		return usageError(fs, "-org is required")
	}
	db := database()
	if err := db.exists(); err != nil {
		return err
	}
	store, closeDB, err := open.Store(ctx, db)
	if err != nil {
		return err
	}
	defer closeDB()
	o, err := store.OrganizationBySlug(ctx, *org)
	if err != nil {
		return fmt.Errorf("organisation %s: %w", *org, err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	switch name + " " + sub {
	case "contact ":
		if *email != "\x00" {
			if err := store.SetContactEmail(ctx, o.ID, strings.TrimSpace(*email)); err != nil {
				return err
			}
		}
		got, err := store.ContactEmail(ctx, o.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "contact of %s: %s\n", TermSafe(o.Slug), TermSafe(got))
		return nil
	case "webhook add":
		if err := notify.ValidEndpointURL(*endpointURL, outbound.Policy{AllowPrivate: *allowPrivate}); err != nil {
			return usageError(fs, "%v", err)
		}
		ep := outbox.Endpoint{OrgID: o.ID, URL: *endpointURL, Secret: outbox.NewSecret(), EventTypes: SplitList(*events),
			Active: true, CreatedAt: now, UpdatedAt: now}
		if err := store.SaveWebhookEndpoint(ctx, &ep); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "endpoint %d added; signing secret (shown once): %s\n", ep.ID, ep.Secret)
		return nil
	case "webhook list":
		eps, err := store.WebhookEndpoints(ctx, o.ID)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tURL\tEVENTS\tACTIVE\tFAILURES\tPAUSED SINCE")
		for _, ep := range eps {
			types := strings.Join(ep.EventTypes, ",")
			if types == "" {
				types = "all"
			}
			paused := "-"
			if ep.Paused() {
				paused = ep.PausedAt.UTC().Format("2006-01-02 15:04:05Z")
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%t\t%d\t%s\n", ep.ID, cell(ep.URL), cell(types), ep.Active, ep.Failures, paused)
		}
		return tw.Flush()
	case "webhook resume":
		ep, n, err := store.ResumeWebhookEndpoint(ctx, o.ID, *id, *replay, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "endpoint %d resumed; %d deliveries due now\n", ep.ID, n)
		return nil
	case "webhook replay":
		start, err1 := time.Parse(time.RFC3339, *from)
		end, err2 := time.Parse(time.RFC3339, *to)
		if err1 != nil || err2 != nil || eventfeed.CheckRange(start, end) != nil {
			return usageError(fs, "-from and -to must be RFC 3339 times, -from before -to")
		}
		feed, ok := store.Records.(eventfeed.Store)
		if !ok {
			return errors.New("this database keeps no event feed")
		}
		n, err := feed.ReplayWebhookRange(ctx, o.ID, *id, start, end, now)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d deliveries of endpoint %d will be sent again\n", n, *id)
		return nil
	case "webhook remove":
		return store.DeleteWebhookEndpoint(ctx, o.ID, *id)
	case "webhook deliveries":
		if _, err := store.WebhookEndpoint(ctx, o.ID, *id); err != nil {
			return err
		}
		ds, err := store.OutboxDeliveries(ctx, 0, *id, 0, 100)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "DELIVERY\tEVENT\tSTATUS\tATTEMPTS\tHTTP\tUPDATED\tERROR")
		for _, d := range ds {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\t%s\t%s\n", d.ID, d.EventID, d.Status, d.Attempts, d.ResponseCode,
				d.UpdatedAt.Format("2006-01-02 15:04:05Z"), cell(d.LastError))
		}
		return tw.Flush()
	case "webhook redeliver":
		// -id is a delivery of one of the organisation's endpoints.
		d, err := store.OutboxDelivery(ctx, *id)
		if err == nil {
			_, err = store.WebhookEndpoint(ctx, o.ID, d.EndpointID)
		}
		if err == nil {
			if err := store.RedeliverOutbox(ctx, d.ID, now); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "delivery %d will be sent again\n", d.ID)
			return nil
		}
		if booking.ErrorCode(err) != booking.CodeNotFound {
			return err
		}
		return fmt.Errorf("no delivery %d of %s's endpoints", *id, o.Slug)
	}
	return usageError(fs, "unknown command %q", strings.TrimSpace(name+" "+sub))
}
