package engine

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
)

func TestMatchSwapsSidesAndSharesOpenings(t *testing.T) {
	for _, game := range games.Registry().Names() {
		if sampled(startOf(t, game)) {
			continue // greedy weighs thousands of moves a ply: the full run plays it
		}
		var recs []GameRecord
		res, err := RunMatch(context.Background(), MatchConfig{
			Registry: games.Registry(), Game: game, P1: "greedy", P2: "random",
			Games: 4, MoveTime: 10 * time.Millisecond, Seed: 1,
		}, func(r GameRecord) { recs = append(recs, r) })
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 4 || res.Wins+res.Draws+res.Losses != 4 || len(recs) != 4 {
			t.Fatalf("%s: %+v, %d records", game, res, len(recs))
		}
		for i, r := range recs {
			wantFirst := "greedy"
			if i%2 == 1 {
				wantFirst = "random"
			}
			if r.Number != i+1 || r.First != wantFirst {
				t.Errorf("%s game %d: number %d, first %s, want %s", game, i+1, r.Number, r.First, wantFirst)
			}
			if r.Reason == "" || r.Plies < OpeningPlies {
				t.Errorf("%s game %d: reason %q after %d plies", game, i+1, r.Reason, r.Plies)
			}
		}
		if !slices.Equal(recs[0].Opening, recs[1].Opening) || !slices.Equal(recs[2].Opening, recs[3].Opening) {
			t.Errorf("%s: the halves of a pair start differently: %v %v / %v %v", game, recs[0].Opening, recs[1].Opening, recs[2].Opening, recs[3].Opening)
		}
		if slices.Equal(recs[0].Opening, recs[2].Opening) {
			t.Errorf("%s: two pairs share the opening %v", game, recs[0].Opening)
		}
	}
}

