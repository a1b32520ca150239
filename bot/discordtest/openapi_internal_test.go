package discordtest

import (
	"fmt"
	"strings"
	"testing"
)

// TestOpenAPIChecksBodies: the spec check refuses what Discord's OpenAPI
// description does not allow, and passes what it does.
func TestOpenAPIChecksBodies(t *testing.T) {
	sp, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	opts := make([]string, 26)
	for i := range opts {
		opts[i] = fmt.Sprintf(`{"label":"o%d","value":"%d"}`, i, i)
	}
	sel := func(n int) string {
		return `{"content":"pick","components":[{"type":1,"components":[{"type":3,"custom_id":"pick:1:2","options":[` + strings.Join(opts[:n], ",") + `]}]}]}`
	}
	for _, c := range []struct {
		method, path, body, want string
	}{
		{"POST", "/channels/1/messages", `{"content":"hello <t:1764245100:R>"}`, ""},
		{"POST", "/channels/1/messages", sel(25), ""},
		{"POST", "/channels/1/messages", sel(26), "body.components.0"},
		{"POST", "/channels/1/messages", `{"content":5}`, "not of type"},
		{"POST", "/channels/1/messages", `{"content":"` + strings.Repeat("x", 4001) + `"}`, "longer than 4000"},
		{"POST", "/users/@me/channels", `{"recipient_id":"123"}`, ""},
		{"POST", "/users/@me/channels", `{"recipient_id":"x1"}`, "fits none"},
		{"POST", "/interactions/1/tok/callback", `{"type":4,"data":{"content":"x","flags":64}}`, ""},
		{"POST", "/interactions/1/tok/callback", `{"type":99}`, "fits none"},
		{"POST", "/nowhere", `{}`, "no path of the spec"},
		// An application's integration types name at least one.
		{"PATCH", "/applications/@me", `{"integration_types_config":{"0":{}}}`, ""},
		{"PATCH", "/applications/@me", `{"integration_types_config":{}}`, "0 properties, fewer than 1"},
	} {
		errs := strings.Join(sp.checkBody(c.method, c.path, []byte(c.body)), "\n")
		if c.want == "" && errs != "" || c.want != "" && !strings.Contains(errs, c.want) {
			t.Errorf("%s %s %.80s: %q, want %q", c.method, c.path, c.body, errs, c.want)
		}
	}
}

// BenchmarkOpenAPICheck checks a typical request against the spec: a
// message with a select menu of 25 options.
func BenchmarkOpenAPICheck(b *testing.B) {
	sp, err := loadSpec()
	if err != nil {
		b.Fatal(err)
	}
	opts := make([]string, 25)
	for i := range opts {
		opts[i] = fmt.Sprintf(`{"label":"o%d","value":"%d"}`, i, i)
	}
	body := []byte(`{"content":"pick","components":[{"type":1,"components":[{"type":3,"custom_id":"pick:1:2","options":[` + strings.Join(opts, ",") + `]}]}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if errs := sp.checkBody("POST", "/channels/1/messages", body); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
