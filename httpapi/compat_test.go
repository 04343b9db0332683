package httpapi_test

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// v1 is frozen: testdata/openapi-v1-baseline.json is the document as it
// was frozen, and the current document may only add to it. breakingChanges
// is the judge.

const baselinePath = "testdata/openapi-v1-baseline.json"

// direction says who sends a value, for what is compatible differs: what
// the server sends may narrow (a client copes with fewer kinds of values),
// what a client sends may widen (its old requests stay valid).
type direction int

const (
	fromClient direction = iota // parameters and request bodies
	fromServer                  // response headers and bodies
)

// compat collects the breaking changes from a base document to the next.
type compat struct {
	problems []string
}

func (c *compat) add(at, format string, args ...any) {
	c.problems = append(c.problems, at+": "+fmt.Sprintf(format, args...))
}

// breakingChanges lists what next breaks for a client of base: a path, an
// operation, a response status, a response header, a parameter or a field
// (recursively through properties, items and allOf, $refs resolved) that
// disappears; an enum value that disappears; a request field or
// parameter that becomes required, a response field that stops being
// required; a type that changes, unless a response narrows or a request
// widens. Anything else (additions) is compatible.
func breakingChanges(base, next *openapi3.T) []string {
	var c compat
	for _, path := range slices.Sorted(maps.Keys(base.Paths.Map())) {
		bItem, nItem := base.Paths.Value(path), next.Paths.Value(path)
		if nItem == nil {
			c.add(path, "path removed")
			continue
		}
		bOps := bItem.Operations()
		for _, method := range slices.Sorted(maps.Keys(bOps)) {
			at := method + " " + path
			nOp := nItem.GetOperation(method)
			if nOp == nil {
				c.add(at, "operation removed")
				continue
			}
			bOp := bOps[method]
			c.parameters(at, append(bItem.Parameters, bOp.Parameters...), append(nItem.Parameters, nOp.Parameters...))
			c.requestBody(at, bOp.RequestBody, nOp.RequestBody)
			c.responses(at, bOp.Responses, nOp.Responses)
		}
	}
	return c.problems
}

func (c *compat) parameters(at string, base, next openapi3.Parameters) {
	key := func(p *openapi3.Parameter) string {
		if p.In == openapi3.ParameterInHeader {
			return p.In + " " + strings.ToLower(p.Name)
		}
		return p.In + " " + p.Name
	}
	index := func(ps openapi3.Parameters) map[string]*openapi3.Parameter {
		m := map[string]*openapi3.Parameter{}
		for _, p := range ps {
			if p.Value != nil {
				m[key(p.Value)] = p.Value
			}
		}
		return m
	}
	b, n := index(base), index(next)
	for _, k := range slices.Sorted(maps.Keys(b)) {
		where := at + " parameter " + k
		switch {
		case n[k] == nil:
			c.add(where, "parameter removed")
		case !b[k].Required && n[k].Required:
			c.add(where, "parameter became required")
		default:
			c.schema(where, refs(b[k].Schema), refs(n[k].Schema), fromClient, 0)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(n)) {
		if b[k] == nil && n[k].Required {
			c.add(at+" parameter "+k, "new required parameter")
		}
	}
}

func (c *compat) requestBody(at string, base, next *openapi3.RequestBodyRef) {
	at += " request body"
	bRequired := base != nil && base.Value != nil && base.Value.Required
	nRequired := next != nil && next.Value != nil && next.Value.Required
	if !bRequired && nRequired {
		c.add(at, "became required")
	}
	if base == nil || base.Value == nil {
		return
	}
	if next == nil || next.Value == nil {
		c.add(at, "removed")
		return
	}
	c.content(at, base.Value.Content, next.Value.Content, fromClient)
}

func (c *compat) responses(at string, base, next *openapi3.Responses) {
	for _, status := range slices.Sorted(maps.Keys(base.Map())) {
		where := at + " " + status
		b, n := base.Value(status), next.Value(status)
		if n == nil || n.Value == nil {
			c.add(where, "response status removed")
			continue
		}
		if b.Value == nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(b.Value.Headers)) {
			bh, nh := b.Value.Headers[name], header(n.Value.Headers, name)
			if nh == nil {
				c.add(where+" header "+name, "response header removed")
				continue
			}
			if bh.Value.Required && !nh.Required {
				c.add(where+" header "+name, "response header no longer always sent")
			}
			c.schema(where+" header "+name, refs(bh.Value.Schema), refs(nh.Schema), fromServer, 0)
		}
		c.content(where, b.Value.Content, n.Value.Content, fromServer)
	}
}

