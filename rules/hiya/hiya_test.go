package hiya

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
)

func newGame(t testing.TB, opts rules.Options) *Game {
	t.Helper()
	g, err := New(opts)
	if err != nil {
		t.Fatalf("New(%v): %v", opts, err)
	}
	return g
}

// play plays moves given as text, failing the test on an error.
func play(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("move %s: %v\n%s", text, err, g.Diagram())
		}
		g.Play(m)
	}
}

// The rules file: "From the start (either side first) perft gives 11, 127,
// 1591, 20415, 267601 for depths 1..5." Depths 6 and 7 are our own counts,
// kept as regression tests; depth 7 takes seconds, so it is left out under
// -race and -short.
func TestPerft(t *testing.T) {
	want := []uint64{1, 11, 127, 1591, 20415, 267601, 3544502, 47449094}
	maxDepth := 7
	if raceEnabled || testing.Short() {
		maxDepth = 6
	}
	for _, first := range []string{"south", "north"} {
		g := newGame(t, rules.Options{"first": first})
		before := g.Diagram()
		for d := 0; d <= maxDepth; d++ {
			if got := rules.Perft(g, d); got != want[d] {
				t.Errorf("first=%s: perft(%d) = %d, want %d", first, d, got, want[d])
			}
		}
		if g.Diagram() != before || g.Ply() != 0 || g.Hash() != newGame(t, rules.Options{"first": first}).Hash() {
			t.Errorf("first=%s: perft left the game changed", first)
		}
	}
}

// The rules file lists South's 11 first moves; only E2B5 attacks.
func TestFirstMoves(t *testing.T) {
	g := newGame(t, nil)
	want := strings.Fields("A3B4 B3A4 B3C4 C3B4 C3D4 E2B5 E2C4 E2D3 E3E4 F3F4 G3G4")
	if got := moveTexts(g); !slices.Equal(got, want) {
		t.Fatalf("first moves %v, want %v", got, want)
	}
	var list rules.MoveList
	g.Moves(&list)
	for _, m := range list.Slice() {
		attack := g.FormatMove(m) == "E2B5"
		if g.IsAttack(m) != attack || g.Tactical(m) != attack || (g.Announce(m) == "Hi-YA!") != attack {
			t.Errorf("%s: attack %v, tactical %v, announce %q", g.FormatMove(m), g.IsAttack(m), g.Tactical(m), g.Announce(m))
		}
		if !attack && g.Announce(m) != "" {
			t.Errorf("%s announces %q", g.FormatMove(m), g.Announce(m))
		}
	}
	// North first: the same moves turned by a half turn.
	n := newGame(t, rules.Options{"first": "north"})
	var turned []string
	for _, m := range want {
		tm, err := Turn(m)
		if err != nil {
			t.Fatal(err)
		}
		turned = append(turned, tm)
	}
	slices.Sort(turned)
	if got := moveTexts(n); !slices.Equal(got, turned) {
		t.Fatalf("North's first moves %v, want %v", got, turned)
	}
}

