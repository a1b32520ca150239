package commands_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"
)

// gameLinks are the channels a tournament message links to.
var gameLinks = regexp.MustCompile(`<#([^>]+)>`)

// linkedGames returns the game channels text links to, leaving out the
// tournament's own channel.
func linkedGames(text, tournament string) []string {
	var out []string
	for _, m := range gameLinks.FindAllStringSubmatch(text, -1) {
		if m[1] != tournament && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestTournamentRoundRobin plays a 4-player correspondence round robin to
// the end in the game flow: referee-only create and start, entries, each
// round's games in their own channels, every way a game ends (resignation,
// agreed draw, adjudication, timeout), the standings posted as each round
// finishes, the next round started, ratings and /referee export.
func TestTournamentRoundRobin(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	dan := commands.User{ID: "400", Name: "dan"}
	const T = "tourney"
	e.refused(ann, T, "/tournament create game:sixes", "only referees")
	e.refused(ann, T, "/tournament join", "there is no tournament")
	e.refused(cat, T, "/tournament create game:sixes format:ladder", "format")
	e.refused(cat, T, "/tournament create game:sixes format:knockout rounds:2", "leave rounds out")
	e.refused(cat, T, "/tournament create game:sixes format:swiss rounds:13", "1 to 12")
	e.ok(cat, T, "/tournament create game:sixes time:1h")
	e.refused(cat, T, "/tournament create game:hique", "already has a Sixes tournament")
	e.refused(cat, T, "/tournament start", "at least 2 players")
	for _, u := range []commands.User{ann, bob, cat, dan} {
		if r := e.ok(u, T, "/tournament join"); !strings.Contains(r.Text, u.Name+" joins") {
			t.Errorf("join %q", r.Text)
		}
	}
	e.refused(ann, T, "/tournament join", "already")
	e.refused(ann, T, "/tournament start", "only referees")
	r := e.ok(cat, T, "/tournament start")
	e.refused(dan, T, "/tournament join", "entries are closed")

	// ends finishes the game in ch a way a game, per game of the tournament.
	ends := []func(ch string){
		func(ch string) { // the player to move resigns
			e.ok(e.seatUser(ch, -1, dan), ch, "/resign")
		},
		func(ch string) { // a draw is offered and accepted
			e.ok(e.seatUser(ch, -1, dan), ch, "/draw")
			e.ok(e.seatUser(ch, 1, dan), ch, "/draw")
		},
		func(ch string) { // the referee decides for the first player
			e.ok(cat, ch, "/referee adjudicate result:p1 reason:the referee saw it")
		},
		func(ch string) { // the player to move runs out of time
			e.clock.Advance(time.Hour + time.Second)
			if err := e.svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
		},
	}
	played := 0
	for round := 1; round <= 3; round++ {
		text := r.Text
		if round > 1 {
			posts := e.posts.all(T)
			if len(posts) < 2 || !strings.Contains(posts[len(posts)-2], fmt.Sprintf("Round %d is over", round-1)) ||
				!strings.Contains(posts[len(posts)-2], "points") {
				t.Fatalf("round %d: posts %q, want the standings", round-1, posts)
			}
			text = posts[len(posts)-1]
		}
		chans := linkedGames(text, T)
		if len(chans) != 2 {
			t.Fatalf("round %d: games %v in %q, want 2", round, chans, text)
		}
		seen := map[string]bool{}
		for _, ch := range chans {
			g := e.game(ch)
			if g.Status != store.Active || commands.FlowOf(g).TurnTime != time.Hour || !commands.FlowOf(g).Rated {
				t.Fatalf("round %d game %s: %+v", round, ch, g)
			}
			for _, p := range g.Players {
				seen[p.UserID] = true
			}
			if got := e.posts.all(ch); len(got) != 1 || !strings.Contains(got[0], fmt.Sprintf("Round %d of the tournament in <#%s>: <@%s> against <@%s>", round, T, g.Players[0].UserID, g.Players[1].UserID)) {
				t.Errorf("round %d: the announcement in %s = %q", round, ch, got)
			}
		}
		if len(seen) != 4 {
			t.Errorf("round %d: players %v, want all four", round, seen)
		}
		if round == 1 {
			e.refused(ann, "elsewhere", "/tournament standings", "there is no tournament")
			for _, where := range []string{T, chans[0]} { // the tournament's channel, or a game's
				if r := e.ok(ann, where, "/tournament standings"); !strings.Contains(r.Text, "0 of 6 games played") {
					t.Errorf("standings in %s before a result: %q", where, r.Text)
				}
			}
		}
		for _, ch := range chans {
			ends[played%len(ends)](ch)
			played++
			if g := e.archived(ch); g.Result == rules.Ongoing {
				t.Fatalf("game %s not over: %+v", ch, g)
			}
		}
	}
	posts := e.posts.all(T)
	final := posts[len(posts)-1]
	if !strings.Contains(final, "The tournament is over") || !strings.Contains(final, "6 of 6 games played") {
		t.Fatalf("final post %q", final)
	}
	e.refused(cat, T, "/tournament start", "is over")

	// Every game was rated: three each.
	ratings, err := e.st.Ratings(ctx, "guild1", "sixes", ann.ID, bob.ID, cat.ID, dan.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ratings {
		if x.Games != 3 {
			t.Errorf("%s rated for %d games, want 3", x.Player, x.Games)
		}
	}

	// The grades as attachments, for referees only.
	e.refused(ann, T, "/referee export", "only referees")
	e.refused(cat, T, "/referee export from:March", "YYYY-MM-DD")
	exp := e.do(cat, T, "/referee export from:2026-11-01 to:2026-11-02")
	if !exp.Private || len(exp.Files) != 2 {
		t.Fatalf("export = %+v", exp)
	}
	grades, err := csv.NewReader(strings.NewReader(string(exp.Files[0].Data))).ReadAll()
	if err != nil || len(grades) != 5 || grades[0][1] != "player" {
		t.Fatalf("grades.csv = %q (%v)", exp.Files[0].Data, err)
	}
	var points float64
	timeouts := 0
	for _, row := range grades[1:] {
		if row[3] != "3" {
			t.Errorf("grades row %q: want 3 games", row)
		}
		if row[7] == "" || row[10] == "0.0" {
			t.Errorf("grades row %q: want points and a rating", row)
		}
		p, err := strconv.ParseFloat(row[7], 64)
		if err != nil {
			t.Fatal(err)
		}
		points += p
		n, _ := strconv.Atoi(row[8])
		timeouts += n
	}
	if points != 6 || timeouts != 1 {
		t.Errorf("grades: %v points, %d timeouts; want 6 and 1 (%q)", points, timeouts, grades)
	}
	if games := strings.Count(string(exp.Files[1].Data), "\n"); games != 7 {
		t.Errorf("games.csv has %d lines, want a header and 6 games", games)
	}
	if none := e.do(cat, T, "/referee export from:2026-12-01"); len(none.Files) != 2 || strings.Count(string(none.Files[0].Data), "\n") != 1 {
		t.Errorf("export of an empty period = %q", none.Files[0].Data)
	}
}

// seatUser is the user of the game in ch who is to move (turn -1) or not
// (turn 1); dan is not one of the harness's people.
// fourPlayerTournament has the referee cat create a tournament in T with
// the options of create, ann, bob, cat and dan join, and cat start it; it
// returns dan and the channels of round 1's games.
func (e *env) fourPlayerTournament(T, create string) (commands.User, []string) {
	e.t.Helper()
	dan := commands.User{ID: "400", Name: "dan"}
	e.ok(cat, T, "/tournament create "+create)
	for _, u := range []commands.User{ann, bob, cat, dan} {
		e.ok(u, T, "/tournament join")
	}
	return dan, linkedGames(e.ok(cat, T, "/tournament start").Text, T)
}

func (e *env) seatUser(ch string, turn int, dan commands.User) commands.User {
	e.t.Helper()
	g := e.game(ch)
	seat := g.State.ToMove()
	if turn > 0 {
		seat = 1 - seat
	}
	id := g.Players[seat].UserID
	for _, u := range []commands.User{ann, bob, cat, dan} {
		if u.ID == id {
			return u
		}
	}
	e.t.Fatalf("no user %s", id)
	return commands.User{}
}

// TestTournamentRoundEndsOnce: the last two games of a round ending at
// the same moment post the round's standings once and start the next
// round's games once (without the record's lock, a lost update leaves the
// round unfinished: this test fails every run).
func TestTournamentRoundEndsOnce(t *testing.T) {
	e := newEnv(t, false)
	const T = "race"
	// A gauntlet: ann meets the others one a round, one game a round.
	dan, chans := e.fourPlayerTournament(T, "game:hiya format:gauntlet")
	if len(chans) != 1 {
		t.Fatalf("round 1 of a gauntlet: %v", chans)
	}
	e.ok(e.seatUser(chans[0], -1, dan), chans[0], "/resign")
	posts := e.posts.all(T)
	chans = linkedGames(posts[len(posts)-1], T)
	if len(chans) != 1 {
		t.Fatalf("round 2: %v", chans)
	}

	// Round robins of four: two games a round, ended at once, in many
	// tournaments at once to make the race likely.
	const n = 48
	var rounds [n][]string
	for k := range n {
		R := fmt.Sprintf("rr%d", k)
		e.ok(cat, R, "/tournament create game:hiya")
		for _, u := range []commands.User{ann, bob, cat, dan} {
			e.ok(u, R, "/tournament join")
		}
		rounds[k] = linkedGames(e.ok(cat, R, "/tournament start").Text, R)
	}
	var wg sync.WaitGroup
	for k := range n {
		for _, ch := range rounds[k] {
			u := e.seatUser(ch, -1, dan)
			wg.Go(func() { e.ok(u, ch, "/resign") })
		}
	}
	wg.Wait()
	// A delivery that a busy machine put off past its bound is the sweep's,
	// as in production: sweep until nothing is owed.
	ctx := context.Background()
	for range 20 {
		owed, err := e.st.OutboxDue(ctx, e.clock.Now().Add(24*time.Hour), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(owed) == 0 {
			break
		}
		e.clock.Advance(2 * time.Hour)
		must(t, e.svc.Sweep(ctx))
	}
	for k := range n {
		R := fmt.Sprintf("rr%d", k)
		over, next := 0, 0
		for _, p := range e.posts.all(R) {
			if strings.Contains(p, "Round 1 is over") {
				over++
			}
			if strings.HasPrefix(p, "Round 2:") {
				next++
				if n := len(linkedGames(p, R)); n != 2 {
					t.Errorf("%s: round 2 lists %d games: %q", R, n, p)
				}
			}
		}
		if over != 1 || next != 1 {
			t.Errorf("%s: round 1 over posted %d times, round 2 started %d times; want once each", R, over, next)
		}
		if r := e.ok(ann, R, "/tournament standings"); !strings.Contains(r.Text, "2 of 6 games played") {
			t.Errorf("standings %q", r.Text)
		}
	}
}

// TestTournamentResultAfterLostAnswer: the store applies the save that
// ends a tournament's last game but its answer is lost (as in a crash
// after the save): the sweep records the result in the tournament, posts
// the final standings once and rates the game.
func TestTournamentResultAfterLostAnswer(t *testing.T) {
	e, f, p := newFaultyEnv(t, false, time.Now, commands.Config{OutboxGrace: time.Millisecond})
	ctx := context.Background()
	const T = "lost"
	e.ok(cat, T, "/tournament create game:hiya")
	e.ok(ann, T, "/tournament join")
	e.ok(bob, T, "/tournament join")
	ch := linkedGames(e.ok(cat, T, "/tournament start").Text, T)[0]
	f.lostAnswers.Store(1)
	loser := e.seatUser(ch, -1, ann)
	if r := e.do(loser, ch, "/resign"); !r.Private {
		t.Fatalf("resign with its answer lost = %q, want a refusal", r.Text)
	}
	if n := p.count(T, "The tournament is over"); n != 0 {
		t.Fatalf("the standings were posted %d times before the sweep", n)
	}
	for range 4 {
		time.Sleep(20 * time.Millisecond) // past the outbox's grace
		must(t, e.svc.Tick(ctx))          // each tick sweeps
	}
	if n := p.count(T, "The tournament is over"); n != 1 {
		t.Fatalf("the final standings were posted %d times, want 1", n)
	}
	if r := e.ok(ann, T, "/tournament standings"); !strings.Contains(r.Text, "1 of 1 games played") {
		t.Errorf("standings %q", r.Text)
	}
	r, err := e.st.Ratings(ctx, "guild1", "hiya", ann.ID, bob.ID)
	if err != nil || r[0].Games != 1 || r[1].Games != 1 {
		t.Errorf("ratings %+v, %v; want one game each", r, err)
	}
}
