package commands_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"arbiter/commands"
)

// TestLimitsRefuseAndSayWhy: each limit, set low, is met and its refusal
// says which limit and how to free it; freeing it lets the next game start.
func TestLimitsRefuseAndSayWhy(t *testing.T) {
	e := newEnv(t, false)
	svc := commands.New(commands.Config{RefereeRole: "referee", Limits: commands.Limits{PersonGames: 3, PersonStrongBot: 1, PersonChallenges: 2, GuildStrongBot: 2}},
		e.st, e.reg, e.posts, slog.New(slog.NewTextHandler(io.Discard, nil)), e.clock.Now)
	users := map[string]commands.User{}
	for i := range 10 {
		u := commands.User{ID: fmt.Sprint(500 + i), Name: fmt.Sprintf("p%d", i)}
		users["@"+u.Name] = u
	}
	do := func(u commands.User, channel, line string) commands.Reply {
		t.Helper()
		inv, err := commands.ParseLine(line, commands.CommandSet(e.reg.Names()))
		if err != nil {
			t.Fatal(err)
		}
		inv.Guild, inv.Channel, inv.User, inv.Users = "guild1", channel, u, map[string]commands.User{}
		if o, ok := users[inv.Options["opponent"]]; ok {
			inv.Options["opponent"], inv.Users["opponent"] = o.ID, o
		}
		return svc.Handle(context.Background(), inv)
	}
	ok := func(u commands.User, channel, line string) {
		t.Helper()
		if r := do(u, channel, line); r.Private {
			t.Fatalf("%s %s: %s", u.Name, line, r.Text)
		}
	}
	refused := func(u commands.User, channel, line string, want ...string) {
		t.Helper()
		r := do(u, channel, line)
		for _, w := range want {
			if !r.Private || !strings.Contains(r.Text, w) {
				t.Errorf("%s %s: %q (private %v); want a refusal with %q", u.Name, line, r.Text, r.Private, w)
			}
		}
	}
	p0, p1, p2 := users["@p0"], users["@p1"], users["@p2"]

	// Open challenges: two, then the third is refused; a withdrawn one frees a place.
	ok(p0, "a1", "/play game:sixes opponent:@p1")
	ok(p0, "a2", "/play game:sixes opponent:@p2")
	refused(p0, "a3", "/play game:sixes opponent:@p3", "2 challenges waiting", "withdraw one")
	ok(p0, "a2", "/decline")
	ok(p0, "a3", "/play game:sixes opponent:@p3")

	// Level 5: one per person.
	ok(p1, "b1", "/play game:hiya level:5")
	refused(p1, "b2", "/play game:hiya level:5", "against the bot at level 5", "level 4 or below")
	ok(p1, "b2", "/play game:hiya level:4")

	// Games at once: p1 now has three (a1's challenge, b1, b2).
	refused(p1, "b3", "/play game:hique", "3 games at once", "/resign one")
	ok(p1, "b2", "/resign")
	ok(p1, "b3", "/play game:hique")

	// The server's level-5 games: two (p1's and p2's), then no third.
	ok(p2, "c1", "/play game:hiya level:5")
	refused(users["@p4"], "c2", "/play game:hiya level:5", "this server has 2 games against the bot at level 5", "wait for one to end")
}