// header finds a header by its case-insensitive name.
func header(hs openapi3.Headers, name string) *openapi3.Header {
	for k, h := range hs {
		if strings.EqualFold(k, name) && h.Value != nil {
			return h.Value
		}
	}
	return nil
}

func (c *compat) content(at string, base, next openapi3.Content, dir direction) {
	for _, mime := range slices.Sorted(maps.Keys(base)) {
		if next[mime] == nil {
			c.add(at+" "+mime, "media type removed")
			continue
		}
		c.schema(at+" "+mime+" body", refs(base[mime].Schema), refs(next[mime].Schema), dir, 0)
	}
}

// refs makes a list of one schema, none when nil.
func refs(r *openapi3.SchemaRef) []*openapi3.SchemaRef {
	if r == nil {
		return nil
	}
	return []*openapi3.SchemaRef{r}
}

// shape is what a value must be under a list of schemas that all apply
// (a schema and its allOf parts, merged).
type shape struct {
	types    []string // nil: any type
	values   []any    // enum or const; nil: any value
	props    map[string][]*openapi3.SchemaRef
	required map[string]bool
	items    []*openapi3.SchemaRef
	mapOf    []*openapi3.SchemaRef // additionalProperties schemas
}

func shapeOf(list []*openapi3.SchemaRef) shape {
	sh := shape{props: map[string][]*openapi3.SchemaRef{}, required: map[string]bool{}}
	var add func(r *openapi3.SchemaRef)
	add = func(r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil {
			return
		}
		s := r.Value
		if sh.types == nil && s.Type != nil && len(*s.Type) > 0 {
			sh.types = s.Type.Slice()
		}
		if sh.values == nil && len(s.Enum) > 0 {
			sh.values = s.Enum
		}
		if sh.values == nil && s.Const != nil {
			sh.values = []any{s.Const}
		}
		for name, p := range s.Properties {
			sh.props[name] = append(sh.props[name], p)
		}
		for _, name := range s.Required {
			sh.required[name] = true
		}
		if s.Items != nil {
			sh.items = append(sh.items, s.Items)
		}
		if s.AdditionalProperties.Schema != nil {
			sh.mapOf = append(sh.mapOf, s.AdditionalProperties.Schema)
		}
		for _, sub := range s.AllOf {
			add(sub)
		}
	}
	for _, r := range list {
		add(r)
	}
	return sh
}

// maxDepth stops the walk of a (hypothetical) recursive schema.
const maxDepth = 32

// schema compares what a value must be under base and under next.
func (c *compat) schema(at string, base, next []*openapi3.SchemaRef, dir direction, depth int) {
	if len(base) == 0 || depth > maxDepth {
		return
	}
	b, n := shapeOf(base), shapeOf(next)
	if dir == fromServer && !within(n.types, b.types) || dir == fromClient && !within(b.types, n.types) {
		c.add(at, "type changed from %v to %v", typeList(b.types), typeList(n.types))
	}
	for _, v := range b.values {
		if n.values != nil && !slices.ContainsFunc(n.values, func(w any) bool { return reflect.DeepEqual(v, w) }) {
			c.add(at, "enum value %v removed", v)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.props)) {
		if _, ok := n.props[name]; !ok {
			c.add(at+"."+name, "field removed")
			continue
		}
		if dir == fromServer && b.required[name] && !n.required[name] {
			c.add(at+"."+name, "response field no longer required")
		}
		c.schema(at+"."+name, b.props[name], n.props[name], dir, depth+1)
	}
	if dir == fromClient {
		for _, name := range slices.Sorted(maps.Keys(n.required)) {
			if !b.required[name] {
				c.add(at+"."+name, "request field became required")
			}
		}
	}
	if len(b.items) > 0 {
		c.schema(at+"[]", b.items, n.items, dir, depth+1)
	}
	if len(b.mapOf) > 0 {
		c.schema(at+"{}", b.mapOf, n.mapOf, dir, depth+1)
	}
}

// within reports whether every type of types is one of outer (nil: any
// type); an integer is a number.
func within(types, outer []string) bool {
	if outer == nil {
		return true
	}
	if types == nil {
		return false
	}
	for _, t := range types {
		if !slices.Contains(outer, t) && !(t == "integer" && slices.Contains(outer, "number")) {
			return false
		}
	}
	return true
}

