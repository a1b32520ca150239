package discordtest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Discord's OpenAPI description of its HTTP API (v10), from
// github.com/discord/discord-api-spec (specs/openapi.json as of its commit
// 74fda0f, MIT licence in testdata/openapi.LICENSE). With Options.OpenAPI the fake checks the JSON
// body of every request it takes against the request body schema of the
// operation the spec gives for its path and method, and lists each
// mismatch as a violation ("openapi: ...").
//
//go:embed testdata/openapi.json
var openAPIJSON []byte

// The JSON Schema keywords the check knows, every one the spec's schemas
// assert: type (a name or a list of names), const, enum, properties,
// required, additionalProperties (false or a schema), items, minItems,
// maxItems, uniqueItems, minLength, maxLength (in characters), pattern,
// minimum, maximum, minProperties, maxProperties, allOf, oneOf and anyOf,
// and $ref into the spec's components. oneOf is checked as "at least one
// alternative fits": the spec's alternatives overlap where Discord tells
// them apart by context, so "exactly one" would refuse valid requests.
// Formats (snowflake, uri, int64...) and contentEncoding are annotations
// and not checked.

// apiSpec is the parsed spec: its paths, split into segments, and its
// component schemas.
type apiSpec struct {
	paths   []apiPath
	schemas map[string]any
}

type apiPath struct {
	segs []string
	ops  map[string]any // method (lower case) -> operation
}

var (
	specOnce   sync.Once
	specParsed *apiSpec
	specErr    error
)

