package described_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// FuzzParse feeds any text to the description reader: it never panics, an
// error is an *described.Error with a line and a column inside the file,
// and a description it accepts starts a game whose random moves play and
// undo without panicking.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"breakthrough", "othello", "connect4", "hex", "loa", "kalah", "dots", "morris"} {
		data, err := shipped.Files.ReadFile(name + described.Ext)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("name: x\nplayers: [{name: A}, {name: B}]\nrules: r\nboard: {columns: 3, rows: 3}\npieces: [{name: p}]\nstart: []\nmoves: [{kind: place}]\nend: [{when: in-a-row, length: 3, result: win}, {when: board-full, result: draw}]\n"))
	f.Add([]byte("name: [\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := described.Parse("fuzz.yaml", data)
		if err != nil {
			var de *described.Error
			if !errors.As(err, &de) {
				t.Fatalf("Parse error %v is not a *described.Error", err)
			}
			if lines := yamlLines(data); de.Line < 1 || de.Line > lines+1 || de.Column < 1 {
				t.Fatalf("error %v points outside the file (%d lines)", err, lines)
			}
			return
		}
		if other, err := s.Definition().New(nil); err == nil {
			if _, grid := described.Of(other); !grid { // a pits or dots board
				var list rules.MoveList
				for range 30 {
					if other.Moves(&list); list.N == 0 {
						break
					}
					other.Play(list.Moves[0])
				}
				for other.Ply() > 0 {
					other.Undo()
				}
				return
			}
		}
		g, err := s.New(nil)
		if err != nil {
			return
		}
		playSome(t, g, 30)
	})
}

// playSome plays up to n random moves and takes them back.
func playSome(t *testing.T, g *described.Game, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	var list rules.MoveList
	start := g.Hash()
	for range n {
		g.Moves(&list)
		if list.N == 0 {
			break
		}
		m := list.Moves[rng.IntN(list.N)]
		if got, err := g.ParseMove(g.FormatMove(m)); err != nil || got != m {
			// Two rules may give the same squares; the first counts.
			if err != nil {
				t.Fatalf("ParseMove(FormatMove(%v) = %q): %v", m, g.FormatMove(m), err)
			}
		}
		g.Play(m)
		g.Status()
		g.Evaluate()
	}
	for g.Ply() > 0 {
		g.Undo()
	}
	if g.Hash() != start {
		t.Fatal("undoing every move does not bring back the start's hash")
	}
}

// FuzzParseMove feeds any text to each shipped game's move parser, after
// a few random moves: it never panics, an error is a *rules.MoveError,
// and a move it accepts is legal and reads back from its canonical text.
func FuzzParseMove(f *testing.F) {
	for _, seed := range []struct {
		game  uint8
		plies uint8
		text  string
	}{
		{0, 0, "a2 a3"}, {0, 3, "b2-c3"}, {0, 0, "A2A3"}, {0, 0, "z9 a1"}, {0, 0, "a2 to a4"},
		{1, 0, "d3"}, {1, 5, "pass"}, {1, 0, "e9"}, {1, 0, "D3"},
		{2, 0, "d"}, {2, 4, "D"}, {2, 0, "h"}, {2, 0, "d1"}, {2, 0, "d2"}, {0, 0, ""}, {1, 0, "a1 a2 a3"},
		{3, 4, "g1 x d7"}, {3, 20, "d2 d3 x a1"}, {3, 0, "x"}, {3, 5, "d2 x"}, {3, 5, "x a1"},
	} {
		f.Add(seed.game, seed.plies, seed.text)
	}
	specs := map[uint8]*described.Spec{}
	for i, name := range []string{"breakthrough", "othello", "connect4", "morris"} {
		specs[uint8(i)] = shippedSpec(f, name)
	}
	f.Fuzz(func(t *testing.T, game, plies uint8, text string) {
		g, err := specs[game%uint8(len(specs))].New(nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(plies), 3))
		var list rules.MoveList
		for range int(plies % 40) {
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		m, err := g.ParseMove(text)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || me.Text == "" {
				t.Fatalf("ParseMove(%q) error %v is not a *rules.MoveError with text", text, err)
			}
			return
		}
		g.Moves(&list)
		if !list.Contains(m) {
			t.Fatalf("ParseMove(%q) = %v, not a legal move", text, m)
		}
		if back, err := g.ParseMove(g.FormatMove(m)); err != nil || back != m {
			t.Fatalf("ParseMove(FormatMove(%v) = %q) = %v, %v", m, g.FormatMove(m), back, err)
		}
	})
}

// yamlLines counts the lines of data as YAML does: "\r\n", a lone "\r"
// and "\n" each end a line.
func yamlLines(data []byte) int {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.Count(text, "\n") + strings.Count(text, "\r") + 1
}
