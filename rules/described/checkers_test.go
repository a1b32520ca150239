package described_test

// A hand-written Go Checkers (English draughts), for the tests only: the
// described checkers must agree with it move for move.

import (
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// checkers is the 8×8 board, cell = rank0*8 + file0 (rank 0 is rank 1,
// Black's side). A move is an index into the routes generated at its ply.
type checkers struct {
	cells  [64]int8 // 0 empty; 1 Black man, 2 White man, 3 Black king, 4 White king
	ply    int
	quiet  int         // plies in a row with no capture and no man moved
	routes [][]ckRoute // by ply: the moves generated there
	undo   []ckUndo
}

// ckRoute is a move: the squares visited (from first) and those jumped.
type ckRoute struct {
	path   []int
	jumped []int
}

type ckUndo struct {
	cells [64]int8
	quiet int
}

func newCheckers() *checkers {
	g := &checkers{}
	for sq := range 64 {
		f, r := sq%8, sq/8
		if (f+r)%2 != 0 {
			continue // a light square: a1 (0, 0) is dark
		}
		switch {
		case r <= 2:
			g.cells[sq] = 1
		case r >= 5:
			g.cells[sq] = 2
		}
	}
	return g
}

func (g *checkers) mover() int8 { return int8(1 + g.ply%2) }

// owner of a cell's piece: 1 Black, 2 White, 0 none.
func ckOwner(v int8) int8 {
	if v == 0 {
		return 0
	}
	return 2 - v%2
}

// dirsOf returns the (file, rank) steps a piece moves and captures in.
func ckDirs(v int8) [][2]int {
	switch v {
	case 1:
		return [][2]int{{-1, 1}, {1, 1}}
	case 2:
		return [][2]int{{-1, -1}, {1, -1}}
	}
	return [][2]int{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}}
}

func ckOn(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// captures adds every capture route of the piece v lifted from the board,
// now standing on cur after path with jumped taken.
func (g *checkers) captures(v int8, path, jumped []int, out *[]ckRoute) {
	cur := path[len(path)-1]
	me := ckOwner(v)
	far := 7
	if me == 2 {
		far = 0
	}
	isMan := v <= 2
	if len(jumped) > 0 && isMan && cur/8 == far {
		*out = append(*out, ckRoute{append([]int(nil), path...), append([]int(nil), jumped...)})
		return
	}
	more := false
	for _, d := range ckDirs(v) {
		of, or := cur%8+d[0], cur/8+d[1]
		lf, lr := cur%8+2*d[0], cur/8+2*d[1]
		if !ckOn(lf, lr) {
			continue
		}
		over, land := or*8+of, lr*8+lf
		o := ckOwner(g.cells[over])
		if o == 0 || o == me || g.cells[land] != 0 {
			continue
		}
		taken := false
		for _, j := range jumped {
			taken = taken || j == over
		}
		if taken {
			continue
		}
		more = true
		g.captures(v, append(path, land), append(jumped, over), out)
	}
	if !more && len(jumped) > 0 {
		*out = append(*out, ckRoute{append([]int(nil), path...), append([]int(nil), jumped...)})
	}
}

// legal returns the legal routes of the player to move.
func (g *checkers) legal() []ckRoute {
	me := g.mover()
	var caps, steps []ckRoute
	for sq, v := range g.cells {
		if ckOwner(v) != me {
			continue
		}
		g.cells[sq] = 0 // lifted: a king may come back to its square
		g.captures(v, []int{sq}, nil, &caps)
		g.cells[sq] = v
		for _, d := range ckDirs(v) {
			f, r := sq%8+d[0], sq/8+d[1]
			if ckOn(f, r) && g.cells[r*8+f] == 0 {
				steps = append(steps, ckRoute{path: []int{sq, r*8 + f}})
			}
		}
	}
	if len(caps) > 0 {
		return caps
	}
	return steps
}

func (g *checkers) Moves(list *rules.MoveList) {
	list.N = 0
	if g.quiet >= 80 {
		return
	}
	for len(g.routes) <= g.ply {
		g.routes = append(g.routes, nil)
	}
	g.routes[g.ply] = g.legal()
	for i := range g.routes[g.ply] {
		list.Add(rules.Move(i))
	}
}

func (g *checkers) Play(m rules.Move) {
	r := g.routes[g.ply][m]
	g.undo = append(g.undo, ckUndo{g.cells, g.quiet})
	from, to := r.path[0], r.path[len(r.path)-1]
	v := g.cells[from]
	if len(r.jumped) > 0 || v <= 2 {
		g.quiet = 0
	} else {
		g.quiet++
	}
	for _, j := range r.jumped {
		g.cells[j] = 0
	}
	g.cells[from] = 0
	if v == 1 && to/8 == 7 || v == 2 && to/8 == 0 {
		v += 2
	}
	g.cells[to] = v
	g.ply++
}

func (g *checkers) Undo() {
	u := g.undo[len(g.undo)-1]
	g.undo = g.undo[:len(g.undo)-1]
	g.cells, g.quiet = u.cells, u.quiet
	g.ply--
}

// Status: a draw after 80 quiet plies; the player to move with no legal
// move loses.
func (g *checkers) Status() rules.Result {
	if g.quiet >= 80 {
		return rules.Draw
	}
	if len(g.legal()) == 0 {
		return rules.Win(rules.Player(1 - g.ply%2))
	}
	return rules.Ongoing
}

func (g *checkers) FormatMove(m rules.Move) string {
	var parts []string
	for _, sq := range g.routes[g.ply][m].path {
		parts = append(parts, squareText(sq%8, sq/8+1))
	}
	return strings.Join(parts, " ")
}

// TestCheckersNotation plays a capture by its notation and checks what a
// wrong move is told while a capture is compulsory.
func TestCheckersNotation(t *testing.T) {
	g := newDescribed(t, "checkers", nil)
	play := func(text string) {
		t.Helper()
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := g.FormatMove(m); got != text {
			t.Fatalf("%s reads back as %s", text, got)
		}
		g.Play(m)
	}
	play("c3 d4")
	play("b6 c5")
	// Black must capture: d4 jumps c5 into b6.
	if _, err := g.ParseMove("a3 b4"); err == nil {
		t.Fatal("a quiet move was accepted when a capture is compulsory")
	}
	play("d4 b6")
	if _, err := g.ParseMove("a7 c5 e3"); err == nil || !strings.Contains(err.Error(), "the piece on a7 can play a7 c5") {
		t.Fatalf("a7 c5 e3: %v", err)
	}
	play("c7 a5")
	if g.QuietMoves() != 0 {
		t.Fatalf("after a capture, %d quiet moves", g.QuietMoves())
	}
}

// checkersWith returns the shipped checkers description with old replaced
// by new.
func checkersWith(t *testing.T, old, new string) ([]byte, error) {
	t.Helper()
	data, err := shipped.Files.ReadFile("checkers" + described.Ext)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("checkers.yaml has no %q", old)
	}
	return []byte(strings.Replace(string(data), old, new, 1)), nil
}

