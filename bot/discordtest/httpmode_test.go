package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"arbiter/bot/discordtest"

	"github.com/bwmarrin/discordgo"
)

// endpoint is a minimal HTTP interactions endpoint, as a bot would write
// it: verify the signature, refuse stale timestamps, answer PING with PONG.
func endpoint(t *testing.T, srv *discordtest.Server) string {
	key := srv.PublicKey()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, key) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		sec, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
		if err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
			http.Error(w, "stale request", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp := discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
		if i.Type == discordgo.InteractionApplicationCommand {
			resp = discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "over http: " + i.ApplicationCommandData().Name},
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestHTTPInteractionsEndpoint(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	register(t, srv, newSession(t, srv, 0))
	alice := srv.AddUser("Alice")
	url := endpoint(t, srv)
	ctx := testContext(t)

	ping, err := srv.PostPing(ctx, url, discordtest.Delivery{})
	if err != nil || ping.Status != 200 || ping.Response == nil || ping.Response.Type != discordtest.CallbackPong {
		t.Fatalf("PING = %+v, %v; want 200 PONG", ping, err)
	}
	spec := discordtest.InteractionSpec{Type: discordtest.InteractionCommand, UserID: alice.ID, Name: "ping", Options: []discordtest.Option{{Name: "word", Value: "x"}}}
	ans, err := srv.PostInteraction(ctx, url, spec, discordtest.Delivery{})
	if err != nil || ans.Status != 200 || ans.Response == nil || ans.Response.Content != "over http: ping" {
		t.Fatalf("command = %+v, %v", ans, err)
	}
	if m, ok := srv.Message(ans.Response.MessageID); !ok || m.InteractionID != ans.Interaction.ID {
		t.Fatalf("response message = %+v", m)
	}
	for name, d := range map[string]discordtest.Delivery{
		"unsigned":  {Unsigned: true},
		"tampered":  {Tamper: true},
		"wrong key": {WrongKey: true},
		"stale":     {SignedAt: srv.Now().Add(-10 * time.Minute)},
	} {
		ans, err := srv.PostInteraction(ctx, url, spec, d)
		if err != nil || ans.Status != http.StatusUnauthorized || ans.Response != nil {
			t.Errorf("%s: %d %v, want 401", name, ans.Status, err)
		}
	}
	if n := len(srv.Interactions()); n != 2 {
		t.Errorf("%d interactions recorded, want the 2 genuine ones", n)
	}
	noViolations(t, srv)

	// An endpoint that refuses a genuine request is a violation.
	if _, err := srv.PostPing(ctx, url, discordtest.Delivery{}); err != nil {
		t.Fatal(err)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusUnauthorized)
	}))
	defer bad.Close()
	if ans, err := srv.PostPing(ctx, bad.URL, discordtest.Delivery{}); err != nil || ans.Status != 401 {
		t.Fatalf("bad endpoint = %+v, %v", ans, err)
	}
	if v := srv.Violations(); len(v) != 1 || !strings.HasPrefix(v[0], "endpoint:") {
		t.Fatalf("violations = %v", v)
	}
}

// TestInlineMultipartAnswerLimit: an endpoint's answer with files inline
// fails above the size at which Discord fails it (discord-api-docs#5250);
// a small one passes.
func TestInlineMultipartAnswerLimit(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	register(t, srv, newSession(t, srv, 0))
	alice := srv.AddUser("Alice")
	var size atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "a file"}}
		files := []*discordgo.File{{Name: "replay.gif", ContentType: "image/gif", Reader: strings.NewReader(strings.Repeat("G", int(size.Load())))}}
		ct, body, err := discordgo.MultipartBodyWithJSON(resp, files)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", ct)
		_, _ = w.Write(body)
	}))
	t.Cleanup(hs.Close)
	spec := discordtest.InteractionSpec{Type: discordtest.InteractionCommand, UserID: alice.ID, Name: "ping", Options: []discordtest.Option{{Name: "word", Value: "x"}}}
	size.Store(20_000)
	ans, err := srv.PostInteraction(testContext(t), hs.URL, spec, discordtest.Delivery{})
	if err != nil || ans.Response == nil || len(ans.Response.Attachments) != 1 {
		t.Fatalf("a 20 KB inline answer: %+v, %v", ans.Response, err)
	}
	noViolations(t, srv)
	size.Store(300_000)
	ans, err = srv.PostInteraction(testContext(t), hs.URL, spec, discordtest.Delivery{})
	if err != nil || ans.Response != nil {
		t.Fatalf("a 300 KB inline answer was taken: %+v, %v", ans.Response, err)
	}
	expectViolation(t, srv, 0, "too-large")
}

// TestEditRacingTheHTTPAnswer: an edit of @original that reaches Discord
// before the endpoint's HTTP answer is taken in is refused with Unknown
// Webhook (10015), as Discord refuses it (discord-api-docs#2739); since no
// bot can close that window, the fake does not count it as a broken rule.
// An edit of an interaction that has no answer on its way (gateway mode) is
// still one.
func TestEditRacingTheHTTPAnswer(t *testing.T) {
	t.Parallel()
	srv := discordtest.Start(t, discordtest.Options{Token: token})
	s := newSession(t, srv, 0)
	register(t, srv, s)
	alice := srv.AddUser("Alice")
	var early atomic.Int64
	var appID atomic.Value
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i discordgo.Interaction
		if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		appID.Store(i.AppID)
		// The edit goes out before the deferral is answered.
		_, err := s.InteractionResponseEdit(&i, &discordgo.WebhookEdit{Content: ptr("too early")})
		_, code := restCode(err)
		early.Store(int64(code))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	}))
	t.Cleanup(hs.Close)
	spec := discordtest.InteractionSpec{Type: discordtest.InteractionCommand, UserID: alice.ID, Name: "ping", Options: []discordtest.Option{{Name: "word", Value: "x"}}}
	ans, err := srv.PostInteraction(testContext(t), hs.URL, spec, discordtest.Delivery{})
	if err != nil || ans.Response == nil {
		t.Fatalf("the deferral was not taken: %+v, %v", ans.Response, err)
	}
	if early.Load() != 10015 {
		t.Fatalf("an edit before the HTTP answer was taken in got code %d, want 10015 (Unknown Webhook)", early.Load())
	}
	noViolations(t, srv)

	open(t, srv, s)
	in, err := srv.SendCommand(alice.ID, "", "ping", discordtest.Option{Name: "word", Value: "x"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.InteractionResponseEdit(&discordgo.Interaction{ID: in.ID, AppID: appID.Load().(string), Token: in.Token},
		&discordgo.WebhookEdit{Content: ptr("no answer at all")})
	if _, code := restCode(err); code != 10015 {
		t.Fatalf("an edit of an unanswered gateway interaction got %v, want 10015", err)
	}
	expectViolation(t, srv, 0, "token-invalid")
}
