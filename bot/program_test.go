package bot_test

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/api"
	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/internal/testkit"
	"arbiter/rules"
)

// TestStudentProgramPlaysThroughDiscord: Ann gets a program token from
// /token new (privately), her program (a test program built here, run by
// the bridge) is challenged by Bob with /play program:true in the fake
// Discord, accepts, and plays a whole game against Bob's /move commands;
// its moves are posted in the channel as "Ann (program)".
func TestStudentProgramPlaysThroughDiscord(t *testing.T) {
	prog := testkit.Build(t, "../api/testdata/firstmove")
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	apiSrv := api.New(p.svc, api.Options{Log: w.log, Poll: 100 * time.Millisecond})
	hs := httptest.NewServer(apiSrv.Handler())
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })

	answer := w.do(ann.ID, ch, "token", discordtest.Option{Name: "new"})
	w.private(answer, "shown this once")
	tok := regexp.MustCompile(`arb_[A-Za-z0-9_-]+`).FindString(answer.Content)

	var out testkit.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- api.RunBridge(ctx, api.BridgeConfig{Server: hs.URL, Token: tok, Command: prog, Out: &out})
	}()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "the bridge connects", func() bool { return apiSrv.Online(w.srv.Guild().ID, ann.ID) })

	w.public(w.do(bob.ID, ch, "play", opt("game", "sixes"), opt("opponent", ann.ID), opt("program", true), opt("options", "turns=12")))
	waitFor(t, "the program accepts", func() bool { g := p.game(ch); return g != nil && !commands.FlowOf(g).Challenge })
	for {
		g := p.game(ch)
		if g == nil {
			break
		}
		if seat := g.State.ToMove(); g.Players[seat].UserID == bob.ID {
			var list rules.MoveList
			g.State.Moves(&list)
			w.public(w.do(bob.ID, ch, "move", opt("move", g.State.FormatMove(list.Moves[0]))))
			continue
		}
		waitFor(t, "the program moves", func() bool { g2 := p.game(ch); return g2 == nil || g2.Version != g.Version })
	}
	// The program's moves are posted after they are saved: wait for the last.
	var programMoves, results int
	count := func() bool {
		programMoves, results = 0, 0
		for _, m := range w.srv.Messages(ch) {
			if m.InteractionID == "" && strings.Contains(m.Content, "(Ann (program)) plays **") {
				programMoves++
			}
			if strings.Contains(m.Content, "wins**") || strings.Contains(m.Content, "**Draw**") {
				results++
			}
			if strings.Contains(m.Content, tok) && !m.Ephemeral() {
				t.Fatalf("the token was posted where others see it: %q", m.Content)
			}
		}
		return programMoves == 6 && results == 1
	}
	for end := time.Now().Add(hang); !count() && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	if programMoves != 6 || results != 1 {
		t.Errorf("the channel has %d moves of Ann's program and %d results; want 6 and 1:\n%s", programMoves, results, out.String())
	}
	w.noViolations()
}
