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
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			level := slog.LevelInfo
			switch {
			case r.URL.Path == "/healthz", r.URL.Path == "/readyz":
				// Probes, every few seconds; the readiness probe warns
				// itself when the database does not answer.
				level = slog.LevelDebug
			case rec.code >= 500:
				level = slog.LevelError
			}
			logger.LogAttrs(r.Context(), level, "http request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.status()),
				slog.Duration("duration", time.Since(start)),
				slog.String("request_id", id),
			)
		}()
		next.ServeHTTP(rec, r)
	})
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}

// Unwrap lets http.ResponseController reach the connection.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