func typeList(types []string) string {
	if types == nil {
		return "any"
	}
	return "[" + strings.Join(types, ",") + "]"
}

// loadFile loads and validates an OpenAPI document from a file.
func loadFile(t *testing.T, path string) *openapi3.T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := loadDocument(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc
}

func TestOpenAPICompatibleWithBaseline(t *testing.T) {
	base, next := loadFile(t, baselinePath), loadFile(t, openAPIPath)
	if got := breakingChanges(base, next); len(got) > 0 {
		t.Errorf("%s breaks v1 as frozen in %s; v1 may only grow (a breaking change belongs in /api/v2/):\n%s",
			openAPIPath, baselinePath, strings.Join(got, "\n"))
	}
}

func TestBreakingChangesOfTheDocument(t *testing.T) {
	const (
		config   = "/api/v1/book/{org_slug}"
		price    = "/api/v1/book/{org_slug}/properties/{id}/price"
		checkout = "/api/v1/book/{org_slug}/checkout"
		confirm  = "/api/v1/book/{org_slug}/booking/{token}/confirm"
	)
	schema := func(doc *openapi3.T, name string) *openapi3.Schema { return doc.Components.Schemas[name].Value }
	param := func(op *openapi3.Operation, name string) *openapi3.Parameter {
		for _, p := range op.Parameters {
			if p.Value.Name == name {
				return p.Value
			}
		}
		t.Fatalf("no parameter %s", name)
		return nil
	}
	without := func(values []any, v any) []any {
		return slices.DeleteFunc(slices.Clone(values), func(w any) bool { return w == v })
	}
	tests := []struct {
		name   string
		mutate func(doc *openapi3.T)
		// want is a part of one of the problems expected, "" when the
		// change is compatible.
		want string
	}{
		{"path removed", func(doc *openapi3.T) { doc.Paths.Delete("/api/v1/book/{org_slug}/properties") },
			"/api/v1/book/{org_slug}/properties: path removed"},
		{"operation removed", func(doc *openapi3.T) { doc.Paths.Value(checkout).Post = nil },
			"POST " + checkout + ": operation removed"},
		{"response status removed", func(doc *openapi3.T) { doc.Paths.Value(checkout).Post.Responses.Delete("409") },
			"POST " + checkout + " 409: response status removed"},
		{"response header removed", func(doc *openapi3.T) {
			delete(doc.Components.Responses["TooManyRequests"].Value.Headers, "Retry-After")
		}, "POST " + checkout + " 429 header Retry-After: response header removed"},
		{"header value changed", func(doc *openapi3.T) { doc.Components.Headers["APIVersion"].Value.Schema.Value.Const = "v2" },
			"GET " + config + " 200 header X-Service-API-Version: enum value v1 removed"},
		{"nested response field removed", func(doc *openapi3.T) {
			delete(schema(doc, "Config").Properties["organization"].Value.Properties, "logo")
		}, "GET " + config + " 200 application/json body.data.organization.logo: field removed"},
		{"field of array items removed", func(doc *openapi3.T) { delete(schema(doc, "Day").Properties, "min_stay") },
			"body.data.days[].min_stay: field removed"},
		{"field of an allOf part removed", func(doc *openapi3.T) { delete(schema(doc, "Failure").Properties, "field_codes") },
			"POST " + checkout + " 422 application/json body.field_codes: field removed"},
		{"response field no longer required", func(doc *openapi3.T) {
			s := schema(doc, "Property")
			s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return n == "price_from" })
		}, "body.data[].price_from: response field no longer required"},
		{"enum value removed", func(doc *openapi3.T) {
			s := schema(doc, "BookingState")
			s.Enum = without(s.Enum, "expired")
		}, "GET /api/v1/book/{org_slug}/booking/{token} 200 application/json body.data.status: enum value expired removed"},
		{"error code removed", func(doc *openapi3.T) {
			code := doc.Components.Responses["UnprocessableEntity"].Value.Content.Get("application/json").Schema.Value.AllOf[1].Value.Properties["code"].Value
			code.Enum = without(code.Enum, "coupon_expired")
		}, "POST " + checkout + " 422 application/json body.code: enum value coupon_expired removed"},
		{"request enum value removed", func(doc *openapi3.T) {
			s := schema(doc, "Locale")
			s.Enum = without(s.Enum, "en")
		}, "POST " + checkout + " request body application/json body.locale: enum value en removed"},
		{"request field became required", func(doc *openapi3.T) {
			s := schema(doc, "CheckoutRequest")
			s.Required = append(slices.Clone(s.Required), "message")
		}, "POST " + checkout + " request body application/json body.message: request field became required"},
		{"parameter became required", func(doc *openapi3.T) { param(doc.Paths.Value(price).Get, "guests_count").Required = true },
			"GET " + price + " parameter query guests_count: parameter became required"},
		{"new required parameter", func(doc *openapi3.T) {
			op := doc.Paths.Value(config).Get
			op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: openapi3.NewHeaderParameter("X-Api-Key").WithRequired(true)})
		}, "GET " + config + " parameter header x-api-key: new required parameter"},
		{"request body became required", func(doc *openapi3.T) { doc.Paths.Value(confirm).Post.RequestBody.Value.Required = true },
			"POST " + confirm + " request body: became required"},
		{"response field type changed", func(doc *openapi3.T) {
			schema(doc, "Property").Properties["max_guests"].Value.Type = &openapi3.Types{"string"}
		}, "body.data[].max_guests: type changed from [integer] to [string]"},
		{"response field became nullable", func(doc *openapi3.T) {
			schema(doc, "Config").Properties["payment_public_key"].Value.Type = &openapi3.Types{"string", "null"}
		}, "body.data.payment_public_key: type changed from [string] to [string,null]"},
		{"request field type narrowed", func(doc *openapi3.T) {
			schema(doc, "CheckoutRequest").Properties["guests_count"].Value.Type = &openapi3.Types{"string"}
		}, "body.guests_count: type changed from [integer] to [string]"},

		{"new path", func(doc *openapi3.T) {
			doc.Paths.Set("/api/v1/book/{org_slug}/reviews", &openapi3.PathItem{Get: &openapi3.Operation{Responses: openapi3.NewResponses()}})
		}, ""},
		{"new response field", func(doc *openapi3.T) {
			schema(doc, "Config").Properties["website"] = openapi3.NewStringSchema().NewRef()
		}, ""},
		{"new enum value", func(doc *openapi3.T) {
			s := schema(doc, "BookingState")
			s.Enum = append(slices.Clone(s.Enum), "refunded")
		}, ""},
		{"new optional request field", func(doc *openapi3.T) {
			schema(doc, "CheckoutRequest").Properties["company"] = openapi3.NewStringSchema().NewRef()
		}, ""},
		{"new response status", func(doc *openapi3.T) {
			doc.Paths.Value(checkout).Post.Responses.Set("503", doc.Components.Responses["InternalError"])
		}, ""},
		{"new optional parameter", func(doc *openapi3.T) {
			op := doc.Paths.Value(config).Get
			op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: openapi3.NewQueryParameter("fields")})
		}, ""},
		{"request field made optional", func(doc *openapi3.T) {
			s := schema(doc, "CheckoutRequest")
			s.Required = slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return n == "guest_phone" })
		}, ""},
		{"request field widened", func(doc *openapi3.T) {
			schema(doc, "CheckoutRequest").Properties["guests_count"].Value.Type = &openapi3.Types{"integer", "string"}
		}, ""},
		{"response field narrowed", func(doc *openapi3.T) {
			schema(doc, "Quote").Properties["coupon"].Value.Type = &openapi3.Types{"string"}
		}, ""},
		{"response number narrowed to integer", func(doc *openapi3.T) {
			schema(doc, "Amount").Type = &openapi3.Types{"integer"}
		}, ""},
	}
	base := loadFile(t, baselinePath)
	data, err := os.ReadFile(baselinePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A fresh copy to mutate; it was validated as base.
			next, err := openapi3.NewLoader().LoadFromData(data)
			if err != nil {
				t.Fatal(err)
			}
			tt.mutate(next)
			got := breakingChanges(base, next)
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("a compatible change is reported as breaking:\n%s", strings.Join(got, "\n"))
				}
				return
			}
			if len(got) == 0 {
				t.Fatalf("breaking change not detected (want %q)", tt.want)
			}
			found := slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, tt.want) })
			if !found {
				t.Errorf("problems do not include %q:\n%s", tt.want, strings.Join(got, "\n"))
			}
		})
	}
}
