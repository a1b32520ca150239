package bot_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"arbiter/bot"
	"arbiter/bot/discordtest"
)

// midGame starts a gateway bot and a Sixes game in the general channel,
// one move in, and returns a function that sends the next random move.
func midGame(t *testing.T, opts discordtest.Options, po procOptions) (*world, *proc, func() discordtest.Interaction) {
	w := newWorldWith(t, false, opts)
	po.gateway = true
	p := w.start(po)
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	rng := rand.New(rand.NewPCG(21, 22))
	move := func() discordtest.Interaction { return w.sendMove(p, ch, rng) }
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID)))
	w.public(w.do(bob.ID, ch, "accept"))
	w.public(w.answerTo(move()))
	return w, p, move
}

// TestInvalidSessionMidGame: events/gateway.mdx, "Resuming" and
// gateway-events.mdx, "Invalid Session". Discord ends the bot's session
// with op 9, d = false: the bot disconnects and, after a wait of one to
// five seconds (what the docs asked until 2022, and within the IDENTIFY
// rate limit of "Rate Limiting"), identifies on a new connection to the
// URL from GET /gateway; commands after that are answered and the game
// goes on.
func TestInvalidSessionMidGame(t *testing.T) {
	t.Parallel()
	w, p, move := midGame(t, discordtest.Options{Token: token}, procOptions{})
	old := w.srv.Sessions()[0]
	w.srv.InvalidateSession(false)
	op9, err := w.srv.WaitForGateway(w.ctx(), func(e discordtest.GatewayEvent) bool { return e.Op == 9 })
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := w.srv.WaitForSession(w.ctx(), func(s discordtest.Session) bool { return s.ID != old.ID && s.Connected })
	if err != nil {
		t.Fatal(err)
	}
	ids := w.srv.Identifies()
	if len(ids) != 2 || ids[1].SessionID != fresh.ID {
		t.Fatalf("identifies %+v, want a second one creating %s", ids, fresh.ID)
	}
	if ids[1].ConnID == op9.ConnID {
		t.Errorf("identified again on connection %d, which got op 9; want a new connection", op9.ConnID)
	}
	if wait := ids[1].At.Sub(op9.At); wait < time.Second || wait > 5*time.Second {
		t.Errorf("identified %v after op 9, want 1-5 s", wait)
	}
	for range 3 {
		w.public(w.answerTo(move()))
	}
	if g := p.game(w.general); g == nil || len(g.Moves) != 4 {
		t.Fatalf("after the new session the game is %+v, want 4 moves", g)
	}
	w.noViolations()
}

// TestResumableInvalidSessionMidGame: op 9 with d = true ("Resuming",
// case 4): the bot resumes its session on resume_gateway_url, a move sent
// meanwhile is replayed and answered, nothing identifies again, and the
// bot counts one reconnect.
func TestResumableInvalidSessionMidGame(t *testing.T) {
	t.Parallel()
	w, p, move := midGame(t, discordtest.Options{Token: token}, procOptions{})
	w.srv.InvalidateSession(true)
	in := move() // dispatched while the bot resumes
	w.public(w.answerTo(in))
	if _, err := w.srv.WaitForGateway(w.ctx(), func(e discordtest.GatewayEvent) bool { return e.Type == "RESUMED" }); err != nil {
		t.Fatal(err)
	}
	w.public(w.answerTo(move()))
	if g := p.game(w.general); g == nil || len(g.Moves) != 3 {
		t.Fatalf("after the resume the game is %+v, want 3 moves", g)
	}
	ss := w.srv.Sessions()
	if len(ss) != 1 || ss[0].Resumes != 1 || ss[0].ResumesOffURL != 0 || len(w.srv.Identifies()) != 1 {
		t.Errorf("sessions %+v, identifies %d: want the session resumed on resume_gateway_url", ss, len(w.srv.Identifies()))
	}
	// The metrics see the gateway connected again, once.
	if up, reconnects := p.b.Gateway(); !up || reconnects != 1 {
		t.Errorf("Gateway() = %v, %d after one resume; want true, 1", up, reconnects)
	}
	w.noViolations()
}

// TestRefusedResumeStopsTheBot: the connection turns zombie and the
// session expires before the bot resumes, so Discord answers RESUME with
// op 9. discordgo deadlocks inside Open there (package discordtest's doc);
// the bot notices its session lock held past GatewayStuckAfter and Run
// returns ErrGatewayStuck, so that the process restarts and identifies.
func TestRefusedResumeStopsTheBot(t *testing.T) {
	t.Parallel()
	w, p, _ := midGame(t, discordtest.Options{Token: token, HeartbeatInterval: 200 * time.Millisecond}, procOptions{stuckAfter: 2 * time.Second})
	if _, err := w.srv.WaitForSession(w.ctx(), func(s discordtest.Session) bool { return s.Heartbeats >= 4 }); err != nil {
		t.Fatal(err)
	}
	w.srv.StopHeartbeatAcks()
	w.srv.ExpireSessions()
	select {
	case err := <-p.runErr:
		p.runErr <- nil // for p.stop
		if !errors.Is(err, bot.ErrGatewayStuck) {
			t.Fatalf("Run returned %v, want ErrGatewayStuck", err)
		}
	case <-w.ctx().Done():
		t.Fatal("Run did not give up on a stuck gateway")
	}
	if _, err := w.srv.WaitForGateway(w.ctx(), func(e discordtest.GatewayEvent) bool { return !e.FromClient && e.Op == 9 }); err != nil {
		t.Fatalf("no op 9 answered the RESUME: %v", err)
	}
	w.noViolations()
}