func TestDefinition(t *testing.T) {
	d := Definition()
	if d.Name != "hiya" || d.Title != "Hi-Ya!" || d.Players != [2]string{"South", "North"} {
		t.Errorf("definition %q %q %v", d.Name, d.Title, d.Players)
	}
	if d.MoveTime != 5*time.Second {
		t.Errorf("move time %v, want the class's 5s", d.MoveTime)
	}
	if len(d.Options) != 1 || d.Options[0].Key != "first" || d.Options[0].Default != "south" {
		t.Errorf("options %+v", d.Options)
	}
	reg := rules.NewRegistry(d)
	for _, name := range []string{"hiya", "Hi-Ya!", "HIYA"} {
		if _, err := reg.Lookup(name); err != nil {
			t.Errorf("lookup %q: %v", name, err)
		}
	}
	g, err := reg.New("hiya", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Name() != "hiya" || g.Options().String() != "first=south" {
		t.Errorf("name %q options %q", g.Name(), g.Options())
	}
}

// The Variant: "first: which side moves first, south (default) or north.
// Player 1 is the side that moves first."
func TestOptions(t *testing.T) {
	tests := []struct {
		opts    rules.Options
		first   Side
		wantErr string
	}{
		{nil, South, ""},
		{rules.Options{}, South, ""},
		{rules.Options{"first": "south"}, South, ""},
		{rules.Options{"first": "North"}, North, ""},
		{rules.Options{"first": "NORTH"}, North, ""},
		{rules.Options{"first": "east"}, South, "first must be south or north"},
		{rules.Options{"first": "abc"}, South, "first must be south or north"},
		{rules.Options{"turns": "200"}, South, "hiya has no option turns; it takes first"},
	}
	for _, tt := range tests {
		g, err := New(tt.opts)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("New(%v): error %v, want %q", tt.opts, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%v): %v", tt.opts, err)
			continue
		}
		if g.SideToMove() != tt.first || g.ToMove() != rules.P1 || g.SideOf(rules.P1) != tt.first ||
			g.SideOf(rules.P2) != tt.first^1 || g.PlayerOf(tt.first) != rules.P1 || g.PlayerOf(tt.first^1) != rules.P2 {
			t.Errorf("New(%v): %s to move, player 1 is %s", tt.opts, g.SideToMove(), g.SideOf(rules.P1))
		}
		if g.PlayerName(rules.P1) != tt.first.String() || g.PlayerName(rules.P2) != (tt.first^1).String() {
			t.Errorf("New(%v): players %s, %s", tt.opts, g.PlayerName(rules.P1), g.PlayerName(rules.P2))
		}
		again := newGame(t, g.Options())
		if again.Hash() != g.Hash() || again.Options().String() != g.Options().String() {
			t.Errorf("New(Options()) does not recreate the game for %v", tt.opts)
		}
	}
	if newGame(t, rules.Options{"first": "north"}).Hash() == newGame(t, nil).Hash() {
		t.Error("the side to move is not in the hash")
	}
}

func TestNames(t *testing.T) {
	if South.String() != "South" || North.String() != "North" {
		t.Error("side names")
	}
	want := map[Kind][2]string{
		King: {"K", "King"}, Ninja: {"J", "Ninja"}, Samurai: {"S", "Samurai"},
		MiniNinja: {"j", "mini-Ninja"}, MiniSamurai: {"s", "mini-Samurai"},
	}
	for k, w := range want {
		if string(k.Letter()) != w[0] || k.String() != w[1] {
			t.Errorf("kind %d: %c %q, want %v", k, k.Letter(), k.String(), w)
		}
	}
	if Kind(9).Letter() != '?' || Kind(9).String() != "unknown piece" {
		t.Error("an unknown kind must not panic")
	}
}

func TestAccessors(t *testing.T) {
	g := newGame(t, nil)
	if k, s, ok := g.PieceAt(2, 6); !ok || k != MiniSamurai || s != North {
		t.Errorf("B6: %v %v %v", k, s, ok)
	}
	if k, s, ok := g.PieceAt(4, 1); !ok || k != King || s != South {
		t.Errorf("D1: %v %v %v", k, s, ok)
	}
	for _, sq := range [][2]int{{4, 4}, {0, 1}, {8, 1}, {1, 0}, {1, 9}, {-5, 99}} {
		if _, _, ok := g.PieceAt(sq[0], sq[1]); ok {
			t.Errorf("PieceAt(%d, %d) holds a piece", sq[0], sq[1])
		}
	}
	if g.Pieces(South) != 13 || g.Pieces(North) != 13 {
		t.Errorf("pieces %d %d", g.Pieces(South), g.Pieces(North))
	}
	m, _ := g.ParseMove("E2B5")
	if fc, fr, tc, tr := MoveSquares(m); fc != 5 || fr != 2 || tc != 2 || tr != 5 {
		t.Errorf("MoveSquares(E2B5) = %d %d %d %d", fc, fr, tc, tr)
	}
	g.Play(m)
	if g.Pieces(North) != 12 || g.Ply() != 1 || !slices.Equal(g.History(), []rules.Move{m}) || g.ToMove() != rules.P2 {
		t.Errorf("after E2B5: %d pieces, ply %d, history %v", g.Pieces(North), g.Ply(), g.History())
	}
	if g.Material() != -valueMiniSamurai {
		t.Errorf("North after losing a mini-Samurai: material %d", g.Material())
	}
}