// loadSpec parses the embedded spec once.
func loadSpec() (*apiSpec, error) {
	specOnce.Do(func() {
		var doc struct {
			Paths      map[string]map[string]any `json:"paths"`
			Components struct {
				Schemas map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if specErr = json.Unmarshal(openAPIJSON, &doc); specErr != nil {
			return
		}
		sp := &apiSpec{schemas: doc.Components.Schemas}
		for p, ops := range doc.Paths {
			sp.paths = append(sp.paths, apiPath{segs: strings.Split(strings.Trim(p, "/"), "/"), ops: ops})
		}
		// Literal segments win over parameters (/users/@me/channels over
		// /users/{user_id}/...): fewer parameters first.
		sort.SliceStable(sp.paths, func(i, j int) bool { return params(sp.paths[i].segs) < params(sp.paths[j].segs) })
		specParsed = sp
	})
	return specParsed, specErr
}

func params(segs []string) int {
	n := 0
	for _, s := range segs {
		if strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

// checkBody checks a request's JSON body against the spec's schema for
// its method and path (without /api/vN). It returns the mismatches, none
// when the spec has no JSON body for the operation.
func (sp *apiSpec) checkBody(method, path string, body []byte) []string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for _, p := range sp.paths {
		if !segsMatch(p.segs, segs) {
			continue
		}
		op, _ := p.ops[strings.ToLower(method)].(map[string]any)
		if op == nil {
			return []string{fmt.Sprintf("%s %s: the spec has no such operation", method, path)}
		}
		schema := bodySchema(op)
		if schema == nil || len(strings.TrimSpace(string(body))) == 0 {
			return nil
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return []string{fmt.Sprintf("%s %s: body is not JSON: %v", method, path, err)}
		}
		var errs []string
		sp.check(schema, v, "body", &errs, 0)
		return errs
	}
	return []string{fmt.Sprintf("%s %s: no path of the spec matches", method, path)}
}

func segsMatch(tmpl, segs []string) bool {
	if len(tmpl) != len(segs) {
		return false
	}
	for i, t := range tmpl {
		if !strings.HasPrefix(t, "{") && t != segs[i] {
			return false
		}
	}
	return true
}

// bodySchema is an operation's JSON request body schema: application/json,
// or the payload_json part of multipart/form-data.
func bodySchema(op map[string]any) any {
	rb, _ := op["requestBody"].(map[string]any)
	content, _ := rb["content"].(map[string]any)
	if j, ok := content["application/json"].(map[string]any); ok {
		return j["schema"]
	}
	if m, ok := content["multipart/form-data"].(map[string]any); ok {
		s, _ := m["schema"].(map[string]any)
		props, _ := s["properties"].(map[string]any)
		if pj, ok := props["payload_json"]; ok {
			return pj
		}
		return s
	}
	return nil
}

// resolve follows a $ref into the spec's components.
func (sp *apiSpec) resolve(s map[string]any) map[string]any {
	for range 20 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next, _ := sp.schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if next == nil {
			return map[string]any{}
		}
		s = next
	}
	return s
}

// check appends to errs where v does not fit schema, at path.
func (sp *apiSpec) check(schema any, v any, path string, errs *[]string, depth int) {
	s, ok := schema.(map[string]any)
	if !ok || depth > 40 {
		return
	}
	s = sp.resolve(s)
	fail := func(format string, args ...any) {
		*errs = append(*errs, path+": "+fmt.Sprintf(format, args...))
	}
	if t, ok := s["type"]; ok && !typeFits(t, v) {
		fail("%s is not of type %v", describe(v), t)
		return
	}
	if c, ok := s["const"]; ok && !sameJSON(c, v) {
		fail("%s is not the constant %v", describe(v), c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return sameJSON(x, v) }) {
		fail("%s is not one of %v", describe(v), e)
	}
	for _, key := range []string{"allOf"} {
		if list, ok := s[key].([]any); ok {
			for _, sub := range list {
				sp.check(sub, v, path, errs, depth+1)
			}
		}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		list, ok := s[key].([]any)
		if !ok {
			continue
		}
		var best []string
		fits := false
		for _, sub := range list {
			var e []string
			sp.check(sub, v, path, &e, depth+1)
			if len(e) == 0 {
				fits = true
				break
			}
			// The closest alternative is one whose type fitted, then the
			// one with the fewest errors.
			d, bd := discriminated(e, path), discriminated(best, path)
			if best == nil || d && !bd || d == bd && len(e) < len(best) {
				best = e
			}
		}
		if !fits {
			fail("%s fits none of its %d alternatives (closest: %s)", describe(v), len(list), strings.Join(best, "; "))
		}
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if m, ok := num(s["maxLength"]); ok && float64(n) > m {
			fail("string of %d characters, longer than %v", n, m)
		}
		if m, ok := num(s["minLength"]); ok && float64(n) < m {
			fail("string of %d characters, shorter than %v", n, m)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := compiledPattern(p); err == nil && !re.MatchString(x) {
				fail("%s does not match %s", describe(v), p)
			}
		}
	case float64:
		if m, ok := num(s["maximum"]); ok && x > m {
			fail("%v is above the maximum %v", x, m)
		}
		if m, ok := num(s["minimum"]); ok && x < m {
			fail("%v is below the minimum %v", x, m)
		}
	case []any:
		if m, ok := num(s["maxItems"]); ok && float64(len(x)) > m {
			fail("%d items, more than %v", len(x), m)
		}
		if m, ok := num(s["minItems"]); ok && float64(len(x)) < m {
			fail("%d items, fewer than %v", len(x), m)
		}
		if u, _ := s["uniqueItems"].(bool); u {
			for i := range x {
				for j := range i {
					if sameJSON(x[i], x[j]) {
						fail("items %d and %d are the same", j, i)
					}
				}
			}
		}
		if items, ok := s["items"]; ok {
			for i, it := range x {
				sp.check(items, it, fmt.Sprintf("%s.%d", path, i), errs, depth+1)
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, _ := r.(string); name != "" {
					if _, ok := x[name]; !ok {
						fail("required property %q is missing", name)
					}
				}
			}
		}
		if m, ok := num(s["maxProperties"]); ok && float64(len(x)) > m {
			fail("%d properties, more than %v", len(x), m)
		}
		if m, ok := num(s["minProperties"]); ok && float64(len(x)) < m {
			fail("%d properties, fewer than %v", len(x), m)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k]; ok {
				sp.check(ps, x[k], path+"."+k, errs, depth+1)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap && props != nil {
					fail("property %q is not in the schema", k)
				}
			case map[string]any:
				sp.check(ap, x[k], path+"."+k, errs, depth+1)
			}
		}
	}
}

var patterns sync.Map // pattern -> *regexp.Regexp

// compiledPattern compiles a schema's pattern once.
func compiledPattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

// discriminated reports whether errs, an alternative's errors for the
// value at path, leave its type (the discriminator) unquestioned.
func discriminated(errs []string, path string) bool {
	for _, e := range errs {
		if strings.HasPrefix(e, path+".type: ") || strings.HasPrefix(e, path+": ") && strings.Contains(e, " is not of type ") {
			return false
		}
	}
	return true
}

// typeFits reports whether v is of the JSON Schema type t (a name or a
// list of names).
func typeFits(t any, v any) bool {
	switch tt := t.(type) {
	case string:
		return typeIs(tt, v)
	case []any:
		for _, x := range tt {
			if name, _ := x.(string); typeIs(name, v) {
				return true
			}
		}
	}
	return false
}

func typeIs(name string, v any) bool {
	switch name {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

func num(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// describe writes a value briefly for a violation.
func describe(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// checkOpenAPILocked lists as violations where a request's body does not
// fit the spec.
func (s *Server) checkOpenAPILocked(method, path string, body []byte) {
	sp, err := loadSpec()
	if err != nil {
		s.violateLocked("openapi", "the spec does not read: %v", err)
		return
	}
	for _, e := range sp.checkBody(method, path, body) {
		s.violateLocked("openapi", "%s %s: %s", method, path, e)
	}
}
