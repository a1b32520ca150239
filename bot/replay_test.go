package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
	"arbiter/store/redistest"
)

// TestHTTPReplayAnsweredOnce: a signed interaction delivered again within
// its signature's window (a replay) gets no second answer, whichever of two
// bot processes on one Redis receives it. Discord's docs: interactions are
// answered once; a second response to one fails.
func TestHTTPReplayAnsweredOnce(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{TCP: true})
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := games.Registry()
	var bots []*Bot
	for range 2 {
		st, err := open.Store(context.Background(), store.Config{RedisURL: srv.URL(), Registry: reg, Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close(context.Background()) })
		cfg := Config{Token: "t", PublicKey: pub, Logger: log, HTTPClient: &http.Client{Transport: failingTransport{}}, LibraryLogLevel: -1}
		s, err := NewSession(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.MaxRestRetries = 0
		bots = append(bots, New(cfg, s, commands.New(commands.Config{}, st, reg, NewNotifier(s, log), log, nil)))
	}
	deliver := func(b *Bot, body string) int {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		sig := ed25519.Sign(priv, append([]byte(ts), body...))
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader([]byte(body)))
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		req.Header.Set("X-Signature-Timestamp", ts)
		rec := httptest.NewRecorder()
		b.ServeHTTP(rec, req)
		b.inflight.Wait()
		return rec.Code
	}
	help := func(id string) string {
		return `{"id":"` + id + `","type":2,"token":"t","guild_id":"3","channel_id":"4","member":{"user":{"id":"5","username":"ann"},"permissions":"0"},"data":{"name":"help"}}`
	}
	if code := deliver(bots[0], help("1001")); code != http.StatusOK {
		t.Fatalf("first delivery: %d, want 200", code)
	}
	for i, b := range bots {
		if code := deliver(b, help("1001")); code != http.StatusConflict {
			t.Errorf("replay to bot %d: %d, want 409", i, code)
		}
	}
	if code := deliver(bots[1], help("1002")); code != http.StatusOK {
		t.Fatalf("another interaction: %d, want 200", code)
	}
}
