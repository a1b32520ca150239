package described_test

import (
	"errors"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// TestShapedErrors: mistakes in a pits or dots description are reported
// at their line and column, in the author's words.
func TestShapedErrors(t *testing.T) {
	kalah, err := shipped.Files.ReadFile("kalah.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dots, err := shipped.Files.ReadFile("dots.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		base     []byte
		old, new string
		want     string
	}{
		{kalah, "  houses: houses\n", "  houses: houses\n  columns: 6\n", "kalah.yaml:26:3: a pits board has no columns"},
		{kalah, "  houses: houses\n", "", "kalah.yaml:24:3: a pits board needs the key \"houses\""},
		{kalah, "{kind: sow, skip", "{kind: step, skip", "kalah.yaml:32:12: kind on a pits board \"step\": write one of sow"},
		{kalah, "skip: opponent-store", "skip: own-store", "kalah.yaml:32:23: skip \"own-store\": write one of opponent-store"},
		{kalah, "capture: opposite", "capture: beside", "kalah.yaml:32:48: capture \"beside\": write one of opposite"},
		{kalah, "again: last-in-store", "again: completes-box", "kalah.yaml:32:65: again \"completes-box\": write one of last-in-store"},
		{kalah, "{when: houses-empty", "{when: no-moves", "kalah.yaml:34:12: when on a pits board \"no-moves\": write one of houses-empty"},
		{kalah, "sweep: own", "sweep: all", "kalah.yaml:34:33: sweep \"all\": write one of own, none"},
		{kalah, "score: stores\n", "", "kalah.yaml:34:5: result: score needs score: stores in the description"},
		{kalah, "score: stores", "score: pieces", "kalah.yaml:35:8: score on a pits board \"pieces\": write one of stores"},
		{kalah, "  - {seeds: seeds}", "  - {seeds: seeds, player: 1}", "kalah.yaml:30:20: a start entry has no key \"player\""},
		{kalah, "shape: pits", "shape: ring", "kalah.yaml:24:10: shape \"ring\": write one of grid, pits, dots"},
		{dots, "start: []", "start: [{seeds: 1}]", "dots.yaml:25:8: a dots board starts with no line drawn"},
		{dots, "again: completes-box", "again: last-in-store", "dots.yaml:27:25: again \"last-in-store\": write one of completes-box"},
		{dots, "{kind: line, again", "{kind: line, skip: opponent-store, again", "dots.yaml:27:18: a line move has no key \"skip\""},
		{dots, "  columns: columns\n", "  columns: columns\n  houses: 6\n", "dots.yaml:21:3: a dots board has no houses"},
		{[]byte(strings.Replace(tictactoe, "{kind: place}", "{kind: sow}", 1)), "", "", "ttt.yaml:16:12: kind sow needs a pits board: add shape: pits to board"},
		{[]byte(strings.Replace(tictactoe, "  rows: side\n", "  rows: side\n  houses: 6\n", 1)), "", "", "ttt.yaml:12:3: houses belongs to a pits board: add shape: pits"},
	} {
		file := "kalah.yaml"
		switch {
		case &tc.base[0] == &dots[0]:
			file = "dots.yaml"
		case &tc.base[0] != &kalah[0]:
			file = "ttt.yaml"
		}
		text := strings.Replace(string(tc.base), tc.old, tc.new, 1)
		if tc.old != "" && text == string(tc.base) {
			t.Fatalf("%q is not in %s", tc.old, file)
		}
		_, err := described.Parse(file, []byte(text))
		var de *described.Error
		if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s with %q: error %v, want %q", file, tc.new, err, tc.want)
		}
	}
}

