package plantstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/staykit/staykit/plantstore"
)

const (
	goodToken  = "s3cret-token"
	otherToken = "another-longer-token-for-the-same-store"
)

// existing is in the store before each scenario.
var existing = plantstore.Plant{ID: 42, Name: "Monstera", Tag: "aroid"}

// docVerdict says what the OpenAPI document must say of a scenario's request.
type docVerdict int

const (
	docSilent  docVerdict = iota // not asserted (the handler is stricter or laxer)
	docAccepts                   // the request is valid for the document
	docRejects                   // the request is invalid for the document
)

// scenario is one request through the handler. Headers default to an
// accepted bearer token and Content-Type application/json; header entries
// override them, an empty value removes the header.
type scenario struct {
	name          string
	method        string // default POST
	path          string // default /plants
	header        map[string]string
	body          string
	unknownLength bool // send the body without Content-Length

	wantStatus  int
	wantBody    string            // 200: the exact response body
	wantMessage string            // errors: a substring of message
	wantHeader  map[string]string // exact header values
	doc         docVerdict
}

func (sc scenario) request() *http.Request {
	method, path := sc.method, sc.path
	if method == "" {
		method = http.MethodPost
	}
	if path == "" {
		path = "/plants"
	}
	req := httptest.NewRequest(method, path, strings.NewReader(sc.body))
	req.Header.Set("Authorization", "Bearer "+goodToken)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range sc.header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	if sc.unknownLength {
		req.ContentLength = -1
	}
	return req
}

// padded returns a valid NewPlant body of exactly n bytes.
func padded(n int) string {
	head, tail := `{"id":7,"name":"Fern","padding":"`, `"}`
	return head + strings.Repeat("a", n-len(head)-len(tail)) + tail
}