func TestUndoPanicsAtStart(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Undo at the start did not panic")
		}
	}()
	newGame(t, nil).Undo()
}

func TestClone(t *testing.T) {
	g := newGame(t, rules.Options{"first": "north"})
	play(t, g, "C7F4", "E3E4")
	c := g.Clone().(*Game)
	if c.Hash() != g.Hash() || c.Diagram() != g.Diagram() || !slices.Equal(c.History(), g.History()) ||
		c.Options().String() != g.Options().String() {
		t.Fatal("clone differs")
	}
	play(t, c, "F4E5")
	if g.Ply() != 2 || len(g.undo) != 2 || g.Diagram() == c.Diagram() {
		t.Fatal("playing on the clone changed the original")
	}
	c.Undo()
	c.Undo()
	if g.Ply() != 2 || g.History()[1] == rules.NoMove {
		t.Fatal("undo on the clone changed the original")
	}
	c.Options()["first"] = "south"
	if g.Options()["first"] != "north" || c.Options()["first"] != "north" {
		t.Fatal("clone shares options")
	}
}

// TestEncoding stores a game through the contract's encoding and reads it
// back by replaying: the packing of moves is stable.
func TestEncoding(t *testing.T) {
	reg := rules.NewRegistry(Definition())
	g := newGame(t, rules.Options{"first": "north"})
	rng := rand.New(rand.NewPCG(1, 2))
	for g.Status() == rules.Ongoing {
		var list rules.MoveList
		g.Moves(&list)
		g.Play(list.Moves[rng.IntN(list.N)])
	}
	data := rules.Encode(g)
	back, err := reg.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	b := back.(*Game)
	if b.Hash() != g.Hash() || b.Outcome() != g.Outcome() || !slices.Equal(b.History(), g.History()) {
		t.Fatal("decoded game differs")
	}
	if !bytes.Equal(rules.Encode(b), data) {
		t.Fatal("encode(decode(x)) != x")
	}
	// A move packed with a wrong attack flag is not a legal move.
	h := newGame(t, nil)
	m, _ := h.ParseMove("E3E4")
	h.Play(m ^ attackFlag)
	if _, err := reg.Decode(rules.Encode(h)); !errors.Is(err, rules.ErrCorrupt) {
		t.Fatalf("decoding a forged move: %v", err)
	}
}

func TestZeroAllocs(t *testing.T) {
	g := newGame(t, nil)
	var list rules.MoveList
	allocs := testing.AllocsPerRun(100, func() {
		g.Moves(&list)
		for _, m := range list.Slice() {
			g.Play(m)
			_ = g.Status()
			_ = g.Hash()
			_ = g.Evaluate()
			g.Undo()
		}
	})
	if allocs != 0 {
		t.Fatalf("Moves/Play/Status/Hash/Evaluate/Undo allocate %.1f times a run", allocs)
	}
	// rules.Perft allocates its move lists once a call, and nothing else.
	if n := testing.AllocsPerRun(5, func() { rules.Perft(g, 4) }); n > 1 {
		t.Fatalf("perft allocates %.1f times a run", n)
	}
}

