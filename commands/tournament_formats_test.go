package commands_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/store"
)

// byeLine is how a round's list names a bye.
var byeLine = regexp.MustCompile(`(?m)^- (\w+) has a bye$`)

// tourneyPlay ends games of a tournament in the game flow: a player wins
// (the other resigns) or both agree a draw.
type tourneyPlay struct {
	e     *env
	users map[string]commands.User
}

func newTourneyPlay(e *env, users ...commands.User) *tourneyPlay {
	p := &tourneyPlay{e: e, users: map[string]commands.User{}}
	for _, u := range users {
		p.users[u.ID] = u
	}
	return p
}

// seats returns the users of the game in ch, first mover first.
func (p *tourneyPlay) seats(ch string) [2]commands.User {
	g := p.e.game(ch)
	return [2]commands.User{p.users[g.Players[0].UserID], p.users[g.Players[1].UserID]}
}

// win ends the game in ch won by seat (0 the first mover), the other
// resigning; seat -1 is an agreed draw.
func (p *tourneyPlay) win(ch string, seat int) {
	p.e.t.Helper()
	s := p.seats(ch)
	if seat < 0 {
		toMove := p.e.game(ch).State.ToMove()
		p.e.ok(s[toMove], ch, "/draw")
		p.e.ok(s[1-toMove], ch, "/draw")
		return
	}
	p.e.ok(s[1-seat], ch, "/resign")
}

// latest is the last post in channel.
func (e *env) latest(channel string) string {
	posts := e.posts.all(channel)
	if len(posts) == 0 {
		return ""
	}
	return posts[len(posts)-1]
}