// TestNoProgressDraws: the no-progress ending draws after its count of
// moves without a capture or a move of its kind of piece, and a move of
// that kind starts the count again.
func TestNoProgressDraws(t *testing.T) {
	data, _ := checkersWith(t, "{when: no-progress, count: 80, piece: man, result: draw}", "{when: no-progress, count: 3, piece: king, result: draw}")
	s, err := described.Load("quiet.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"c3 d4", "f6 g5", "g3 h4"} {
		if g.Status() != rules.Ongoing {
			t.Fatalf("over after %d quiet moves", i)
		}
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		g.Play(m)
		if g.QuietMoves() != i+1 {
			t.Fatalf("after %s: %d quiet moves, want %d", text, g.QuietMoves(), i+1)
		}
	}
	if g.Status() != rules.Draw || !strings.Contains(g.Outcome().Reason, "3 moves in a row without progress") {
		t.Fatalf("after 3 quiet moves: %v (%s)", g.Status(), g.Outcome().Reason)
	}
	g.Undo()
	if g.Status() != rules.Ongoing || g.QuietMoves() != 2 {
		t.Fatalf("after Undo: %v, %d quiet moves", g.Status(), g.QuietMoves())
	}
	// The shipped game: a man's move is progress.
	c := newDescribed(t, "checkers", nil)
	m, _ := c.ParseMove("c3 d4")
	c.Play(m)
	if c.QuietMoves() != 0 {
		t.Fatalf("a man's move counted as quiet: %d", c.QuietMoves())
	}
}

// TestRouteRulesChecked: the new keys are read strictly.
func TestRouteRulesChecked(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"chain: route, compulsory: true, promote", "chain: maybe, compulsory: true, promote", "chain must be true, false or route"},
		{"{kind: step, piece: king, directions: diagonal}", "{kind: step, piece: king, directions: diagonal, compulsory: true}", "compulsory belongs to jump moves"},
		{"piece: king, directions: diagonal, capture: true, chain: route", "piece: king, directions: all, capture: true, chain: route", "a chain: route jump goes in at most four directions"},
		{"count: 80, piece: man", "piece: man", "count"},
	} {
		data, _ := checkersWith(t, tc.old, tc.new)
		_, err := described.Load("bad.yaml", data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.new, err, tc.want)
		}
	}
}

// TestCheckersPerftAllocatesNothing: routes are generated, played and
// undone on fixed arrays.
func TestCheckersPerftAllocatesNothing(t *testing.T) {
	g := newDescribed(t, "checkers", nil)
	lists := make([]rules.MoveList, 5)
	want := perft(g, lists)
	if a := testing.AllocsPerRun(2, func() {
		if perft(g, lists) != want {
			t.Fatal("perft changed")
		}
	}); a != 0 {
		t.Fatalf("perft(5) of checkers: %v allocations", a)
	}
}
