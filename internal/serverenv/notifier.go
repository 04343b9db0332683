package serverenv

import (
	"context"
	"log/slog"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
)

// LogNotifier tells the host about bookings in the server's log (never
// the guest's e-mail or phone). A real host would send an e-mail here.
func LogNotifier(logger *slog.Logger) booking.Notifier {
	return booking.NotifierFunc(func(ctx context.Context, n booking.Notification) error {
		b := n.Booking
		msg := "booking " + string(b.Status)
		if !strings.HasPrefix(n.Kind, "booking.") {
			msg = n.Kind // payment.refunded, balance.paid, deposit.claimed...
		}
		logger.InfoContext(ctx, msg,
			"event", n.Kind, "org", n.Organization.Slug, "booking_id", b.ID, "property_id", b.PropertyID,
			"check_in", b.CheckIn.String(), "check_out", b.CheckOut.String(), "total", b.TotalAmount.StringFixed(pricing.MinorUnits(b.Currency)), "currency", b.Currency)
		return nil
	})
}