func scenarios() []scenario {
	const fern = `{"id":1,"name":"Fern","tag":"fern"}`
	return []scenario{
		// 200
		{name: "Created", body: fern, wantStatus: 200, wantBody: fern, doc: docAccepts},
		{name: "CreatedWithoutTag", body: `{"id":1,"name":"Fern"}`, wantStatus: 200, wantBody: `{"id":1,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedNullTagIsNoTag", body: `{"id":1,"name":"Fern","tag":null}`, wantStatus: 200, wantBody: `{"id":1,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedEmptyTagIsNoTag", body: `{"id":1,"name":"Fern","tag":""}`, wantStatus: 200, wantBody: `{"id":1,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedNegativeID", body: `{"id":-5,"name":"Fern"}`, wantStatus: 200, wantBody: `{"id":-5,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedZeroID", body: `{"id":0,"name":"Fern"}`, wantStatus: 200, wantBody: `{"id":0,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedMaxInt64", body: `{"id":9223372036854775807,"name":"Fern"}`, wantStatus: 200, wantBody: `{"id":9223372036854775807,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedMinInt64", body: `{"id":-9223372036854775808,"name":"Fern"}`, wantStatus: 200, wantBody: `{"id":-9223372036854775808,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedUnknownFieldsIgnored", body: `{"id":1,"name":"Fern","colour":"green","id2":[1]}`, wantStatus: 200, wantBody: `{"id":1,"name":"Fern"}`, doc: docAccepts},
		{name: "CreatedWhitespaceAroundBody", body: " \n" + fern + "\n\t ", wantStatus: 200, wantBody: fern, doc: docAccepts},
		{name: "CreatedNameKeptAsSent", body: `{"id":1,"name":" Fern \u00e9"}`, wantStatus: 200, wantBody: `{"id":1,"name":" Fern é"}`, doc: docAccepts},
		{name: "CreatedCharsetUTF8", header: map[string]string{"Content-Type": "application/json; charset=UTF-8"}, body: fern, wantStatus: 200, wantBody: fern, doc: docAccepts},
		{name: "CreatedLowercaseScheme", header: map[string]string{"Authorization": "bearer " + goodToken}, body: fern, wantStatus: 200, wantBody: fern, doc: docAccepts},
		{name: "CreatedSecondToken", header: map[string]string{"Authorization": "Bearer " + otherToken}, body: fern, wantStatus: 200, wantBody: fern, doc: docAccepts},
		{name: "CreatedBodyOfExactly64KiB", body: padded(plantstore.MaxBodyBytes), wantStatus: 200, wantBody: `{"id":7,"name":"Fern"}`, doc: docAccepts},

		// 400
		{name: "ErrMalformedJSON", body: `{"id":1,"name":`, wantStatus: 400, wantMessage: "not valid JSON", doc: docRejects},
		{name: "ErrEmptyBody", body: ``, wantStatus: 400, wantMessage: "not valid JSON", doc: docRejects},
		{name: "ErrBodyArray", body: `[{"id":1,"name":"Fern"}]`, wantStatus: 400, wantMessage: "JSON object", doc: docRejects},
		{name: "ErrBodyString", body: `"Fern"`, wantStatus: 400, wantMessage: "JSON object", doc: docRejects},
		{name: "ErrBodyNull", body: `null`, wantStatus: 400, wantMessage: "JSON object", doc: docRejects},
		{name: "ErrTrailingObject", body: fern + `{}`, wantStatus: 400, wantMessage: "single JSON object"},
		{name: "ErrTrailingGarbage", body: fern + `x`, wantStatus: 400, wantMessage: "single JSON object"},
		{name: "ErrIDMissing", body: `{"name":"Fern"}`, wantStatus: 400, wantMessage: "id is required", doc: docRejects},
		{name: "ErrIDNull", body: `{"id":null,"name":"Fern"}`, wantStatus: 400, wantMessage: "id is required", doc: docRejects},
		{name: "ErrIDFraction", body: `{"id":1.5,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer", doc: docRejects},
		{name: "ErrIDIntegralFraction", body: `{"id":1.0,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer"},
		{name: "ErrIDExponent", body: `{"id":1e3,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer"},
		{name: "ErrIDString", body: `{"id":"7","name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer", doc: docRejects},
		{name: "ErrIDBool", body: `{"id":true,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer", doc: docRejects},
		{name: "ErrIDObject", body: `{"id":{"n":1},"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be an integer", doc: docRejects},
		{name: "ErrIDAboveInt64", body: `{"id":9223372036854775808,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be between"},
		{name: "ErrIDBelowInt64", body: `{"id":-9223372036854775809,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be between"},
		{name: "ErrIDHuge", body: `{"id":` + strings.Repeat("9", 400) + `,"name":"Fern"}`, wantStatus: 400, wantMessage: "id must be between"},
		{name: "ErrNameMissing", body: `{"id":1}`, wantStatus: 400, wantMessage: "name is required", doc: docRejects},
		{name: "ErrNameNull", body: `{"id":1,"name":null}`, wantStatus: 400, wantMessage: "name is required", doc: docRejects},
		{name: "ErrNameNumber", body: `{"id":1,"name":5}`, wantStatus: 400, wantMessage: "name must be a string", doc: docRejects},
		{name: "ErrNameEmpty", body: `{"id":1,"name":""}`, wantStatus: 400, wantMessage: "name must not be blank", doc: docRejects},
		{name: "ErrNameBlank", body: `{"id":1,"name":" \t\u00a0"}`, wantStatus: 400, wantMessage: "name must not be blank", doc: docRejects},
		{name: "ErrNameBlankUnicode", body: `{"id":1,"name":"\u2003\u3000\u0085\n"}`, wantStatus: 400, wantMessage: "name must not be blank", doc: docRejects},
		{name: "CreatedNameOfOneNonSpace", body: `{"id":1,"name":"\u00a0x\u2003"}`, wantStatus: 200, wantBody: "{\"id\":1,\"name\":\"\u00a0x\u2003\"}", doc: docAccepts},
		{name: "ErrTagNumber", body: `{"id":1,"name":"Fern","tag":5}`, wantStatus: 400, wantMessage: "tag must be a string", doc: docRejects},
		{name: "ErrTagArray", body: `{"id":1,"name":"Fern","tag":["a"]}`, wantStatus: 400, wantMessage: "tag must be a string", doc: docRejects},

		// 401
		{name: "ErrNoToken", header: map[string]string{"Authorization": ""}, body: fern, wantStatus: 401,
			wantMessage: "token is required", wantHeader: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "ErrWrongToken", header: map[string]string{"Authorization": "Bearer nope"}, body: fern, wantStatus: 401,
			wantMessage: "not valid", wantHeader: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}},
		{name: "ErrTokenPrefix", header: map[string]string{"Authorization": "Bearer " + goodToken[:len(goodToken)-1]}, body: fern, wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}},
		{name: "ErrTokenCaseDiffers", header: map[string]string{"Authorization": "Bearer " + strings.ToUpper(goodToken)}, body: fern, wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`}},
		{name: "ErrBasicScheme", header: map[string]string{"Authorization": "Basic " + goodToken}, body: fern, wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "ErrBearerWithoutToken", header: map[string]string{"Authorization": "Bearer "}, body: fern, wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "ErrTokenWithoutScheme", header: map[string]string{"Authorization": goodToken}, body: fern, wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "ErrNoTokenBeforeBadBody", header: map[string]string{"Authorization": "", "Content-Type": "text/plain"}, body: `{`, wantStatus: 401},
		{name: "ErrNoTokenBeforeMethod", method: http.MethodGet, header: map[string]string{"Authorization": ""}, wantStatus: 401},
		{name: "ErrNoTokenBeforePath", path: "/trees", header: map[string]string{"Authorization": ""}, wantStatus: 401},

		// 409
		{name: "ErrIDExists", body: `{"id":42,"name":"Another"}`, wantStatus: 409, wantMessage: "id 42 exists", doc: docAccepts},

		// 413
		{name: "ErrBodyOver64KiB", body: padded(65 << 10), wantStatus: 413, wantMessage: "65536 bytes"},
		{name: "ErrBodyOver64KiBByOneByte", body: padded(plantstore.MaxBodyBytes + 1), wantStatus: 413},
		{name: "ErrBodyOver64KiBUnknownLength", body: padded(65 << 10), unknownLength: true, wantStatus: 413},
		{name: "ErrMalformedBodyOver64KiB", body: "{" + strings.Repeat("x", 65<<10), unknownLength: true, wantStatus: 413},

		// 415
		{name: "ErrNoContentType", header: map[string]string{"Content-Type": ""}, body: fern, wantStatus: 415, wantMessage: "application/json", doc: docRejects},
		{name: "ErrTextPlain", header: map[string]string{"Content-Type": "text/plain"}, body: fern, wantStatus: 415, doc: docRejects},
		{name: "ErrFormEncoded", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, body: "id=1&name=Fern", wantStatus: 415, doc: docRejects},
		{name: "ErrCharsetLatin1", header: map[string]string{"Content-Type": "application/json; charset=iso-8859-1"}, body: fern, wantStatus: 415},
		{name: "ErrBadMediaType", header: map[string]string{"Content-Type": "application/json; ;"}, body: fern, wantStatus: 415},

		// 405
		{name: "ErrGet", method: http.MethodGet, wantStatus: 405, wantHeader: map[string]string{"Allow": "POST"}, wantMessage: "GET"},
		{name: "ErrPut", method: http.MethodPut, body: fern, wantStatus: 405, wantHeader: map[string]string{"Allow": "POST"}},
		{name: "ErrDelete", method: http.MethodDelete, wantStatus: 405, wantHeader: map[string]string{"Allow": "POST"}},
		{name: "ErrHead", method: http.MethodHead, wantStatus: 405, wantHeader: map[string]string{"Allow": "POST"}},
		{name: "ErrOptions", method: http.MethodOptions, wantStatus: 405, wantHeader: map[string]string{"Allow": "POST"}},

		// 404
		{name: "ErrRoot", method: http.MethodGet, path: "/", wantStatus: 404},
		{name: "ErrPlantByID", method: http.MethodGet, path: "/plants/1", wantStatus: 404},
		{name: "ErrPostPlantsSlash", path: "/plants/", body: fern, wantStatus: 404},
		{name: "ErrOtherPath", path: "/trees", body: fern, wantStatus: 404},
	}
}

// newStore returns a store holding existing.
func newStore(tb testing.TB) *plantstore.MemoryStore {
	tb.Helper()
	store := &plantstore.MemoryStore{}
	if err := store.CreatePlant(context.Background(), existing); err != nil {
		tb.Fatalf("seed store: %v", err)
	}
	return store
}

func newHandler(store plantstore.Store) http.Handler {
	return plantstore.New(plantstore.Options{Store: store, Tokens: []string{goodToken, otherToken}})
}

func TestCreatePlant(t *testing.T) {
	api := loadContract(t)
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			store := newStore(t)
			rec := httptest.NewRecorder()
			req := sc.request()
			newHandler(store).ServeHTTP(rec, req)

			if got, want := rec.Code, sc.wantStatus; got != want {
				t.Fatalf("status = %d, want %d; body %s", got, want, rec.Body.Bytes())
			}
			if got, want := rec.Header().Get("Content-Type"), "application/json"; got != want {
				t.Errorf("Content-Type = %q, want %q", got, want)
			}
			for k, want := range sc.wantHeader {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if sc.wantStatus == http.StatusOK {
				checkCreated(t, store, rec.Body.Bytes(), sc.wantBody)
			} else {
				checkError(t, rec, sc.wantMessage)
				checkStoreUnchanged(t, store)
			}
			api.checkResponse(t, req, rec)

			switch err := api.requestError(t, req.Method, req.URL.Path, req.Header, []byte(sc.body)); sc.doc {
			case docAccepts:
				if err != nil {
					t.Errorf("the OpenAPI document refuses the request: %v", err)
				}
			case docRejects:
				if err == nil {
					t.Errorf("the OpenAPI document accepts the request, want it refused")
				}
			}
		})
	}
}

// checkCreated compares a 200 body with want and with the stored plant.
func checkCreated(tb testing.TB, store plantstore.Store, body []byte, want string) {
	tb.Helper()
	if got := strings.TrimSpace(string(body)); got != want {
		tb.Errorf("body = %s, want %s", got, want)
	}
	var created plantstore.Plant
	if err := json.Unmarshal(body, &created); err != nil {
		tb.Fatalf("decode body: %v", err)
	}
	stored, found, err := store.Plant(context.Background(), created.ID)
	if err != nil || !found {
		tb.Fatalf("store.Plant(%d) = found %v, err %v; want the created plant", created.ID, found, err)
	}
	if stored != created {
		tb.Errorf("stored %+v, response %+v; want equal", stored, created)
	}
}

// checkError checks an Error body: error is the status, message says why.
func checkError(tb testing.TB, rec *httptest.ResponseRecorder, wantMessage string) {
	tb.Helper()
	var body struct {
		Error   *int    `json:"error"`
		Message *string `json:"message"`
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		tb.Fatalf("decode error body %s: %v", rec.Body.Bytes(), err)
	}
	if body.Error == nil || *body.Error != rec.Code {
		tb.Errorf("error = %v, want %d", body.Error, rec.Code)
	}
	if body.Message == nil || *body.Message == "" {
		tb.Fatalf("message missing in %s", rec.Body.Bytes())
	}
	if !strings.Contains(*body.Message, wantMessage) {
		tb.Errorf("message = %q, want it to contain %q", *body.Message, wantMessage)
	}
}

// checkStoreUnchanged checks that the store still holds existing alone
// (ids of the table's bodies: 1, 7, 42, -5, 0 and the int64 bounds).
func checkStoreUnchanged(tb testing.TB, store plantstore.Store) {
	tb.Helper()
	got, found, err := store.Plant(context.Background(), existing.ID)
	if err != nil || !found || got != existing {
		tb.Errorf("store.Plant(%d) = %+v, %v, %v; want %+v, true, nil", existing.ID, got, found, err, existing)
	}
	for _, id := range []int64{1, 7, -5, 0} {
		if p, found, _ := store.Plant(context.Background(), id); found {
			tb.Errorf("store holds %+v after a refused request", p)
		}
	}
}
