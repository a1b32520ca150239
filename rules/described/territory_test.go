package described_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// territoryOf returns the position's territory term, failing without one.
func territoryOf(t *testing.T, g *described.Game) [2]int {
	t.Helper()
	for _, term := range g.Terms() {
		if term.Name == "territory" {
			return term.Count
		}
	}
	t.Fatalf("no territory among the terms %v", g.Terms())
	return [2]int{}
}

// TestTerritoryOfASmallBoard: on a 3×3 board White's a1 and b1 reach
// every empty square in one move and Black's c3 all but a2, so White owns
// a2 alone and every other square is shared.
func TestTerritoryOfASmallBoard(t *testing.T) {
	g := game(t, `board: {columns: 3, rows: 3, rows-numbered: from-bottom}
pieces: [{name: queen, text: [Q, q]}]
start:
  - {player: 1, at: [[1, 1], [2, 1]]}
  - {player: 2, at: [3, 3]}
moves:
  - {kind: slide, directions: all}
evaluation: {material: {queen: 0}, territory: 7}
`)
	if got := territoryOf(t, g); got != [2]int{1, 0} {
		t.Fatalf("territory %v, want White 1 (a2), Black 0", got)
	}
	if got := g.Evaluate(); got != 7 {
		t.Errorf("Evaluate = %d, want 7: one square more at weight 7", got)
	}
}

// TestTerritoryAgreesWithAmazonsQueenDistance: along random games of the
// Amazons, each side's territory is the squares its amazons reach in fewer
// queen moves than the other's, counted here by the hand-written game's own
// queen moves.
func TestTerritoryAgreesWithAmazonsQueenDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	games := 20
	if testing.Short() {
		games = 4
	}
	for range games {
		g := newDescribed(t, "amazons", nil)
		var list rules.MoveList
		for ply := 0; g.Outcome().Result == rules.Ongoing; ply++ {
			if got, want := territoryOf(t, g), queenTerritory(g); got != want {
				t.Fatalf("after %v: territory %v, want %v", played(g), got, want)
			}
			g.Moves(&list)
			g.Play(list.Slice()[rng.IntN(list.N)])
		}
	}
}

// queenTerritory counts each side's squares by queen distance on the
// hand-written board copied from g.
func queenTerritory(g *described.Game) [2]int {
	ref := &amazonsGame{}
	for c := range 10 {
		for r := range 10 {
			cell := &ref.cells[(9-r)*10+c]
			if p, _, ok := g.At(c, r); ok {
				*cell = int8(p) + 1
			} else if g.Blocked(c, r) {
				*cell = 3
			}
		}
	}
	var dist [2][100]int
	for p := range 2 {
		var frontier []int
		for c := range 100 {
			dist[p][c] = -1
			if ref.cells[c] == int8(p)+1 {
				dist[p][c] = 0
				frontier = append(frontier, c)
			}
		}
		for d := 1; len(frontier) > 0; d++ {
			var next []int
			for _, c := range frontier {
				ref.reach(c, -1, func(s int) {
					if dist[p][s] < 0 {
						dist[p][s] = d
						next = append(next, s)
					}
				})
			}
			frontier = next
		}
	}
	var out [2]int
	for c := range 100 {
		a, b := dist[0][c], dist[1][c]
		switch {
		case ref.cells[c] != 0 || a == b:
		case b < 0 || a >= 0 && a < b:
			out[0]++
		default:
			out[1]++
		}
	}
	return out
}

// TestTerritoryNeedsAMoveThatReaches: territory is refused, in words, for
// a game whose players only place pieces.
func TestTerritoryNeedsAMoveThatReaches(t *testing.T) {
	file := tictactoe + "evaluation: {territory: 5}\n"
	_, err := described.Load("t.yaml", []byte(file))
	if err == nil || !strings.Contains(err.Error(), "territory counts the squares a player's step and slide moves reach first, and player 1 has none") {
		t.Fatalf("got %v, want territory refused for a game of placing", err)
	}
}

// TestTerritoryOnAGraph: on a board of points, a move follows the lines
// between points, however far apart the points lie: White's a1 reaches a3
// (up its line) and c1 (along its line), Black's c3 reaches c1, so White
// owns a3 and c1 is shared.
func TestTerritoryOnAGraph(t *testing.T) {
	g := game(t, `board:
  columns: 3
  rows: 3
  rows-numbered: from-bottom
  points: [a1, c1, a3, c3]
  lines: [a1 c1, c1 c3, a1 a3]
pieces: [{name: man, text: [W, B]}]
start:
  - {player: 1, at: [1, 1]}
  - {player: 2, at: [3, 3]}
moves:
  - {kind: step, directions: orthogonal}
evaluation: {material: {man: 0}, territory: 1}
`)
	if got := territoryOf(t, g); got != [2]int{1, 0} {
		t.Fatalf("territory %v, want White 1 (a3), Black 0", got)
	}
}
