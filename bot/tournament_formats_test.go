package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/store"
)

// tourneyRun drives a correspondence tournament through the fake Discord:
// its referee, its players in the order they joined, the threads whose
// games it has played.
type tourneyRun struct {
	t       *testing.T
	w       *world
	p       *proc
	ch      string
	referee discordtest.User
	users   []discordtest.User
	played  int            // threads played so far, in the order opened
	games   map[string]int // rated games each player should have
	sides   map[string]int // games moved first less games moved second
	met     map[[2]string]int
}

// newTourneyRun opens a tournament of format between n players (the
// third one the referee), all of them joined.
func newTourneyRun(t *testing.T, format string, n int) *tourneyRun {
	w := newWorld(t, false)
	r := &tourneyRun{t: t, w: w, p: w.start(procOptions{gateway: true}), ch: w.general, games: map[string]int{}, sides: map[string]int{}, met: map[[2]string]int{}}
	role, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}[:n] {
		var u discordtest.User
		if i == 2 {
			u = w.srv.AddUser(name, role.ID)
			r.referee = u
		} else {
			u = w.srv.AddUser(name)
		}
		r.users = append(r.users, u)
	}
	w.public(w.do(r.referee.ID, r.ch, "tournament", discordtest.Option{Name: "create", Options: []discordtest.Option{
		opt("game", "sixes"), opt("format", format), opt("time", "1d")}}))
	for _, u := range r.users {
		w.public(w.do(u.ID, r.ch, "tournament", discordtest.Option{Name: "join"}))
	}
	return r
}

// rank is a user's place in the join order (their seed with no ratings).
func (r *tourneyRun) rank(id string) int {
	return slices.IndexFunc(r.users, func(u discordtest.User) bool { return u.ID == id })
}

// name is a user's name.
func (r *tourneyRun) name(id string) string { return r.users[r.rank(id)].GlobalName }