// TestKalahRules plays the rules' cases by hand: a move again from the
// store, a capture from the opposite house, the sweep at the end, and the
// notation's errors.
func TestKalahRules(t *testing.T) {
	g := newShaped(t, "kalah", nil).(*described.Pits)
	play := func(text string) {
		t.Helper()
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g.Play(m)
	}
	// South's house 3 holds 4: houses 4, 5, 6 and the store; South again.
	play("3")
	if g.ToMove() != rules.P1 || g.Store(rules.P1) != 1 {
		t.Fatalf("after 3: %v to move, store %d", g.ToMove(), g.Store(rules.P1))
	}
	if _, err := g.ParseMove("3"); !errors.Is(err, rules.ErrNoPiece) {
		t.Errorf("house 3 is empty: %v", err)
	}
	if _, err := g.ParseMove("7"); !errors.Is(err, rules.ErrOffBoard) {
		t.Errorf("house 7: %v", err)
	}
	if _, err := g.ParseMove("c3"); !errors.Is(err, rules.ErrUnreadable) {
		t.Errorf("c3: %v", err)
	}
	// South 1 (4 seeds: houses 2-5), North 1... until a capture: South's
	// house 3 is empty; South's house 2 after "1" holds 5.
	play("1") // houses 2, 3, 4, 5 get one each: 3 is no longer empty; North to move
	if g.ToMove() != rules.P2 {
		t.Fatalf("after 1: %v to move", g.ToMove())
	}
	// A capture from a made position: play random games until one
	// captures and check the stores gained the opposite house's seeds.
	captures, sweeps := 0, 0
	rng := newRand("kalah rules")
	var list rules.MoveList
	for range 200 {
		g := newShaped(t, "kalah", nil).(*described.Pits)
		for g.Status() == rules.Ongoing {
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			p := g.ToMove()
			before := g.Store(p)
			h := int(m)
			seeds := g.House(p, h)
			// Where the last seed falls when it stays on the mover's side.
			land := h + seeds
			if land <= g.Houses() && g.House(p, land) == 0 {
				opposite := g.House(p^1, g.Houses()+1-land)
				tactical := g.Tactical(m)
				g.Play(m)
				if opposite > 0 && g.Status() == rules.Ongoing {
					captures++
					if got := g.Store(p) - before; got != opposite+1 || !tactical {
						t.Fatalf("capture of %d: store gained %d, tactical %v", opposite, got, tactical)
					}
				}
				continue
			}
			g.Play(m)
		}
		if out := g.Outcome(); out.Scores[0]+out.Scores[1] != 48 || !strings.Contains(out.Reason, "houses are empty") {
			t.Fatalf("outcome %+v", out)
		}
		sweeps++
	}
	if captures == 0 || sweeps == 0 {
		t.Fatalf("%d captures, %d games", captures, sweeps)
	}
}

// TestDotsRules: a box completed scores for the mover, who moves again;
// the notation reads either order of the dots and refuses lines that are
// not there.
func TestDotsRules(t *testing.T) {
	g := newShaped(t, "dots", dotsOptions(2, 2)).(*described.Dots)
	for i, text := range []string{"a1 b1", "a1 a2", "b2 b1", "a2-b2"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if i == 3 && !g.Tactical(m) {
			t.Errorf("%s completes a box but is not tactical", text)
		}
		g.Play(m)
	}
	if p, ok := g.BoxOwner(0, 0); !ok || p != rules.P2 || g.Score(rules.P2) != 1 || g.ToMove() != rules.P2 {
		t.Fatalf("box a1: owner %v %v, Blue's boxes %d, %v to move", p, ok, g.Score(rules.P2), g.ToMove())
	}
	for text, kind := range map[string]error{"a1 b1": rules.ErrIllegal, "a1 c1": rules.ErrNotAPlace, "a1 b2": rules.ErrNotAPlace, "a1 a4": rules.ErrOffBoard, "a1": rules.ErrUnreadable} {
		if _, err := g.ParseMove(text); !errors.Is(err, kind) {
			t.Errorf("%s: %v, want %v", text, err, kind)
		}
	}
	g.Undo()
	if _, ok := g.BoxOwner(0, 0); ok || g.Score(rules.P2) != 0 || g.ToMove() != rules.P2 {
		t.Fatalf("after undo: box a1 owned %v, Blue's boxes %d, %v to move", ok, g.Score(rules.P2), g.ToMove())
	}
}