func TestEvaluate(t *testing.T) {
	g := newGame(t, nil)
	if g.Material() != 0 {
		t.Errorf("start: material %d; the start is symmetric", g.Material())
	}
	// Evaluate sees a position turned by a half turn, with the other side to
	// move, the same way.
	n := newGame(t, rules.Options{"first": "north"})
	rng := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		if g.Status() != rules.Ongoing {
			break
		}
		if g.Evaluate() != n.Evaluate() || g.Material() != n.Material() {
			t.Fatalf("evaluation is not symmetric: %d vs %d after %v", g.Evaluate(), n.Evaluate(), g.History())
		}
		var list rules.MoveList
		g.Moves(&list)
		m := list.Moves[rng.IntN(list.N)]
		tm, _ := Turn(g.FormatMove(m))
		play(t, n, tm)
		g.Play(m)
	}
	// Each feature on its own, in positions that differ only in it.
	features := []struct {
		name       string
		with, base []string
		diff       int
	}{
		// The Ninja on A3 also slides to C5, D6, E7 and F8.
		{"material: a Ninja against a mini-Ninja", []string{"SJ A3"}, []string{"Sj A3"}, valueNinja - valueMiniNinja + 4*roomWeight},
		{"room: a Samurai with A3 to A8 ahead, not A6 to A8", []string{"SS A2"}, []string{"SS A5"}, 3 * roomWeight},
		// Blocked by the mini-Ninja on A4, the mini-Samurai on A3 has no
		// square ahead, and the mini-Ninja one (B5) rather than two.
		{"room: a mini-Samurai that cannot step forward", []string{"Ss A3", "Sj A4"}, []string{"Ss A3", "Sj B4"}, stuckWeight - 2*roomWeight},
		{"king safety: a shield on D2", []string{"Sj D2"}, []string{"Sj C2"}, kingShield},
		// North's mini-Ninja on C3 can step to B2 and D2, on A3 to B2 alone.
		{"king safety: North can attack the King", []string{"Ss G4", "Nj C3"}, []string{"Ss G4", "Nj A3"}, -kingDanger - threatWeight - roomWeight},
		// The Samurai's slide stops at A4 in front of the mini-Samurai on A5
		// rather than at A8.
		{"threats: South can remove a mini-Samurai", []string{"SS A2", "Ns A5"}, []string{"SS A2", "Ns C5"}, threatWeight + valueMiniSamurai/attackShare - 4*roomWeight},
	}
	for _, f := range features {
		a := setup(t, South, append([]string{"SK D1", "NK D8", "Nj B8"}, f.with...)...)
		b := setup(t, South, append([]string{"SK D1", "NK D8", "Nj B8"}, f.base...)...)
		want := f.diff + squareValue(f.with) - squareValue(f.base)
		if got := a.Evaluate() - b.Evaluate(); got != want {
			t.Errorf("%s: evaluate %d - %d = %d, want %d", f.name, a.Evaluate(), b.Evaluate(), got, want)
		}
	}
	// The side to move that can attack the King scores as winning.
	w := setup(t, South, "SK A1", "NK D8", "SS D2", "NJ A7")
	if w.Evaluate() < kingAttack/2 {
		t.Errorf("South can attack the King: evaluate %d", w.Evaluate())
	}
	w.Play(mustParse(t, w, "D2D7"))
	if w.Evaluate() != lostPosition {
		t.Errorf("North lost: evaluate %d", w.Evaluate())
	}
}

// squareValue returns what the pieces, in setup's form ("SJ A3"), add to
// South's evaluation by squareWeights, worked out from their rows and
// columns as the rules file names them.
func squareValue(pieces []string) int {
	weight := squareWeights()
	sum := 0
	for _, piece := range pieces {
		kind := strings.IndexByte("KJSjs", piece[1]) // Kind's order
		if kind < 1 {
			continue // the King has no square weight
		}
		col, row, sign := int(piece[3]-'A'), int(piece[4]-'1'), 1
		if piece[0] == 'N' {
			row, sign = 7-row, -1
		}
		sum += sign * int(weight[kind][row][abs(col-3)])
	}
	return sum
}

func mustParse(t testing.TB, g *Game, text string) rules.Move {
	t.Helper()
	m, err := g.ParseMove(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return m
}