func TestMatchIsRepeatableWithASeed(t *testing.T) {
	run := func() []GameRecord {
		var recs []GameRecord
		_, err := RunMatch(context.Background(), MatchConfig{
			Registry: games.Registry(), Game: "hiya", P1: "greedy", P2: "alphabeta:1",
			Games: 4, MoveTime: 10 * time.Millisecond, Seed: 99,
		}, func(r GameRecord) { recs = append(recs, r) })
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	a, b := run(), run()
	for i := range a {
		if a[i].Reason != b[i].Reason || a[i].Plies != b[i].Plies || !slices.Equal(a[i].Opening, b[i].Opening) {
			t.Errorf("game %d differs: %+v / %+v", i+1, a[i], b[i])
		}
	}
}

func TestMatchRejectsBadConfig(t *testing.T) {
	bad := []MatchConfig{
		{Game: "chess", P1: "random", P2: "random", Games: 2},
		{Game: "hique", P1: "random", P2: "nobody", Games: 2},
		{Game: "hique", P1: "random", P2: "random", Games: 0},
		{Game: "sixes", P1: "random", P2: "random", Games: 2, Options: map[string]string{"turns": "0"}},
	}
	for _, cfg := range bad {
		cfg.Registry = games.Registry()
		if _, err := RunMatch(context.Background(), cfg, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

func TestMatchResultJSON(t *testing.T) {
	res := MatchResult{Game: "hique", P1: "arbiter", P2: "random", Games: 100, Wins: 97, Draws: 1, Losses: 2,
		Score: 0.975, Elo: 637.7, EloError: 132.1, LongestMove: [2]time.Duration{time.Second}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"hique","p1":"arbiter","p2":"random","games":100,"wins":97,"draws":1,"losses":2,"score":0.975,"elo":637.7,"elo_error":132.1}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestElo(t *testing.T) {
	// Half-widths by hand: 50-50 has sd 0.05, so 0.402..0.598, ±69;
	// 75-25 has sd 0.0433, so 0.665..0.835, 119.5..281.7, ±81.1; a perfect
	// score is clamped to 99.5% (+919.5) with the binomial sd 0.00705, so
	// 0.9812..0.995, 686.5..919.5, ±116.5; all draws take the binomial
	// spread too.
	tests := []struct {
		w, d, l          int
		elo, margin, tol float64
	}{
		{50, 0, 50, 0, 69.0, 0.5},
		{0, 100, 0, 0, 69.0, 0.5},
		{75, 0, 25, 190.8, 81.1, 0.5},
		{100, 0, 0, 919.5, 116.5, 0.5},
		{0, 0, 100, -919.5, 116.5, 0.5},
		{0, 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		elo, margin := Elo(tt.w, tt.d, tt.l)
		if math.Abs(elo-tt.elo) > 1 || math.Abs(margin-tt.margin) > tt.tol || math.IsNaN(margin) || math.IsInf(elo, 0) {
			t.Errorf("Elo(%d, %d, %d) = %.1f ± %.1f, want %.1f ± %.1f", tt.w, tt.d, tt.l, elo, margin, tt.elo, tt.margin)
		}
	}
}

// Against a program that cannot be told an opening, the other player's
// moves among the opening's plies are random: the openings vary, where
// two searching players from the start would repeat themselves.
func TestMatchPlaysTheOpeningLiveAgainstAProgramFromTheStart(t *testing.T) {
	var recs []GameRecord
	_, err := RunMatch(context.Background(), MatchConfig{
		Registry: games.Registry(), Game: "hiya", P1: "alphabeta:2", P2: "alphabeta:3",
		Games: 6, MoveTime: 10 * time.Millisecond, Seed: 7, OpeningPlies: 2,
		FromStart: func(spec string) bool { return spec == "alphabeta:3" },
	}, func(r GameRecord) { recs = append(recs, r) })
	if err != nil {
		t.Fatal(err)
	}
	firsts := map[string]bool{}
	for _, r := range recs {
		if len(r.Opening) != 2 || r.Plies != len(r.Opening)+len(r.Moves) {
			t.Fatalf("game %d: opening %v, %d moves after it, %d plies", r.Number, r.Opening, len(r.Moves), r.Plies)
		}
		if r.First == "alphabeta:2" {
			firsts[r.Opening[0]] = true
		}
	}
	if len(firsts) < 2 {
		t.Errorf("the random player's first moves are all %v", firsts)
	}

	recs = nil
	_, err = RunMatch(context.Background(), MatchConfig{
		Registry: games.Registry(), Game: "hiya", P1: "greedy", P2: "random",
		Games: 2, MoveTime: 10 * time.Millisecond, Seed: 7, OpeningPlies: -1,
	}, func(r GameRecord) { recs = append(recs, r) })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if len(r.Opening) != 0 {
			t.Errorf("game %d: opening %v with no opening asked", r.Number, r.Opening)
		}
	}
}

// TestLiveOpeningMovesAreFairToTheirPlayer: a random move played live
// against a program is one that a deeper search rates fair to its player
// (no forced loss, at most 1.5 pieces behind); in Hi-Ya! some first moves
// of South's lose material by force, C3D4 among them, though an 8-ply
// search rates it only a piece down.
func TestLiveOpeningMovesAreFairToTheirPlayer(t *testing.T) {
	ctx := context.Background()
	g, err := games.Registry().New("hiya", rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	own, err := NewPlayer("greedy", PlayerOptions{Registry: games.Registry(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := &randomStart{Player: own, plies: 1, rng: rand.New(rand.NewPCG(5, 0)), judge: NewEngine(1)}
	var list rules.MoveList
	g.Moves(&list)
	unfair := map[string]bool{}
	for _, m := range list.Moves[:list.N] {
		after := g.Clone()
		after.Play(m)
		if !p.keepsInGame(ctx, after, g.ToMove()) {
			unfair[g.FormatMove(m)] = true
		}
	}
	// A 10-ply search rates these 2.0 to 3.6 pieces down for South, the
	// other first moves at most 1.0.
	for _, m := range []string{"C3D4", "E2B5", "E2C4", "E3E4", "F3F4", "G3G4"} {
		if !unfair[m] {
			t.Errorf("%s rated fair; it loses South material", m)
		}
	}
	if len(unfair) == list.N {
		t.Fatalf("all of Hi-Ya!'s %d first moves rated unfair", list.N)
	}
	chosen := map[string]bool{}
	for range 30 {
		m, _, err := p.Choose(ctx, g, Limits{MoveTime: 10 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if unfair[g.FormatMove(m)] {
			t.Fatalf("played %s live, which loses by force", g.FormatMove(m))
		}
		chosen[g.FormatMove(m)] = true
	}
	if len(chosen) < 3 {
		t.Errorf("30 live first moves are only %v", chosen)
	}
	// After South's E3E4, North may keep what South gave: F6E5, which a
	// 10-ply search rates about 2 pieces up for North, is fair.
	g.Play(mustMove(t, g, "E3E4"))
	after := g.Clone()
	after.Play(mustMove(t, g, "F6E5"))
	if !p.keepsInGame(ctx, after, g.ToMove()) {
		t.Error("after E3E4, North's F6E5 refused: it keeps North's advantage")
	}
}

// TestStoppedMatchSumsItsGames: a match stopped after some games scores
// those games, with ctx's error.
func TestStoppedMatchSumsItsGames(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var recs []GameRecord
	res, err := RunMatch(ctx, MatchConfig{
		Registry: games.Registry(), Game: "tictactoe", P1: "greedy", P2: "random",
		Games: 10, MoveTime: 10 * time.Millisecond, Seed: 3,
	}, func(r GameRecord) {
		recs = append(recs, r)
		if len(recs) == 3 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("a stopped match reported no error")
	}
	if res.Games != 3 {
		t.Fatalf("%d games summed, want the 3 played", res.Games)
	}
	var want float64
	for _, r := range recs {
		want += r.Score
	}
	if want /= 3; math.Abs(res.Score-want) > 1e-4 {
		t.Errorf("score %v, want %v, the 3 games' mean", res.Score, want)
	}
	if res.Wins > 0 && res.Losses == 0 && res.Elo <= 0 {
		t.Errorf("Elo %v for %d wins and no loss", res.Elo, res.Wins)
	}
}

// mustMove reads move text in g's current position.
func mustMove(t *testing.T, g rules.Game, text string) rules.Move {
	t.Helper()
	m, err := g.ParseMove(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return m
}

// slowDraw is a player whose opening move, drawn at random, takes an hour to
// draw (a long rating of its candidates) and whose own moves take 1 ms. It
// runs in a synctest bubble, where the sleeps advance a virtual clock.
type slowDraw struct{ Player }

func (p slowDraw) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	m, info, err := p.Player.Choose(ctx, g, lim)
	if g.Ply() < 2 {
		time.Sleep(time.Hour)
		info.Drawn = true
		return m, info, err
	}
	time.Sleep(time.Millisecond)
	return m, info, err
}

// TestLongestMoveLeavesOutTheDrawnOpening: the longest move of a match is
// the players' own; the time that drawing a fair opening move took is not.
func TestLongestMoveLeavesOutTheDrawnOpening(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reg := games.Registry()
		var seats [2]Player
		for i := range seats {
			p, err := NewPlayer("random", PlayerOptions{Registry: reg, Seed: uint64(i + 1)})
			if err != nil {
				t.Fatal(err)
			}
			seats[i] = slowDraw{p}
		}
		_, longest, err := PlayGame(context.Background(), startOf(t, "sixes"), nil, seats, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if longest != [2]time.Duration{time.Millisecond, time.Millisecond} {
			t.Errorf("longest moves %v, want 1ms each", longest)
		}
	})
}