// play waits for the next want threads of round, checks each holds a
// rated game announced there with both players pinged, and ends each as
// winner says: the seat (0 the first mover) that wins, -1 a draw, the
// loser resigning.
func (r *tourneyRun) play(round, want int, winner func(g *store.Game) int) {
	t, w := r.t, r.w
	t.Helper()
	var threads []discordtest.Channel
	for ctx := w.ctx(); ; {
		if threads = w.srv.Threads(r.ch); len(threads) >= r.played+want {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("round %d: %d threads, want %d more than %d", round, len(threads), want, r.played)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if len(threads) != r.played+want {
		t.Fatalf("round %d: %d threads, want %d", round, len(threads), r.played+want)
	}
	for _, th := range threads[r.played:] {
		if !strings.Contains(th.Name, fmt.Sprintf("round %d:", round)) {
			t.Errorf("thread %q in round %d", th.Name, round)
		}
		g := r.p.game(th.ID)
		if g == nil || !commands.FlowOf(g).Rated {
			t.Fatalf("round %d: no rated game in thread %s: %+v", round, th.Name, g)
		}
		a, b := g.Players[0].UserID, g.Players[1].UserID
		if !slices.ContainsFunc(w.srv.Messages(th.ID), func(m discordtest.Message) bool {
			return strings.Contains(m.Content, fmt.Sprintf("Round %d of the tournament", round)) && pinged(m, a, b)
		}) {
			t.Errorf("round %d: the game in %s was not announced with pings", round, th.Name)
		}
		r.games[a]++
		r.games[b]++
		r.sides[a]++
		r.sides[b]--
		r.met[[2]string{min(a, b), max(a, b)}]++
		switch seat := winner(g); seat {
		case -1:
			toMove := g.State.ToMove()
			w.public(w.do(g.Players[toMove].UserID, th.ID, "draw"))
			if m := w.public(w.do(g.Players[1-toMove].UserID, th.ID, "draw")); !strings.Contains(strings.ToLower(m.Content), "draw") {
				t.Errorf("draw accepted: %q", m.Content)
			}
		default:
			if m := w.public(w.do(g.Players[1-seat].UserID, th.ID, "resign")); !strings.Contains(m.Content, "resigned") {
				t.Errorf("resign: %q", m.Content)
			}
		}
	}
	r.played += want
}

// posted waits for a post in the tournament's channel that says all of
// want, and returns it.
func (r *tourneyRun) posted(want ...string) string {
	r.t.Helper()
	m, err := r.w.srv.WaitForMessage(r.w.ctx(), func(m discordtest.Message) bool {
		return m.ChannelID == r.ch && !slices.ContainsFunc(want, func(s string) bool { return !strings.Contains(m.Content, s) })
	})
	if err != nil {
		r.t.Fatalf("no post saying %q: %v", want, err)
	}
	return m.Content
}

// checkRatings checks that every player was rated for every game played.
func (r *tourneyRun) checkRatings() {
	ids := make([]string, len(r.users))
	for i, u := range r.users {
		ids[i] = u.ID
	}
	ratings, err := r.p.st.Ratings(context.Background(), r.w.srv.Guild().ID, "sixes", ids...)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, x := range ratings {
		if x.Games != r.games[x.Player] {
			r.t.Errorf("%s: %d rated games, want %d", r.name(x.Player), x.Games, r.games[x.Player])
		}
	}
}

// byes are the "X has a bye" lines of a round's list.
var byes = regexp.MustCompile(`(?m)^- (\w+) has a bye$`)

// TestSwissTournamentInThreads plays Swiss correspondence tournaments of
// 4 and 5 players (the default ceil(log2 n) rounds: 2 and 3) to the end
// through the fake Discord: each round's games in threads, paired by
// points once the round before is over, nobody meeting twice, with 5 a
// bye each round to a different player, sides balanced (firsts and
// seconds at most 2 apart), the standings with Buchholz
// posted after every round, every game rated.
func TestSwissTournamentInThreads(t *testing.T) {
	for _, tt := range []struct{ players, rounds int }{{4, 2}, {5, 3}} {
		t.Run(fmt.Sprint(tt.players), func(t *testing.T) {
			r := newTourneyRun(t, "swiss", tt.players)
			start := r.w.public(r.w.do(r.referee.ID, r.ch, "tournament", discordtest.Option{Name: "start"}))
			if !strings.Contains(start.Content, fmt.Sprintf("%d players, %d rounds", tt.players, tt.rounds)) {
				t.Errorf("start = %q", start.Content)
			}
			list := start.Content
			had := map[string]bool{}
			for round := 1; round <= tt.rounds; round++ {
				if round > 1 {
					list = r.posted(fmt.Sprintf("Round %d:\n", round))
				}
				b := byes.FindAllStringSubmatch(list, -1)
				if len(b) != tt.players%2 {
					t.Fatalf("round %d: byes %v in %q", round, b, list)
				}
				for _, x := range b {
					if had[x[1]] {
						t.Errorf("round %d: a second bye for %s", round, x[1])
					}
					had[x[1]] = true
				}
				// The one who joined first wins, but for one draw a round.
				first := true
				r.play(round, tt.players/2, func(g *store.Game) int {
					if first {
						first = false
						return -1
					}
					if r.rank(g.Players[0].UserID) < r.rank(g.Players[1].UserID) {
						return 0
					}
					return 1
				})
				if round < tt.rounds {
					r.posted(fmt.Sprintf("Round %d is over", round), "Buchholz")
				}
			}
			final := r.posted("The tournament is over", "Buchholz")
			if games := tt.players / 2 * tt.rounds; !strings.Contains(final, fmt.Sprintf("%d of %d games played", games, games)) {
				t.Errorf("final standings %q", final)
			}
			for id, d := range r.sides {
				if d < -2 || d > 2 {
					t.Errorf("%s moved first %d times more than second", r.name(id), d)
				}
			}
			for k, v := range r.met {
				if v > 1 {
					t.Errorf("%s and %s met %d times", r.name(k[0]), r.name(k[1]), v)
				}
			}
			r.checkRatings()
			r.w.noViolations()
		})
	}
}

// TestKnockoutTournamentInThreads plays a 6-player knockout to the end
// through the fake Discord: seeded by join order (nobody rated), the top
// two seeds with first-round byes, each tie a pair of games in two
// threads, a level tie played off by another pair in the same round,
// the bracket posted after every round and the winner at the end.
func TestKnockoutTournamentInThreads(t *testing.T) {
	r := newTourneyRun(t, "knockout", 6)
	start := r.w.public(r.w.do(r.referee.ID, r.ch, "tournament", discordtest.Option{Name: "start"}))
	if b := byes.FindAllStringSubmatch(start.Content, -1); len(b) != 2 || b[0][1] != "Ann" || b[1][1] != "Bob" ||
		!strings.Contains(start.Content, "6 players, 3 rounds") {
		t.Fatalf("start = %q, want byes for Ann and Bob", start.Content)
	}
	// The higher seed wins each game, but Dan and Eve draw their first pair.
	higher := func(g *store.Game) int {
		if r.rank(g.Players[0].UserID) < r.rank(g.Players[1].UserID) {
			return 0
		}
		return 1
	}
	r.play(1, 4, func(g *store.Game) int {
		if r.name(g.Players[0].UserID)+r.name(g.Players[1].UserID) == "DanEve" || r.name(g.Players[0].UserID)+r.name(g.Players[1].UserID) == "EveDan" {
			return -1
		}
		return higher(g)
	})
	r.posted("Dan and Eve are level at 1–1")
	r.play(1, 2, higher)
	bracket := r.posted("Round 1 is over")
	for _, want := range []string{"Ann (1): a bye", "Cat (3) 2–0 Fay (6): Cat goes through", "Dan (4) 3–1 Eve (5): Dan goes through"} {
		if !strings.Contains(bracket, want) {
			t.Errorf("bracket after round 1 without %q: %q", want, bracket)
		}
	}
	r.play(2, 4, higher)
	if semis := r.posted("Round 2 is over"); !strings.Contains(semis, "Semi-finals:\n- Ann (1) 2–0 Dan (4): Ann goes through\n- Bob (2) 2–0 Cat (3): Bob goes through") {
		t.Errorf("bracket after the semi-finals: %q", semis)
	}
	r.play(3, 2, higher)
	final := r.posted("The tournament is over: Ann wins")
	if !strings.Contains(final, "Final:\n- Ann (1) 2–0 Bob (2): Ann goes through") || !strings.Contains(final, "Winner: Ann") {
		t.Errorf("final post %q", final)
	}
	r.checkRatings()
	r.w.noViolations()
}
