package httpserve

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/staykit/staykit/internal/apihttp"
)

// LogRequests logs one line per request with its status, duration and
// request id, which it also returns in X-Request-ID (the client's own when
// sane: apihttp.RequestID, as the APIs, which log their own requests).
// Only the path is logged: the booking page's query may carry a booking
// token. Health checks are logged at debug level.
func LogRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := apihttp.RequestID(r)
		w.Header().Set("X-Request-ID", id)
		rec := &apihttp.StatusRecorder{ResponseWriter: w}
		defer func() {
			level := slog.LevelInfo
			switch {
			case r.URL.Path == "/healthz", r.URL.Path == "/readyz":
				// Probes, every few seconds; the readiness probe warns
				// itself when the database does not answer.
				level = slog.LevelDebug
			case rec.Status() >= 500:
				level = slog.LevelError
			}
			logger.LogAttrs(r.Context(), level, "http request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.Status()),
				slog.Duration("duration", time.Since(start)),
				slog.String("request_id", id),
			)
		}()
		next.ServeHTTP(rec, r)
	})
}