// TestTournamentSwiss plays a 5-player Swiss correspondence tournament
// (the default ceil(log2 5) = 3 rounds) to the end in the game flow:
// each round paired when the last game of the one before has ended (a
// timeout included), nobody meeting twice, a bye each round to a
// different player and worth a win, the standings with Buchholz posted
// after every round, every game rated.
func TestTournamentSwiss(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	dan, eve := commands.User{ID: "400", Name: "dan"}, commands.User{ID: "500", Name: "eve"}
	play := newTourneyPlay(e, ann, bob, cat, dan, eve)
	const T = "swiss"
	if r := e.ok(cat, T, "/tournament create game:sixes format:swiss time:1h"); !strings.Contains(r.Text, "bye worth a win") {
		t.Errorf("create = %q", r.Text)
	}
	for _, u := range []commands.User{ann, bob, cat, dan, eve} {
		e.ok(u, T, "/tournament join")
	}
	text := e.ok(cat, T, "/tournament start").Text
	if !strings.Contains(text, "5 players, 3 rounds") {
		t.Errorf("start = %q", text)
	}
	met := map[[2]string]bool{}
	byes := map[string]bool{}
	games := map[string]int{}
	for round := 1; round <= 3; round++ {
		chans := linkedGames(text, T)
		bye := byeLine.FindAllStringSubmatch(text, -1)
		if len(chans) != 2 || len(bye) != 1 {
			t.Fatalf("round %d: games %v, byes %v in %q", round, chans, bye, text)
		}
		if byes[bye[0][1]] {
			t.Errorf("round %d: a second bye for %s", round, bye[0][1])
		}
		byes[bye[0][1]] = true
		for _, ch := range chans {
			s := play.seats(ch)
			k := [2]string{min(s[0].ID, s[1].ID), max(s[0].ID, s[1].ID)}
			if met[k] {
				t.Errorf("round %d: %s and %s meet again", round, s[0].Name, s[1].Name)
			}
			met[k] = true
			games[s[0].ID]++
			games[s[1].ID]++
		}
		// The first game ends: the round goes on, nothing is paired.
		play.win(chans[0], round%2)
		if strings.Contains(e.latest(T), fmt.Sprintf("Round %d is over", round)) {
			t.Fatalf("round %d over after one of its games", round)
		}
		if round == 2 { // the last game times out
			e.clock.Advance(time.Hour + time.Second)
			if err := e.svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if g := e.archived(chans[1]); !strings.Contains(g.Reason, "time") {
				t.Errorf("round 2's last game ended by %q, want a timeout", g.Reason)
			}
		} else {
			play.win(chans[1], -1)
		}
		posts := e.posts.all(T)
		want := fmt.Sprintf("Round %d is over", round)
		standings := posts[len(posts)-1]
		if round < 3 {
			standings, text = posts[len(posts)-2], posts[len(posts)-1]
		} else {
			want = "The tournament is over"
		}
		if !strings.Contains(standings, want) || !strings.Contains(standings, "Buchholz") {
			t.Fatalf("round %d: standings %q", round, standings)
		}
	}
	if !strings.Contains(e.latest(T), "6 of 6 games played") {
		t.Errorf("final = %q", e.latest(T))
	}
	e.refused(cat, T, "/tournament start", "is over")
	v, err := e.svc.TournamentView(ctx, T)
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	for _, st := range v.Standings {
		total += st.Points
	}
	if total != 6+3 {
		t.Errorf("%v points in all, want 6 for the games and 3 for the byes: %+v", total, v.Standings)
	}
	ratings, err := e.st.Ratings(ctx, "guild1", "sixes", ann.ID, bob.ID, cat.ID, dan.ID, eve.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ratings {
		if x.Games != games[x.Player] {
			t.Errorf("%s: %d rated games, want %d", x.Player, x.Games, games[x.Player])
		}
	}
}

// TestTournamentKnockout plays a 6-player knockout to the end in the game
// flow: seeded by rating (dan, the only rated player, first; then join
// order), the top two seeds with first-round byes, each tie a pair of
// games with each side first once, a level tie played off by one more
// pair and, still level, won by the higher seed; the bracket posted
// after each round and the winner at the end.
func TestTournamentKnockout(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	dan, eve, fay := commands.User{ID: "400", Name: "dan"}, commands.User{ID: "500", Name: "eve"}, commands.User{ID: "600", Name: "fay"}
	play := newTourneyPlay(e, ann, bob, cat, dan, eve, fay)
	if _, err := e.st.UpdateRatings(ctx, "guild1", "sixes", "earlier", []string{dan.ID}, func(cur []store.Rating) ([]store.Rating, error) {
		cur[0].Rating, cur[0].Games = 1700, 4
		return cur, nil
	}); err != nil {
		t.Fatal(err)
	}
	const T = "cup"
	e.ok(cat, T, "/tournament create game:sixes format:knockout")
	for _, u := range []commands.User{ann, bob, cat, dan, eve, fay} {
		e.ok(u, T, "/tournament join")
	}
	text := e.ok(cat, T, "/tournament start").Text
	// Seeds: dan 1, ann 2, bob 3, cat 4, eve 5, fay 6.
	if got := byeLine.FindAllStringSubmatch(text, -1); len(got) != 2 || got[0][1] != "dan" || got[1][1] != "ann" {
		t.Fatalf("byes %v in %q, want dan's and ann's", got, text)
	}
	if !strings.Contains(text, "6 players, 3 rounds") {
		t.Errorf("start = %q", text)
	}
	// tie returns the games of round's latest list between a and b.
	tie := func(text string, a, b commands.User) []string {
		t.Helper()
		var out []string
		firsts := map[string]int{}
		for _, ch := range linkedGames(text, T) {
			s := play.seats(ch)
			if s[0] == a && s[1] == b || s[0] == b && s[1] == a {
				out = append(out, ch)
				firsts[s[0].ID]++
			}
		}
		if len(out) != 2 || firsts[a.ID] != 1 || firsts[b.ID] != 1 {
			t.Fatalf("%s against %s: games %v (%v first) in %q, want two, each first once", a.Name, b.Name, out, firsts, text)
		}
		return out
	}
	// winner makes who win both games of a tie; nobody: two draws.
	both := func(games []string, who commands.User) {
		for _, ch := range games {
			seat := -1
			if who != (commands.User{}) {
				seat = 0
				if play.seats(ch)[1] == who {
					seat = 1
				}
			}
			play.win(ch, seat)
		}
	}
	catEve, bobFay := tie(text, cat, eve), tie(text, bob, fay)
	both(bobFay, fay) // the 6th seed knocks out the 3rd
	both(catEve, commands.User{})
	if posts := e.posts.all(T); !strings.Contains(posts[len(posts)-2], "cat and eve are level at 1–1") || strings.Contains(posts[len(posts)-1], "bye") {
		t.Fatalf("level tie: %q", posts[len(posts)-2:])
	}
	both(tie(e.latest(T), cat, eve), commands.User{}) // level again: cat, the higher seed
	posts := e.posts.all(T)
	bracket, text := posts[len(posts)-2], posts[len(posts)-1]
	if !strings.Contains(bracket, "Round 1 is over") || !strings.Contains(bracket, "cat (4) 2–2 eve (5): cat goes through") ||
		!strings.Contains(bracket, "bob (3) 0–2 fay (6): fay goes through") || !strings.Contains(bracket, "dan (1): a bye") {
		t.Fatalf("bracket after round 1: %q", bracket)
	}
	// Semi-finals: dan-cat, ann-fay.
	danCat, annFay := tie(text, dan, cat), tie(text, ann, fay)
	both(danCat, dan)
	play.win(annFay[0], 0)
	play.win(annFay[1], 0) // one each
	both(tie(e.latest(T), ann, fay), ann)
	posts = e.posts.all(T)
	bracket, text = posts[len(posts)-2], posts[len(posts)-1]
	if !strings.Contains(bracket, "Semi-finals") || !strings.Contains(bracket, "ann (2) 3–1 fay (6): ann goes through") {
		t.Fatalf("bracket after the semi-finals: %q", bracket)
	}
	both(tie(text, dan, ann), ann)
	final := e.latest(T)
	if !strings.Contains(final, "The tournament is over: ann wins") || !strings.Contains(final, "Final:\n- dan (1) 0–2 ann (2): ann goes through") ||
		!strings.Contains(final, "Winner: ann") {
		t.Fatalf("final post %q", final)
	}
	e.refused(cat, T, "/tournament start", "is over")
	if r := e.ok(bob, T, "/tournament standings"); !strings.Contains(r.Text, "Winner: ann") {
		t.Errorf("standings = %q", r.Text)
	}
	ratings, err := e.st.Ratings(ctx, "guild1", "sixes", ann.ID, fay.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ratings[0].Games != 6 || ratings[1].Games != 6 {
		t.Errorf("rated games: %+v, want 6 for ann and for fay", ratings)
	}
}
