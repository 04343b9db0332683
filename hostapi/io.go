package hostapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/apihttp"
)

// bufferWriter keeps a response, to store it before it is sent.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }

func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// writeRaw writes a stored response.
func writeRaw(w http.ResponseWriter, status int, body []byte) {
	if len(body) == 0 {
		w.Header().Del("Content-Type")
	} else {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	w.Write(body)
}

// readBody reads the body of a POST or PATCH: empty, or JSON.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength == 0 && r.Header.Get("Content-Type") == "" {
		return nil, nil
	}
	b, err := apihttp.ReadJSON(w, r)
	if err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b), nil
}

// decode reads a JSON object body into v: a field of the wrong type or
// unknown is named in a CodeInvalid error. An empty body is {}.
func decode(body []byte, v any) error {
	if len(body) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		return apihttp.ErrMalformedJSON()
	}
	if body[0] != '{' {
		return apihttp.ErrNotObject()
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return invalid(typeErr.Field, "invalid_type")
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return invalid(strings.Trim(field, `"`), "unknown_field")
	}
	if errors.Is(err, io.EOF) {
		return apihttp.ErrMalformedJSON()
	}
	// A value that its type refuses (a date, a decimal): name the field
	// when the error does.
	return invalid("body", "invalid_type")
}

func invalid(field, reason string) error {
	return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{field: {reason}}}
}

// pathID reads a positive integer path value. Errors: CodeNotFound.
func pathID(r *http.Request, name, subject string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, &booking.Error{Code: booking.CodeNotFound, Message: "This resource does not exist.",
			Params: map[string]string{booking.ParamSubject: subject}}
	}
	return id, nil
}

// page reads ?limit= (1–100, default 50) and ?cursor= (an opaque
// positive integer).
func page(q url.Values) (limit int, cursor int64, err error) {
	f := booking.FieldErrors{}
	limit = 50
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100 {
			f.Add("limit", "out_of_range")
		}
		limit = n
	}
	if s := q.Get("cursor"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			f.Add("cursor", "invalid_type")
		}
		cursor = n
	}
	return limit, cursor, f.Err()
}

// queryDate reads an optional YYYY-MM-DD query parameter.
func queryDate(q url.Values, name string, f booking.FieldErrors) civil.Date {
	s := q.Get(name)
	if s == "" {
		return civil.Date{}
	}
	d, err := civil.Parse(s)
	if err != nil {
		f.Add(name, "invalid_date")
	}
	return d
}

// queryRange reads the required YYYY-MM-DD query parameters from and
// to of a range of dates.
func queryRange(q url.Values) (from, to civil.Date, err error) {
	f := booking.FieldErrors{}
	from, to = queryDate(q, "from", f), queryDate(q, "to", f)
	if from.IsZero() && len(f["from"]) == 0 {
		f.Add("from", "required")
	}
	if to.IsZero() && len(f["to"]) == 0 {
		f.Add("to", "required")
	}
	return from, to, f.Err()
}

// list is a page of a list.
type list[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

func newList[T any](items []T, next int64) list[T] {
	l := list[T]{Items: items}
	if l.Items == nil {
		l.Items = []T{}
	}
	if next > 0 {
		s := strconv.FormatInt(next, 10)
		l.NextCursor = &s
	}
	return l
}

// pageByID pages a list already sorted by ascending ID: the items after
// cursor (0: from the start), at most limit of them as views, and the
// cursor of the next page (0 when this is the last).
func pageByID[T, V any](all []T, id func(*T) int64, view func(*T) V, limit int, cursor int64) ([]V, int64) {
	var items []V
	var last int64
	for i := range all {
		if cursor > 0 && id(&all[i]) <= cursor {
			continue
		}
		if len(items) == limit {
			return items, last
		}
		items = append(items, view(&all[i]))
		last = id(&all[i])
	}
	return items, 0
}
