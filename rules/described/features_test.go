package described_test

import (
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// game loads a description made of the common head and body, and starts it.
func game(t *testing.T, body string) *described.Game {
	t.Helper()
	head := "name: t\nplayers: [{name: A, forward: north}, {name: B, forward: south}]\nrules: r\n"
	s, err := described.Load("t.yaml", []byte(head+body))
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// moves returns the legal moves' texts, sorted.
func moves(g *described.Game) []string {
	var list rules.MoveList
	g.Moves(&list)
	var out []string
	for _, m := range list.Slice() {
		out = append(out, g.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// play plays moves given as text, failing on any error.
func play(t *testing.T, g *described.Game, texts ...string) {
	t.Helper()
	for _, text := range texts {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g.Play(m)
	}
}

// row writes row r (0 at the top) as piece texts, "." for empty.
func row(g *described.Game, r int) string {
	cols, _ := g.Size()
	var b strings.Builder
	for c := range cols {
		p, k, ok := g.At(c, r)
		if !ok {
			b.WriteByte('.')
			continue
		}
		b.WriteString(g.PieceText(k, p))
	}
	return b.String()
}

func TestJumpChainCaptures(t *testing.T) {
	g := game(t, `board: {columns: 6, rows: 1}
pieces: [{name: stone, text: [X, O]}]
start:
  - {player: 1, at: [1, 1]}
  - {player: 2, at: [[2, 1], [4, 1]]}
moves:
  - {kind: jump, directions: [east, west], over: enemy, capture: true, chain: true}
`)
	if got := moves(g); !slices.Equal(got, []string{"a1 c1", "a1 e1"}) {
		t.Fatalf("moves %v, want a1 c1 and a1 e1 (a chain in one line)", got)
	}
	play(t, g, "a1 e1")
	if got := row(g, 0); got != "....X." {
		t.Fatalf("after the double jump the row is %q", got)
	}
	if o := g.Outcome(); o.Result != rules.P1Wins || o.Reason != "B has no legal move" {
		t.Fatalf("outcome %+v: B has no pieces, so no move, and loses by default", o)
	}
}

func TestSlideWithRangeAndCapture(t *testing.T) {
	body := `board: {columns: 1, rows: 5}
pieces: [{name: rook, text: [R, r]}]
start:
  - {player: 1, at: [1, 1]}
  - {player: 2, at: [1, 4]}
moves:
  - {kind: slide, directions: orthogonal, to: [empty, enemy]RANGE}
`
	g := game(t, strings.Replace(body, "RANGE", "", 1))
	if got := moves(g); !slices.Equal(got, []string{"a1 a2", "a1 a3", "a1 a4"}) {
		t.Fatalf("moves %v, want up to and onto the enemy rook", got)
	}
	if !g.Tactical(mustParse(t, g, "a1 a4")) || g.Tactical(mustParse(t, g, "a1 a3")) {
		t.Error("only the capture is tactical")
	}
	g = game(t, strings.Replace(body, "RANGE", ", range: 2", 1))
	if got := moves(g); !slices.Equal(got, []string{"a1 a2", "a1 a3"}) {
		t.Fatalf("moves with range 2: %v", got)
	}
}

func mustParse(t *testing.T, g *described.Game, text string) rules.Move {
	t.Helper()
	m, err := g.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPromotionAndReachByKind(t *testing.T) {
	g := game(t, `board: {columns: 2, rows: 4}
pieces: [{name: pawn, text: [P, p]}, {name: king, text: [K, k]}]
start:
  - {player: 1, piece: pawn, at: [1, 2]}
  - {player: 2, piece: pawn, at: [2, 4]}
moves:
  - {kind: step, piece: pawn, directions: forward, promote: {row: 3, to: king}}
  - {kind: step, piece: king, directions: all, to: [empty, enemy]}
end:
  - {when: reach, row: far, piece: king, result: win}
`)
	play(t, g, "a2 a3")
	if p, k, ok := g.At(0, 1); !ok || p != rules.P1 || g.PieceNames()[k] != "king" {
		t.Fatalf("the pawn on a3 did not become a king: %v %v %v", p, k, ok)
	}
	play(t, g, "b4 b3", "a3 a4")
	if o := g.Outcome(); o.Result != rules.P1Wins || o.Reason != "A reached the goal row" {
		t.Fatalf("outcome %+v, want A's king on the far row to win", o)
	}
}

func TestOutflankCaptureAndTurnsScore(t *testing.T) {
	g := game(t, `board: {columns: 4, rows: 1}
pieces: [{name: stone, text: [X, O]}]
start:
  - {player: 1, at: [1, 1]}
  - {player: 2, at: [2, 1]}
moves:
  - {kind: place, outflank: capture}
end:
  - {when: turns, count: 2, result: score}
score: pieces
`)
	if got := row(g, 0); got != "XO.." {
		t.Fatalf("start %q", got)
	}
	play(t, g, "c1")
	if got := row(g, 0); got != "X.X." {
		t.Fatalf("after c1 the row is %q, want O removed", got)
	}
	play(t, g, "b1")
	o := g.Outcome()
	if o.Result != rules.P1Wins || !o.HasScores || o.Scores != [2]int{2, 1} || o.Reason != "turn limit of 2 moves reached: 2 pieces to 1" {
		t.Fatalf("outcome %+v", o)
	}
	g.Undo()
	g.Undo()
	if got := row(g, 0); got != "XO.." || g.Status() != rules.Ongoing {
		t.Fatalf("after undoing both moves the row is %q, status %v", got, g.Status())
	}
}

func TestForcedPass(t *testing.T) {
	// X's only piece has no enemy line to close: X must pass; O's c1 then
	// takes it, and the game ends when neither can move.
	g := game(t, `board: {columns: 4, rows: 1}
pieces: [{name: stone, text: [X, O]}]
start:
  - {player: 2, at: [1, 1]}
  - {player: 1, at: [2, 1]}
moves:
  - {kind: place, outflank: flip, must-outflank: true}
end:
  - {when: no-moves, result: pass}
score: pieces
`)
	if got := moves(g); !slices.Equal(got, []string{"pass"}) || g.Status() != rules.Ongoing {
		t.Fatalf("moves %v, status %v: X must pass", got, g.Status())
	}
	if _, err := g.ParseMove("c1"); err == nil || !strings.Contains(err.Error(), "write pass") {
		t.Fatalf("c1 when X must pass: %v", err)
	}
	play(t, g, "pass", "c1")
	if got := row(g, 0); got != "OOO." {
		t.Fatalf("after O's c1 the row is %q", got)
	}
	if o := g.Outcome(); o.Result != rules.P2Wins || o.Reason != "neither player can move: 3 pieces to 0" {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := g.ParseMove("pass"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Fatalf("pass after the end: %v", err)
	}
}

// TestDropAndPlaceTogether: a game with both drops and placements reads a
// column as a drop and a square as a placement.
func TestDropAndPlaceTogether(t *testing.T) {
	g := game(t, `board: {columns: 3, rows: 3}
pieces: [{name: disc, text: [X, O]}]
start: []
moves:
  - {kind: drop}
  - {kind: place}
end:
  - {when: board-full, result: draw}
`)
	if got := moves(g); len(got) != 12 || got[0] != "a" || got[1] != "a1" || got[4] != "b" {
		t.Fatalf("moves %v, want 3 drops and 9 placements", got)
	}
	play(t, g, "b", "b3")
	if row(g, 2) != ".X." || row(g, 0) != ".O." {
		t.Fatalf("rows %q %q %q", row(g, 0), row(g, 1), row(g, 2))
	}
	if m, err := g.ParseMove("b"); err != nil || g.FormatMove(m) != "b" {
		t.Fatalf("b: %v %v", g.FormatMove(m), err)
	}
}

func TestTacticalGoalStep(t *testing.T) {
	body := `board: {columns: 3, rows: 4}
pieces: [{name: pawn, text: [P, p]}, {name: king, text: [K, k]}]
start:
  - {player: 1, at: [[1, 3]], piece: pawn}
  - {player: 1, at: [[2, 1]], piece: king}
  - {player: 2, at: [[3, 2]], piece: pawn}
moves:
  - {kind: step, directions: forward, to: empty}
end:
  - {when: reach, row: far, piece: pawn, result: win}
`
	g := game(t, body)
	// A's pawn wins at once on the far row; its king's step neither wins
	// nor captures.
	if !g.Tactical(mustParse(t, g, "a3 a4")) || g.Tactical(mustParse(t, g, "b1 b2")) {
		t.Error("the pawn's winning step is not tactical, or the king's step is")
	}
	// B's far row is the first.
	play(t, g, "b1 b2")
	if !g.Tactical(mustParse(t, g, "c2 c1")) {
		t.Error("B's winning step is not tactical")
	}
}

func TestTacticalLineCompleted(t *testing.T) {
	body := `board: {columns: 4, rows: 2, rows-numbered: from-bottom}
pieces: [{name: disc, text: [X, O]}]
start: []
moves:
  - {kind: drop}
end:
  - {when: in-a-row, length: 3, result: win}
`
	g := game(t, body)
	play(t, g, "a", "a", "b", "b")
	// X wins at once with c; O's line would need the same c.
	if !g.Tactical(mustParse(t, g, "c")) || g.Tactical(mustParse(t, g, "d")) {
		t.Error("X's winning drop is not tactical, or the drop beside nothing is")
	}
}
