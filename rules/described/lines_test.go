package described_test

import (
	"math/bits"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// TestOpenLinesOfASmallBoard: on a 3×3 board with lines of 3, A's b2 and
// c2 hold the middle row (2 pieces: 4) and lie open in the middle column,
// the right column and the a3–c1 diagonal (1 each); B's a1 lies open in
// the bottom row and the left column; the a1–c3 diagonal holds both. At
// weight 10, A to move: 10 × (7 − 2).
func TestOpenLinesOfASmallBoard(t *testing.T) {
	g := game(t, `board: {columns: 3, rows: 3, rows-numbered: from-bottom}
pieces: [{name: stone, text: [A, B]}]
start:
  - {player: 1, at: [[2, 2], [3, 2]]}
  - {player: 2, at: [1, 1]}
moves:
  - {kind: place}
end:
  - {when: in-a-row, length: 3, result: win}
evaluation: {material: {stone: 0}, lines: 10}
`)
	if got := g.Evaluate(); got != 50 {
		t.Fatalf("Evaluate = %d, want 50", got)
	}
}

// TestOpenLinesAroundABlocker: on a row of five with lines of 3, A's b1
// after a1 b1 shooting c1, and B's e1, lie only in lines through the
// blocker on c1, so neither has an open line.
func TestOpenLinesAroundABlocker(t *testing.T) {
	g := game(t, `board: {columns: 5, rows: 1, rows-numbered: from-bottom}
pieces: [{name: stone, text: [A, B]}]
start:
  - {player: 1, at: [1, 1]}
  - {player: 2, at: [5, 1]}
moves:
  - {kind: slide, directions: all, shoot: {directions: all}}
end:
  - {when: in-a-row, length: 3, result: win}
evaluation: {material: {stone: 0}, lines: 10}
`)
	if got := g.Evaluate(); got != 0 {
		t.Fatalf("before the shot: Evaluate = %d, want 0 (a1–c1 for A, c1–e1 for B)", got)
	}
	g.Play(mustParse(t, g, "a1 b1 c1"))
	if !g.Blocked(2, 0) {
		t.Fatal("no blocker on c1")
	}
	if got := g.Evaluate(); got != 0 {
		t.Fatalf("Evaluate = %d, want 0: every line holds the blocker", got)
	}
}

// TestOpenLinesNeedAnInARowEnding: lines is refused, in words, for a game
// that is not won by a line.
func TestOpenLinesNeedAnInARowEnding(t *testing.T) {
	head := "name: t\nplayers: [{name: A}, {name: B}]\nrules: r\n"
	_, err := described.Load("t.yaml", []byte(head+`board: {columns: 3, rows: 3}
pieces: [{name: stone, text: [A, B]}]
start: []
moves: [{kind: place}]
end: [{when: board-full, result: draw}]
evaluation: {lines: 1}
`))
	if err == nil || !strings.Contains(err.Error(), "lines weighs the lines toward an in-a-row ending") {
		t.Fatalf("error %v, want the in-a-row ending named", err)
	}
}

// TestOpenLinesAgreeWithCounting: along random games of Gomoku (four
// 64-bit words), Connect Four and Pentago, with lines as the only weight,
// the evaluation is the open lines counted here one line at a time (in
// Pentago, less the opponent's double threat, tested apart).
func TestOpenLinesAgreeWithCounting(t *testing.T) {
	for _, tc := range []struct {
		name, piece string
		length      int
	}{{"gomoku", "stone", 5}, {"connect4", "disc", 4}, {"pentago", "marble", 5}} {
		text, err := shipped.Files.ReadFile(tc.name + described.Ext)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(text), "\nevaluation:\n")
		if i < 0 {
			t.Fatalf("%s has no evaluation: to replace", tc.name)
		}
		eval := "\nevaluation:\n  material: {" + tc.piece + ": 0}\n  lines: 3\n"
		spec, err := described.Load(tc.name+described.Ext, []byte(string(text[:i])+eval))
		if err != nil {
			t.Fatal(err)
		}
		rng := newRand(tc.name)
		for range 5 {
			g, err := spec.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			var list rules.MoveList
			for g.Status() == rules.Ongoing {
				want := countOpenLines(g, tc.length, 3) - g.DoubleThreat(g.ToMove()^1)
				if got := g.Evaluate(); got != want {
					t.Fatalf("%s after %v: %d, want %d", tc.name, played(g), got, want)
				}
				g.Moves(&list)
				g.Play(list.Slice()[rng.IntN(list.N)])
			}
		}
	}
}

// TestOneWordLinesAgreeWithAnyBoard: along random games of Connect Four
// and Pentago, boards of one 64-bit word, the open lines and each player's
// squares that complete a line are the same by the one-word path as by the
// path for any board.
func TestOneWordLinesAgreeWithAnyBoard(t *testing.T) {
	for _, name := range []string{"connect4", "pentago"} {
		text, err := shipped.Files.ReadFile(name + described.Ext)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := described.Load(name+described.Ext, text)
		if err != nil {
			t.Fatal(err)
		}
		rng := newRand(name)
		threats := 0
		for range 200 {
			g, err := spec.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			var list rules.MoveList
			for g.Status() == rules.Ongoing {
				for p := range rules.Player(2) {
					word, anyBoard, wordCells, anyCells := g.LinesBothWays(p)
					if word != anyBoard || wordCells != anyCells {
						t.Fatalf("%s after %v, player %d: one word %v, squares %#x; any board %v, squares %#x",
							name, played(g), p, word, wordCells, anyBoard, anyCells)
					}
					if bits.OnesCount64(anyCells) >= 2 {
						threats++
					}
				}
				g.Moves(&list)
				g.Play(list.Slice()[rng.IntN(list.N)])
			}
		}
		if threats == 0 {
			t.Fatalf("%s: no position with two completing squares", name)
		}
	}
}

// countOpenLines scores the open lines of length for the player to move,
// less the opponent's, at weight, by walking every line of the board.
func countOpenLines(g *described.Game, length, weight int) int {
	cols, rows := g.Size()
	me := g.ToMove()
	score := 0
	for c := range cols {
		for r := range rows {
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				var n [2]int
				fits := true
				for i := range length {
					x, y := c+i*d[0], r+i*d[1]
					if x < 0 || x >= cols || y < 0 || y >= rows {
						fits = false
						break
					}
					if p, _, ok := g.At(x, y); ok {
						n[p]++
					}
				}
				if !fits || n[0] > 0 && n[1] > 0 {
					continue
				}
				for p, k := range n {
					if k == 0 {
						continue
					}
					v := weight
					for range k - 1 {
						v *= 4
					}
					if rules.Player(p) == me {
						score += v
					} else {
						score -= v
					}
				}
			}
		}
	}
	return score
}
