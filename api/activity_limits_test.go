package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"arbiter/api"
)

// TestActivityExchangeBounded: the Activity's token exchange, each a
// request to Discord with the client secret, refuses a malformed code or
// instance without asking Discord, and asks at most 10 times a minute for
// one client address and 120 for all of them; past that it answers 429.
func TestActivityExchangeBounded(t *testing.T) {
	var asked atomic.Int64
	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
	}))
	t.Cleanup(discord.Close)
	e := newEnvWith(t, nil, func(o *api.Options) {
		o.Activity = api.ActivityConfig{ClientID: "123456789012345678", ClientSecret: "secret", BotToken: "token", API: discord.URL}
	})
	post := func(from, body string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", e.http.URL+"/api/v1/activity/token", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", from) // the harness's server trusts loopback, as behind a proxy
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, bad := range []string{`{"code":"a code with spaces","instance":"i-1"}`, `{"code":"abc","instance":"../../users/@me"}`,
		`{"code":"` + strings.Repeat("a", 4000) + `","instance":"i-1"}`} {
		if code := post("203.0.113.1", bad); code != http.StatusBadRequest {
			t.Errorf("a malformed exchange %.60s: %d, want 400", bad, code)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("malformed exchanges asked Discord %d times", n)
	}
	good := `{"code":"NhhvTDYsFcdgNLnnLijcl7Ku7bEEeee","instance":"i-1234-gc-5678"}`
	refused := 0
	for range 30 {
		if post("203.0.113.1", good) == http.StatusTooManyRequests {
			refused++
		}
	}
	if n := asked.Load(); n > 10 || refused < 20 {
		t.Errorf("30 exchanges from one address asked Discord %d times (%d refused); want at most 10", n, refused)
	}
	asked.Store(0)
	for i := range 300 {
		post(fmt.Sprintf("198.51.100.%d", i%250+1), good)
	}
	if n := asked.Load(); n > 120 {
		t.Errorf("300 exchanges from 250 addresses asked Discord %d times; want at most 120 a minute", n)
	}
}
