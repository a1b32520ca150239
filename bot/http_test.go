package bot_test

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/commands"
)

// TestHTTPInteractions: the HTTP interactions endpoint answers genuine
// requests (PING, commands, buttons, a deferral while Redis stalls) and
// refuses unsigned, tampered, wrongly signed and stale ones with 401.
func TestHTTPInteractions(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{deferAfter: 300 * time.Millisecond, storeTimeout: 10 * time.Second})
	url := p.serveHTTP()
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	post := func(spec discordtest.InteractionSpec, d discordtest.Delivery) discordtest.EndpointAnswer {
		t.Helper()
		ans, err := w.srv.PostInteraction(w.ctx(), url, spec, d)
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	command := func(user, name string, opts ...discordtest.Option) discordtest.InteractionSpec {
		return discordtest.InteractionSpec{Type: discordtest.InteractionCommand, UserID: user, ChannelID: ch, Name: name, Options: opts}
	}

	ping, err := w.srv.PostPing(w.ctx(), url, discordtest.Delivery{})
	if err != nil || ping.Status != http.StatusOK || ping.Response == nil || ping.Response.Type != discordtest.CallbackPong {
		t.Fatalf("PING: %+v, %v; want 200 PONG", ping, err)
	}
	// Each answer is read as Discord shows it: inline, or, when the bot
	// took longer than its deferral time, the completed deferral.
	help := post(command(ann.ID, "help"), discordtest.Delivery{})
	if help.Status != http.StatusOK || help.Response == nil {
		t.Fatalf("/help over HTTP: %d %+v", help.Status, help.Response)
	}
	if m := w.answerTo(help.Interaction); !m.Ephemeral() || !strings.Contains(m.Content, "Arbiter") {
		t.Fatalf("/help over HTTP answered %+v", m)
	}
	play := post(command(ann.ID, "play", opt("game", "sixes"), opt("opponent", bob.ID)), discordtest.Delivery{})
	if play.Status != http.StatusOK || play.Response == nil {
		t.Fatalf("/play over HTTP: %d %+v", play.Status, play.Response)
	}
	challenge := w.public(w.answerTo(play.Interaction))
	if !pinged(challenge, ann.ID, bob.ID) {
		t.Errorf("the challenge pinged %+v", challenge.Pings)
	}
	press := discordtest.InteractionSpec{Type: discordtest.InteractionComponent, UserID: bob.ID, MessageID: challenge.ID, CustomID: button(t, challenge, "Accept")}
	accept := post(press, discordtest.Delivery{})
	if accept.Response == nil {
		t.Fatalf("accept by button over HTTP: %d %s", accept.Status, accept.Body)
	}
	if m := w.answerTo(accept.Interaction); !strings.Contains(m.Content, "accepts") {
		t.Fatalf("accept by button over HTTP answered %+v", m)
	}
	if g := p.game(ch); g == nil || commands.FlowOf(g).Challenge {
		t.Fatalf("the game after acceptance: %+v", g)
	}
	// An image board: the HTTP answer is a deferral, completed by an edit
	// that uploads the PNG (Discord fails large inline multipart answers).
	image := post(command(ann.ID, "board", opt("style", "image")), discordtest.Delivery{})
	if image.Response == nil || image.Response.Type != discordtest.CallbackDeferredMessage {
		t.Fatalf("/board style:image over HTTP: %+v, want a deferral", image.Response)
	}
	if m := w.public(w.answerTo(image.Interaction)); len(m.Attachments) != 1 || m.Attachments[0].Filename != "board.png" {
		t.Fatalf("/board style:image over HTTP completed as %+v", m)
	}
	// /history with its GIF replay, after a few moves: deferred, then
	// uploaded by the edit; nothing goes inline.
	rng := rand.New(rand.NewPCG(13, 14))
	for range 6 {
		g := p.game(ch)
		mover := g.Players[g.State.ToMove()].UserID
		if ans := post(command(mover, "move", opt("move", randomMove(t, g, rng))), discordtest.Delivery{}); ans.Response == nil {
			t.Fatalf("/move over HTTP: %d %s", ans.Status, ans.Body)
		}
	}
	history := post(command(ann.ID, "history"), discordtest.Delivery{})
	if history.Response == nil || history.Response.Type != discordtest.CallbackDeferredMessage {
		t.Fatalf("/history over HTTP: %+v, want a deferral", history.Response)
	}
	replay := w.public(w.answerTo(history.Interaction))
	gif := false
	for _, a := range replay.Attachments {
		gif = gif || strings.HasSuffix(a.Filename, ".gif")
	}
	if !gif || replay.Loading() {
		t.Fatalf("/history over HTTP completed as %+v, want its GIF", replay)
	}

	// Refused: what an attacker could send.
	for name, d := range map[string]discordtest.Delivery{
		"unsigned":  {Unsigned: true},
		"tampered":  {Tamper: true},
		"wrong key": {WrongKey: true},
		"stale":     {SignedAt: w.srv.Now().Add(-6 * time.Minute)},
		"future":    {SignedAt: w.srv.Now().Add(6 * time.Minute)},
	} {
		ans := post(command(ann.ID, "resign"), d)
		if ans.Status != http.StatusUnauthorized || ans.Response != nil {
			t.Errorf("%s: answered %d %s, want 401", name, ans.Status, ans.Body)
		}
		if p.game(ch) == nil {
			t.Fatalf("%s: the forged /resign ended the game", name)
		}
	}
	if ans, err := w.srv.PostPing(w.ctx(), url, discordtest.Delivery{Tamper: true}); err != nil || ans.Status != http.StatusUnauthorized {
		t.Errorf("a tampered PING: %+v, %v; want 401", ans, err)
	}

	// While Redis stalls, the HTTP answer is a deferral, completed later
	// through the interaction's webhook.
	// Redis stays paused until the endpoint has answered.
	w.redis.Pause()
	ans, err := w.srv.PostInteraction(w.ctx(), url, command(ann.ID, "board"), discordtest.Delivery{})
	w.redis.Resume()
	if err != nil {
		t.Fatal(err)
	}
	if ans.Response == nil || ans.Response.Type != discordtest.CallbackDeferredMessage {
		t.Fatalf("/board while Redis stalls: %+v, want a deferral", ans.Response)
	}
	b := w.public(w.answerTo(ans.Interaction))
	if b.ID != ans.Response.MessageID || !strings.Contains(b.Content, "```") {
		t.Errorf("the deferral was completed as %+v", b)
	}
	// Shutting down: a genuine interaction is told to come back, privately.
	p.b.Shutdown()
	late := post(command(ann.ID, "board"), discordtest.Delivery{})
	if late.Response == nil || !late.Response.Ephemeral() || !strings.Contains(late.Response.Content, "restarting") {
		t.Errorf("an interaction during shutdown: %+v", late.Response)
	}
	p.stop() // waits for the deferred answer's completion too
	w.noViolations()
}
