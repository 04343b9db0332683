package apihttp

import "net/http"

// StatusRecorder is a response writer that remembers the status written,
// for a request's log line and to know whether a panic can still be
// answered: wrap a writer as &StatusRecorder{ResponseWriter: w}.
type StatusRecorder struct {
	http.ResponseWriter
	code  int
	wrote bool
}

// WriteHeader records the first status and passes it on.
func (r *StatusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write records 200 when no status was written, and passes b on.
func (r *StatusRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.code, r.wrote = http.StatusOK, true
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *StatusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Wrote reports whether a status was written.
func (r *StatusRecorder) Wrote() bool { return r.wrote }

// Status returns the status written, 200 when none was (the status
// net/http sends for a handler that writes nothing).
func (r *StatusRecorder) Status() int {
	if !r.wrote {
		return http.StatusOK
	}
	return r.code
}
