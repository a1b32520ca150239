package commands_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"arbiter/store"
)

// TestVacationAcrossADeadline: Ann's vacation stops her clock in every
// game of hers in the server and is said in each game's channel; a
// deadline passing meanwhile times nobody out; the opponent's clock runs
// on (Bob loses on time in the game where he is to move); her clock runs
// again when she is back, with the time she had left; the days are
// counted; a tournament with vacation:off keeps its clock running; a
// vacation ends by itself when the allowance runs out.
func TestVacationAcrossADeadline(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	e.ok(ann, "c1", "/play game:sixes opponent:@bob side:first time:1d")
	e.ok(bob, "c1", "/accept")
	e.ok(ann, "c2", "/play game:sixes opponent:@bob side:second time:1d")
	e.ok(bob, "c2", "/accept")
	e.ok(cat, "T", "/tournament create game:sixes time:1d vacation:off")
	e.ok(ann, "T", "/tournament join")
	e.ok(bob, "T", "/tournament join")
	e.ok(cat, "T", "/tournament start")
	var tourneyGame *store.Game
	running, err := e.st.Running(ctx, "guild1")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range running {
		if strings.HasPrefix(g.Channel, "T-") {
			tourneyGame = g
		}
	}
	if tourneyGame == nil {
		t.Fatal("no tournament game")
	}
	e.clock.Advance(6 * time.Hour)
	before1, before2 := e.game("c1").Deadline, e.game("c2").Deadline
	beforeT := e.game(tourneyGame.Channel).Deadline
	r := e.do(ann, "c1", "/vacation start")
	if !r.Private || !strings.Contains(r.Text, "2 clocks stopped") || !strings.Contains(r.Text, "allows no vacation") {
		t.Fatalf("/vacation start answered %q", r.Text)
	}
	for _, ch := range []string{"c1", "c2"} {
		if p := e.posts.all(ch); len(p) == 0 || !strings.Contains(p[len(p)-1], "is on vacation") {
			t.Errorf("channel %s was not told: %q", ch, p)
		}
	}
	if d := e.game("c1").Deadline; !d.Equal(before1.Add(7 * 24 * time.Hour)) {
		t.Errorf("Ann's deadline in c1 is %v, want %v plus her 7 days", d, before1)
	}
	if d := e.game("c2").Deadline; !d.Equal(before2) {
		t.Errorf("Bob's deadline in c2 moved from %v to %v", before2, d)
	}
	if d := e.game(tourneyGame.Channel).Deadline; !d.Equal(beforeT) {
		t.Errorf("the tournament game's deadline moved from %v to %v", beforeT, d)
	}
	e.refused(ann, "c1", "/vacation start", "on vacation already")
	// Two days later: Ann's deadline has passed on the clock, but she is
	// on vacation; Bob's has passed, and he loses on time.
	e.clock.Advance(2 * 24 * time.Hour)
	must(t, e.svc.Tick(ctx))
	if g := e.going("c1"); g == nil {
		t.Fatal("Ann timed out in c1 while on vacation")
	}
	if g := e.going("c2"); g != nil {
		t.Fatalf("Bob's clock in c2 stopped too: the game goes on, due %v", g.Deadline)
	}
	if a := e.archived("c2"); !strings.Contains(a.Reason, "time") {
		t.Errorf("c2 ended %q, want a loss on time", a.Reason)
	}
	// Back: her clock runs again with the 18 hours she had left.
	r = e.do(ann, "c1", "/vacation end")
	if !r.Private || !strings.Contains(r.Text, "1 clock running") || !strings.Contains(r.Text, "2 days of vacation used, 5 days left") {
		t.Fatalf("/vacation end answered %q", r.Text)
	}
	if d, want := e.game("c1").Deadline, e.clock.Now().Add(18*time.Hour); !d.Equal(want) {
		t.Errorf("after the vacation Ann's deadline is %v, want %v", d, want)
	}
	if p := e.posts.all("c1"); !strings.Contains(p[len(p)-1], "back from vacation") {
		t.Errorf("c1 was not told she is back: %q", p)
	}
	e.refused(ann, "c1", "/vacation end", "not on vacation")
	// A vacation left running ends by itself with the allowance: the
	// clock runs again then, and every day is used.
	e.do(ann, "c1", "/vacation start")
	e.clock.Advance(5*24*time.Hour + 19*time.Hour)
	must(t, e.svc.Tick(ctx))
	if g := e.going("c1"); g != nil {
		t.Errorf("Ann's clock never ran again after her allowance: due %v", g.Deadline)
	}
	if r := e.do(ann, "c1", "/vacation status"); !strings.Contains(r.Text, "7 days used of 7") {
		t.Errorf("/vacation status says %q", r.Text)
	}
	// Referees set the allowance.
	e.refused(ann, "c1", "/referee vacation days:20", "only referees")
	e.ok(cat, "c1", "/referee vacation days:10")
	if r := e.do(ann, "c1", "/vacation status"); !strings.Contains(r.Text, "7 days used of 10") {
		t.Errorf("/vacation status after the referee's change says %q", r.Text)
	}
}
