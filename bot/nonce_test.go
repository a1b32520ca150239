package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"

	"arbiter/bot/discordtest"
	"arbiter/commands"
)

// recordingTransport answers every Discord request with a created message
// and keeps the message payloads it got.
type recordingTransport struct {
	mu       sync.Mutex
	payloads []map[string]any
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, _ := io.ReadAll(req.Body)
	answer := `{"id":"42","channel_id":"7","content":""}`
	if req.Method == http.MethodGet { // the channel look-up: a text channel
		answer = `{"id":"7","type":0}`
	}
	if req.Method == http.MethodPost {
		if mt, params, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); mt == "multipart/form-data" {
			form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
			if err == nil && len(form.Value["payload_json"]) == 1 {
				body = []byte(form.Value["payload_json"][0])
			}
		}
		var p map[string]any
		_ = json.Unmarshal(body, &p)
		r.mu.Lock()
		r.payloads = append(r.payloads, p)
		r.mu.Unlock()
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(answer)), Request: req}, nil
}

// TestPostCarriesNonce: a posted message with an idempotency key carries
// it as Discord's nonce with enforce_nonce (so a repeated delivery creates
// no second message), with and without files; one without a key carries
// no nonce.
func TestPostCarriesNonce(t *testing.T) {
	rt := &recordingTransport{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := NewSession(Config{Token: "t", Logger: log, HTTPClient: &http.Client{Transport: rt}, LibraryLogLevel: -1})
	if err != nil {
		t.Fatal(err)
	}
	n := NewNotifier(s, log)
	ctx := context.Background()
	for _, msg := range []commands.Message{
		{Text: "plain", Key: "k1"},
		{Text: "with a file", Key: "k2", Files: []commands.File{{Name: "board.png", ContentType: "image/png", Data: []byte("png")}}},
		{Text: "no key"},
	} {
		if err := n.Post(ctx, "7", msg); err != nil {
			t.Fatalf("post %q: %v", msg.Text, err)
		}
	}
	if len(rt.payloads) != 3 {
		t.Fatalf("%d messages created, want 3", len(rt.payloads))
	}
	for i, want := range []string{"k1", "k2", ""} {
		p := rt.payloads[i]
		if want == "" {
			if _, ok := p["nonce"]; ok {
				t.Errorf("message %d carries a nonce without a key: %v", i, p)
			}
			continue
		}
		if p["nonce"] != want || p["enforce_nonce"] != true || p["content"] == nil {
			t.Errorf("message %d: nonce %v enforce %v content %v; want %s, true and the text", i, p["nonce"], p["enforce_nonce"], p["content"], want)
		}
	}
}

// TestLongKeysStayDistinctNonces: keys longer than Discord's 25-character
// nonce that share their first 25 characters (the analyses of two games of
// one guild) post two messages, not one deduplicated against the other;
// each key posted again creates nothing, as Discord's enforce_nonce has it.
func TestLongKeysStayDistinctNonces(t *testing.T) {
	srv := discordtest.Start(t, discordtest.Options{Token: "t"})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := NewSession(Config{Token: "t", Logger: log, HTTPClient: srv.HTTPClient(), LibraryLogLevel: -1})
	if err != nil {
		t.Fatal(err)
	}
	n := NewNotifier(s, log)
	ch := srv.Guild().DefaultChannelID
	keys := []string{"analysis/1234567890123456789/1/" + ch, "analysis/1234567890123456789/2/" + ch}
	for _, key := range append(keys, keys...) {
		if err := n.Post(context.Background(), ch, commands.Message{Text: "analysis for " + key, Key: key}); err != nil {
			t.Fatalf("post with key %s: %v", key, err)
		}
	}
	if got := len(srv.Messages(ch)); got != 2 {
		t.Errorf("%d messages created for two keys, each posted twice; want 2", got)
	}
}
