package sixes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// naive is an independent, deliberately plain implementation of the rules
// on a 2D array, written from the rules file without looking at the
// bitboards, to cross-check the fast one.
type naive struct {
	board  [6][6]int // 0 empty, 1 X, 2 O
	toMove int       // 1 or 2
	last   [3][4]int // last[p] = from row, from col, to row, to col; from row -1 for none
	ply    int
	limit  int
	edges  bool
	undo   []naiveSaved
}

type naiveSaved struct {
	board  [6][6]int
	toMove int
	last   [3][4]int
	ply    int
}

type naiveMove struct{ fr, fc, tr, tc int }

func (m naiveMove) String() string {
	return fmt.Sprintf("%c%d %c%d", 'a'+m.fr, m.fc+1, 'a'+m.tr, m.tc+1)
}

var dirs = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

func onBoard(r, c int) bool { return r >= 0 && r < 6 && c >= 0 && c < 6 }

func newNaive(diagram []string, toMove, limit int, edges bool) *naive {
	n := &naive{toMove: toMove, limit: limit, edges: edges}
	for p := range n.last {
		n.last[p][0] = -1
	}
	for r, line := range diagram {
		for c := 0; c < 6; c++ {
			switch line[c] {
			case 'X':
				n.board[r][c] = 1
			case 'O':
				n.board[r][c] = 2
			}
		}
	}
	return n
}

func naiveStart(limit int, edges bool) *naive {
	return newNaive([]string{"XX..OO", "XX..OO", "......", "......", "OO..XX", "OO..XX"}, 1, limit, edges)
}

func (n *naive) count(p int) int {
	k := 0
	for r := 0; r < 6; r++ {
		for c := 0; c < 6; c++ {
			if n.board[r][c] == p {
				k++
			}
		}
	}
	return k
}

// movesOf lists p's legal moves as if it were p's turn.
func (n *naive) movesOf(p int) []naiveMove {
	var out []naiveMove
	for r := 0; r < 6; r++ {
		for c := 0; c < 6; c++ {
			if n.board[r][c] != p {
				continue
			}
			for _, d := range dirs {
				r1, c1 := r+d[0], c+d[1]
				r2, c2 := r+2*d[0], c+2*d[1]
				var m naiveMove
				switch {
				case onBoard(r1, c1) && n.board[r1][c1] == 0:
					m = naiveMove{r, c, r1, c1}
				case onBoard(r1, c1) && onBoard(r2, c2) && n.board[r2][c2] == 0:
					m = naiveMove{r, c, r2, c2}
				default:
					continue
				}
				l := n.last[p]
				if l[0] >= 0 && m.fr == l[2] && m.fc == l[3] && m.tr == l[0] && m.tc == l[1] {
					continue
				}
				out = append(out, m)
			}
		}
	}
	return out
}

func (n *naive) over() bool {
	if n.count(1) == 0 || n.count(2) == 0 {
		return true
	}
	if len(n.movesOf(n.toMove)) == 0 {
		return true
	}
	return n.ply >= n.limit
}

func (n *naive) moves() []naiveMove {
	if n.over() {
		return nil
	}
	return n.movesOf(n.toMove)
}

// surroundedBy reports whether the piece on r, c has all four neighbours
// held by attacker (or the edge, with the edges variant).
func (n *naive) surroundedBy(r, c, attacker int) bool {
	for _, d := range dirs {
		r1, c1 := r+d[0], c+d[1]
		if !onBoard(r1, c1) {
			if !n.edges {
				return false
			}
			continue
		}
		if n.board[r1][c1] != attacker {
			return false
		}
	}
	return true
}

func (n *naive) removeSurrounded(victim int) {
	var gone [][2]int
	for r := 0; r < 6; r++ {
		for c := 0; c < 6; c++ {
			if n.board[r][c] == victim && n.surroundedBy(r, c, 3-victim) {
				gone = append(gone, [2]int{r, c})
			}
		}
	}
	for _, s := range gone {
		n.board[s[0]][s[1]] = 0
	}
}

func (n *naive) play(m naiveMove) {
	n.undo = append(n.undo, naiveSaved{n.board, n.toMove, n.last, n.ply})
	p := n.toMove
	n.board[m.tr][m.tc] = p
	n.board[m.fr][m.fc] = 0
	n.removeSurrounded(3 - p)
	n.removeSurrounded(p)
	n.last[p] = [4]int{m.fr, m.fc, m.tr, m.tc}
	n.toMove = 3 - p
	n.ply++
}

func (n *naive) unplay() {
	s := n.undo[len(n.undo)-1]
	n.undo = n.undo[:len(n.undo)-1]
	n.board, n.toMove, n.last, n.ply = s.board, s.toMove, s.last, s.ply
}

