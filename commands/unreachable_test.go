package commands_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
)

// unreachable is a Notifier for a channel the bot may not post in.
type unreachable struct{ why string }

func (u unreachable) Post(_ context.Context, channel string, _ commands.Message) error {
	return &commands.UnreachableError{Channel: channel, Why: u.why, Err: errors.New("50001 Missing Access")}
}

// TestUnreachableChannelPausesNotForfeits: the reminder of a game whose
// channel the bot can no longer post in fails as unreachable; the game is
// paused with why (shown by /games and the board), its deadline does not
// pass, and a referee's resume clears it.
func TestUnreachableChannelPausesNotForfeits(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	why := "I can't post in <#t>: I need View Channel there."
	svc := commands.New(commands.Config{RefereeRole: "referee"}, e.st, e.reg, unreachable{why}, slog.New(slog.NewTextHandler(io.Discard, nil)), e.clock.Now)
	e.svc = svc
	e.ok(ann, "t", "/play game:sixes opponent:@bob time:10m")
	e.ok(bob, "t", "/accept")
	e.ok(ann, "t", "/move a1 c1")
	e.clock.Advance(5*time.Minute + time.Second)
	must(t, svc.Tick(ctx)) // the reminder's post fails: logged, and the game paused
	g := e.game("t")
	if !commands.FlowOf(g).Paused || commands.FlowOf(g).PausedWhy != why || commands.FlowOf(g).PausedLeft <= 0 || !g.Deadline.IsZero() {
		t.Fatalf("after the failed reminder: %+v, deadline %v", commands.FlowOf(g), g.Deadline)
	}
	e.clock.Advance(time.Hour)
	must(t, svc.Tick(ctx))
	if g := e.going("t"); g == nil || len(g.Moves) != 1 {
		t.Fatalf("the paused game was forfeited or changed: %+v", g)
	}
	if r := e.do(ann, "t", "/games"); !strings.Contains(r.Text, "paused: "+why) {
		t.Errorf("/games = %q, want why the game waits", r.Text)
	}
	e.ok(cat, "t", "/referee resume")
	if g := e.game("t"); commands.FlowOf(g).Paused || commands.FlowOf(g).PausedWhy != "" || g.Deadline.IsZero() {
		t.Errorf("after resume: %+v", commands.FlowOf(g))
	}
}
