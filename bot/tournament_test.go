package bot_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"arbiter/bot/discordtest"
	"arbiter/commands"
)

// TestTournamentInThreads plays a 4-player correspondence round robin to
// the end through the fake Discord: a referee creates and starts it, each
// round's games are played in public threads the bot opens in the
// tournament's channel, the standings are posted there as each round
// finishes, every game is rated, and /referee export attaches the grades;
// a thread Discord fails to open is opened by the referee's next start.
func TestTournamentInThreads(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	role, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob, cat, dan := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cat", role.ID), w.srv.AddUser("Dan")
	ch := w.general
	sub := func(name string, opts ...discordtest.Option) discordtest.Option {
		return discordtest.Option{Name: name, Options: opts}
	}
	create := sub("create", opt("game", "sixes"), opt("format", "roundrobin"), opt("time", "1d"))
	w.private(w.do(ann.ID, ch, "tournament", create), "only referees")
	w.public(w.do(cat.ID, ch, "tournament", create))
	for _, u := range []discordtest.User{ann, bob, cat, dan} {
		w.public(w.do(u.ID, ch, "tournament", sub("join")))
	}
	// Discord refuses the first thread (403): the start says so, and the
	// referee's second /tournament start starts the round's games.
	if err := w.srv.InjectFailure(discordtest.RouteThreadCreate, 403, 1); err != nil {
		t.Fatal(err)
	}
	failed := w.public(w.do(cat.ID, ch, "tournament", sub("start")))
	if !strings.Contains(failed.Content, "could not be started") || len(w.srv.Threads(ch)) != 0 {
		t.Fatalf("start with Discord failing = %q, %d threads", failed.Content, len(w.srv.Threads(ch)))
	}
	w.private(w.do(dan.ID, ch, "tournament", sub("join")), "entries are closed")
	started := w.public(w.do(cat.ID, ch, "tournament", sub("start")))
	if !strings.Contains(started.Content, "Round 1:") {
		t.Errorf("start = %q", started.Content)
	}
	name := map[string]string{ann.ID: "Ann", bob.ID: "Bob", cat.ID: "Cat", dan.ID: "Dan"}
	for round := 1; round <= 3; round++ {
		threads := w.srv.Threads(ch)
		if len(threads) != 2*round {
			t.Fatalf("round %d: %d threads, want %d", round, len(threads), 2*round)
		}
		for _, th := range threads[2*(round-1):] {
			if th.Type != discordtest.ChannelPublicThread || !strings.Contains(th.Name, fmt.Sprintf("round %d", round)) {
				t.Errorf("thread %+v", th)
			}
			g := p.game(th.ID)
			if g == nil || !commands.FlowOf(g).Rated {
				t.Fatalf("round %d: no rated game in thread %s: %+v", round, th.Name, g)
			}
			var announced bool
			for _, m := range w.srv.Messages(th.ID) {
				announced = announced || strings.Contains(m.Content, "Round "+fmt.Sprint(round)+" of the tournament") && pinged(m, g.Players[0].UserID, g.Players[1].UserID)
			}
			if !announced {
				t.Errorf("round %d: the game in %s was not announced with pings", round, th.Name)
			}
			// The player to move resigns, in the game's thread.
			loser := g.Players[g.State.ToMove()].UserID
			if r := w.public(w.do(loser, th.ID, "resign")); !strings.Contains(r.Content, "resigned") {
				t.Errorf("%s resigns: %q", name[loser], r.Content)
			}
		}
		want := fmt.Sprintf("Round %d is over", round)
		if round == 3 {
			want = "The tournament is over"
		}
		if _, err := w.srv.WaitForMessage(w.ctx(), func(m discordtest.Message) bool {
			return m.ChannelID == ch && strings.Contains(m.Content, want) && strings.Contains(m.Content, "perf. Elo")
		}); err != nil {
			t.Fatalf("round %d: no standings in the channel: %v", round, err)
		}
	}
	standings := w.public(w.do(bob.ID, ch, "tournament", sub("standings")))
	if !strings.Contains(standings.Content, "6 of 6 games played") {
		t.Errorf("standings = %q", standings.Content)
	}
	ratings, err := p.st.Ratings(context.Background(), w.srv.Guild().ID, "sixes", ann.ID, bob.ID, cat.ID, dan.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ratings {
		if x.Games != 3 {
			t.Errorf("%s: %d rated games, want 3", name[x.Player], x.Games)
		}
	}

	w.private(w.do(ann.ID, ch, "referee", sub("export")), "only referees")
	exp := w.do(cat.ID, ch, "referee", sub("export"))
	if !exp.Ephemeral() || len(exp.Attachments) != 2 || exp.Attachments[0].Filename != "grades.csv" {
		t.Fatalf("export = %+v", exp)
	}
	rows, err := csv.NewReader(strings.NewReader(string(exp.Attachments[0].Data))).ReadAll()
	if err != nil || len(rows) != 5 {
		t.Fatalf("grades.csv = %q (%v), want a header and 4 players", exp.Attachments[0].Data, err)
	}
	for _, row := range rows[1:] {
		if row[3] != "3" || row[10] == "0.0" {
			t.Errorf("grades row %q: want 3 games and a rating", row)
		}
	}
	if n := strings.Count(string(exp.Attachments[1].Data), "\n"); n != 7 {
		t.Errorf("games.csv has %d lines, want a header and 6 games", n)
	}
	w.noViolations()
}