// result is "ongoing", "p1", "p2" or "draw", in the rules' order.
func (n *naive) result() string {
	win := map[int]string{1: "p1", 2: "p2"}
	if n.count(1) == 0 {
		return "p2"
	}
	if n.count(2) == 0 {
		return "p1"
	}
	if len(n.movesOf(n.toMove)) == 0 {
		return win[3-n.toMove]
	}
	if n.ply < n.limit {
		return "ongoing"
	}
	x, o := n.count(1), n.count(2)
	if x == o {
		x, o = len(n.movesOf(1)), len(n.movesOf(2))
	}
	switch {
	case x > o:
		return "p1"
	case o > x:
		return "p2"
	}
	return "draw"
}

func (n *naive) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var total uint64
	for _, m := range n.moves() {
		n.play(m)
		total += n.perft(depth - 1)
		n.unplay()
	}
	return total
}

// moveTexts returns the game's legal moves as sorted text.
func moveTexts(g *Game) []string {
	var list rules.MoveList
	g.Moves(&list)
	out := make([]string, 0, list.N)
	for _, m := range list.Slice() {
		out = append(out, g.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

func naiveTexts(ms []naiveMove) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// samePosition fails the test unless g and n agree on the board, the side
// to move, the ply, the legal moves, the move counts and the status.
func samePosition(t *testing.T, g *Game, n *naive, where string) {
	t.Helper()
	for r := 0; r < 6; r++ {
		for c := 0; c < 6; c++ {
			p, ok := g.PieceAt(r+1, c+1)
			want := n.board[r][c]
			got := 0
			if ok {
				got = int(p) + 1
			}
			if got != want {
				t.Fatalf("%s: square %c%d holds %d, reference %d\n%s", where, 'a'+r, c+1, got, want, g.Diagram())
			}
		}
	}
	if int(g.ToMove())+1 != n.toMove || g.Ply() != n.ply {
		t.Fatalf("%s: to move %v ply %d, reference %d ply %d", where, g.ToMove(), g.Ply(), n.toMove, n.ply)
	}
	if got, want := moveTexts(g), naiveTexts(n.moves()); !slices.Equal(got, want) {
		t.Fatalf("%s: moves %v, reference %v\n%s", where, got, want, g.Diagram())
	}
	for p := 1; p <= 2; p++ {
		if got, want := g.MoveCount(rules.Player(p-1)), len(n.movesOf(p)); got != want {
			t.Fatalf("%s: MoveCount(%d) = %d, reference %d", where, p, got, want)
		}
		if got, want := g.Pieces(rules.Player(p-1)), n.count(p); got != want {
			t.Fatalf("%s: Pieces(%d) = %d, reference %d", where, p, got, want)
		}
	}
	if got, want := g.Status().String(), n.result(); got != want {
		t.Fatalf("%s: status %s, reference %s\n%s", where, got, want, g.Diagram())
	}
}

func TestPerftAgreesWithReference(t *testing.T) {
	for _, edges := range []bool{false, true} {
		opts := rules.Options{"edges": map[bool]string{false: "off", true: "on"}[edges]}
		g, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		n := naiveStart(DefaultTurns, edges)
		depth := 4
		moves, counts := rules.Divide(g, depth)
		if len(moves) != len(n.moves()) {
			t.Fatalf("edges=%v: %d root moves, reference %d", edges, len(moves), len(n.moves()))
		}
		want := map[string]uint64{}
		for _, m := range n.moves() {
			n.play(m)
			want[m.String()] = n.perft(depth - 1)
			n.unplay()
		}
		for i, m := range moves {
			if w, ok := want[g.FormatMove(m)]; !ok || w != counts[i] {
				t.Errorf("edges=%v: divide %s = %d, reference %d (known %v)", edges, g.FormatMove(m), counts[i], w, ok)
			}
		}
	}
}

// randomDiagram returns a board with up to maxEach pieces a side (at least
// one in all) on random squares.
func randomDiagram(rng *rand.Rand, maxEach int) []string {
	rows := make([][]byte, 6)
	for r := range rows {
		rows[r] = []byte("......")
	}
	total := 0
	for _, piece := range []byte("XO") {
		k := rng.IntN(maxEach + 1)
		if total == 0 && piece == 'O' && k == 0 {
			k = 1
		}
		for range k {
			rows[rng.IntN(6)][rng.IntN(6)] = piece
		}
		total += k
	}
	out := make([]string, 6)
	for r := range rows {
		out[r] = string(rows[r])
	}
	return out
}

// TestRandomGamesAgreeWithReference plays many random games with both
// implementations side by side, from the start and from random positions,
// preferring moves that remove pieces so that every end is reached, now and
// then taking moves back. It checks they agree on everything after every
// move, that Tactical is true exactly for the moves that remove a piece,
// and that Undo restores the position and the hash exactly.
func TestRandomGamesAgreeWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 400
	ended := map[string]int{}
	for i := range games {
		edges := i%2 == 1
		limit := 20 + rng.IntN(300)
		opts := rules.Options{"edges": map[bool]string{false: "off", true: "on"}[edges], "turns": fmt.Sprint(limit)}
		var g *Game
		var n *naive
		if i%3 == 0 {
			var err error
			if g, err = New(opts); err != nil {
				t.Fatal(err)
			}
			n = naiveStart(limit, edges)
		} else {
			diagram := randomDiagram(rng, 3+rng.IntN(16))
			toMove := rules.Player(rng.IntN(2))
			var err error
			if g, err = Setup(opts, strings.Join(diagram, "\n"), toMove); err != nil {
				t.Fatal(err)
			}
			n = newNaive(diagram, int(toMove)+1, limit, edges)
		}
		greedy := rng.IntN(4) != 0
		var list rules.MoveList
		for step := 0; ; step++ {
			where := fmt.Sprintf("game %d step %d", i, step)
			samePosition(t, g, n, where)
			g.Moves(&list)
			if list.N == 0 {
				reason := g.Outcome().Reason
				if j := strings.Index(reason, ":"); j > 0 {
					reason = reason[:j]
				}
				ended[reason[strings.Index(reason, " ")+1:]]++
				break
			}
			if g.Ply() > 0 && rng.IntN(8) == 0 {
				before := g.Hash()
				m := list.Moves[rng.IntN(list.N)]
				diagram := g.Diagram()
				g.Play(m)
				g.Undo()
				if g.Hash() != before || g.Diagram() != diagram {
					t.Fatalf("%s: play %s and undo changed the position", where, g.FormatMove(m))
				}
				g.Undo()
				n.unplay()
				samePosition(t, g, n, where+" after undo")
				g.Moves(&list)
			}
			// Tactical must be true exactly for the moves that remove a
			// piece: checked for every move now and then, and always for the
			// move played.
			byText := map[string]naiveMove{}
			for _, nm := range n.moves() {
				byText[nm.String()] = nm
			}
			removes := func(m rules.Move) bool {
				before := n.count(1) + n.count(2)
				n.play(byText[g.FormatMove(m)])
				after := n.count(1) + n.count(2)
				n.unplay()
				return after < before
			}
			var tactical []rules.Move
			for _, m := range list.Slice() {
				if g.Tactical(m) {
					tactical = append(tactical, m)
				}
				if step%4 == 0 && g.Tactical(m) != removes(m) {
					t.Fatalf("%s: Tactical(%s) = %v, but it removes a piece: %v", where, g.FormatMove(m), g.Tactical(m), !g.Tactical(m))
				}
			}
			m := list.Moves[rng.IntN(list.N)]
			if greedy && len(tactical) > 0 && rng.IntN(4) != 0 {
				m = tactical[rng.IntN(len(tactical))]
			}
			if g.Tactical(m) != removes(m) {
				t.Fatalf("%s: Tactical(%s) = %v, but it removes a piece: %v", where, g.FormatMove(m), g.Tactical(m), !g.Tactical(m))
			}
			g.Play(m)
			n.play(byText[g.FormatMove(m)])
		}
	}
	t.Logf("how %d random games ended: %v", games, ended)
	for _, reason := range []string{"has no pieces left", "has no legal move", "limit reached"} {
		if ended[reason] == 0 {
			t.Errorf("no random game ended with %q: the test does not reach every end", reason)
		}
	}
}

// TestHashCoversState checks along random games that positions with
// different pieces, side to move, turns left or legal moves never share a
// hash, and that equal states always do.
func TestHashCoversState(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[uint64]string{}
	for i := range 200 {
		g, _ := New(rules.Options{"turns": "60"})
		var list rules.MoveList
		for {
			g.Moves(&list)
			key := fmt.Sprint(g.Diagram(), g.ToMove(), g.TurnsLeft(), moveTexts(g), g.MoveCount(g.ToMove()^1))
			if prev, ok := seen[g.Hash()]; ok && prev != key {
				t.Fatalf("game %d: hash %x for two states:\n%s\n%s", i, g.Hash(), prev, key)
			}
			seen[g.Hash()] = key
			if list.N == 0 {
				break
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
	}
}

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }

func joinRows(rows []string) string { return strings.Join(rows, "\n") }
