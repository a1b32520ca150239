package described_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// shippedSpec loads one of the shipped descriptions.
func shippedSpec(t testing.TB, name string) *described.Spec {
	t.Helper()
	data, err := shipped.Files.ReadFile(name + described.Ext)
	if err != nil {
		t.Fatal(err)
	}
	s, err := described.Load(name+described.Ext, data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// shippedNames returns the names of the shipped descriptions.
func shippedNames(t testing.TB) []string {
	t.Helper()
	files, err := fs.Glob(shipped.Files, "*"+described.Ext)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(files))
	for i, file := range files {
		names[i] = strings.TrimSuffix(file, described.Ext)
	}
	return names
}

func newDescribed(t testing.TB, name string, opts rules.Options) *described.Game {
	t.Helper()
	g, err := shippedSpec(t, name).New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// variant is one option setting of a game with its hand-written twin.
type variant struct {
	game  string
	opts  rules.Options
	ref   func() refGame
	depth int // perft depth compared in full; under -short two less
	// games is the random games played, 0 for the usual number; a long
	// game with many moves a position plays fewer.
	games int
}

func variants() []variant {
	var vs []variant
	for size := 5; size <= 8; size++ {
		vs = append(vs, variant{"breakthrough", rules.Options{"size": fmt.Sprint(size)},
			func() refGame { return newBreakthrough(size) }, 5, 0})
	}
	for _, size := range []int{4, 6, 8} {
		depth := map[int]int{4: 10, 6: 7, 8: 7}[size]
		vs = append(vs, variant{"othello", rules.Options{"size": fmt.Sprint(size)},
			func() refGame { return newOthello(size) }, depth, 0})
	}
	for _, c := range [][3]int{{7, 6, 4}, {4, 4, 3}, {5, 4, 4}, {10, 10, 6}, {8, 7, 5}} {
		vs = append(vs, variant{"connect4", rules.Options{"columns": fmt.Sprint(c[0]), "rows": fmt.Sprint(c[1]), "connect": fmt.Sprint(c[2])},
			func() refGame { return newConnect4(c[0], c[1], c[2]) }, 6, 0})
	}
	for _, c := range [][4]int{{3, 3, 3, 9}, {4, 4, 3, 6}, {5, 4, 4, 5}} {
		vs = append(vs, variant{"tictactoe", rules.Options{"columns": fmt.Sprint(c[0]), "rows": fmt.Sprint(c[1]), "connect": fmt.Sprint(c[2])},
			func() refGame { return newMNK(c[0], c[1], c[2]) }, c[3], 0})
	}
	for _, c := range [][4]int{{15, 15, 5, 3}, {19, 19, 7, 3}, {6, 5, 3, 5}} {
		vs = append(vs, variant{"gomoku", rules.Options{"columns": fmt.Sprint(c[0]), "rows": fmt.Sprint(c[1]), "connect": fmt.Sprint(c[2])},
			func() refGame { return newMNK(c[0], c[1], c[2]) }, c[3], 0})
	}
	for _, size := range []int{4, 6, 8} {
		vs = append(vs, variant{"konane", rules.Options{"size": fmt.Sprint(size)},
			func() refGame { return newKonane(size) }, map[int]int{4: 12, 6: 8, 8: 7}[size], 0})
	}
	vs = append(vs, variant{"pentago", nil, func() refGame { return newPentago() }, 3, 0})
	vs = append(vs, variant{"checkers", nil, func() refGame { return newCheckers() }, 7, 0})
	for _, c := range []struct {
		size  int
		swap  bool
		depth int
	}{{11, true, 3}, {5, false, 5}, {7, true, 4}} {
		opts := rules.Options{"size": fmt.Sprint(c.size), "swap": map[bool]string{true: "on", false: "off"}[c.swap]}
		vs = append(vs, variant{"hex", opts, func() refGame { return newHex(c.size, c.swap) }, c.depth, 0})
	}
	vs = append(vs, variant{"loa", nil, func() refGame { return newLOA() }, 4, 0})
	vs = append(vs, variant{"amazons", nil, func() refGame { return newAmazons() }, 3, 100})
	vs = append(vs, variant{"morris", nil, func() refGame { return newMorris() }, 5, 0})
	return vs
}

// TestPerftTables checks the described games' perft against published
// figures.
func TestPerftTables(t *testing.T) {
	for _, tc := range []struct {
		game string
		opts rules.Options
		want []uint64
	}{
		{"breakthrough", nil, []uint64{22, 484, 11132, 256036}},
		{"othello", nil, []uint64{4, 12, 56, 244, 1396, 8200, 55092}},
		{"connect4", nil, []uint64{7, 49, 343, 2401, 16807, 117649}},
		{"tictactoe", nil, []uint64{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}},
		// Every placement of every player: n, n(n-1), n(n-1)(n-2) until a line can be made.
		{"gomoku", nil, []uint64{225, 50400, 11239200}},
		// Every empty cell with every turn of every quarter: 36×8, 35×8, ...
		{"pentago", nil, []uint64{288, 80640, 21934080}},
		{"gomoku", rules.Options{"columns": "19", "rows": "19"}, []uint64{361, 129960, 46655640}},
		// English draughts from the start.
		{"checkers", nil, []uint64{7, 49, 302, 1469, 7361, 36768, 179740}},
		// Every empty cell, and at the second move the swap: 121, 121×121, 121×(120×119+120).
		{"hex", nil, []uint64{121, 14641, 1742400}},
		{"hex", rules.Options{"size": "5", "swap": "off"}, []uint64{25, 600, 13800, 303600}},
		// Lines of Action from the start: 36 moves (Black's 12 pieces, three
		// ways each), deeper figures as the hand-written twin counts them.
		{"loa", nil, []uint64{36, 1244, 44952, 1563208}},
		// The Game of the Amazons from the start, as published.
		{"amazons", nil, []uint64{2176, 4307152}},
		// Nine Men's Morris: 24×23×22×21 placements, then the first mills
		// remove one of two enemy pieces; deeper as the hand-written twin
		// counts them.
		{"morris", nil, []uint64{24, 552, 12144, 255024, 5140800}},
	} {
		g := newDescribed(t, tc.game, tc.opts)
		for d, want := range tc.want {
			if got := rules.Perft(g, d+1); got != want {
				t.Errorf("%s perft(%d) = %d, want %d", tc.game, d+1, got, want)
			}
		}
	}
}

// TestPerftAgrees checks perft of every variant against the hand-written
// twin, depth by depth.
func TestPerftAgrees(t *testing.T) {
	for _, v := range variants() {
		depth := v.depth
		if testing.Short() {
			depth -= 2
		}
		g := newDescribed(t, v.game, v.opts)
		ref := v.ref()
		for d := 1; d <= depth; d++ {
			got, want := rules.Perft(g, d), perftN(ref, d)
			if got != want {
				t.Errorf("%s %s: perft(%d) = %d, hand-written %d", v.game, v.opts, d, got, want)
				break
			}
		}
	}
}

// moveTexts returns the legal moves as sorted text and the moves in the
// same order.
func moveTexts(g refGame, list *rules.MoveList) ([]string, []rules.Move) {
	g.Moves(list)
	type pair struct {
		text string
		m    rules.Move
	}
	ps := make([]pair, list.N)
	for i, m := range list.Slice() {
		ps[i] = pair{g.FormatMove(m), m}
	}
	slices.SortFunc(ps, func(a, b pair) int {
		if a.text < b.text {
			return -1
		}
		if a.text > b.text {
			return 1
		}
		return 0
	})
	texts, moves := make([]string, len(ps)), make([]rules.Move, len(ps))
	for i, p := range ps {
		texts[i], moves[i] = p.text, p.m
	}
	return texts, moves
}

// TestRandomGamesAgree plays random games of every variant in both
// implementations (playAgreeing): the legal moves (as text), the status
// after each move and the result must agree throughout; each described
// game's Undo must bring back the start and its hash must follow the
// position.
func TestRandomGamesAgree(t *testing.T) {
	games := 1000
	if testing.Short() {
		games = 60
	}
	for _, v := range variants() {
		games := games
		if v.games > 0 {
			games = min(games, v.games)
			if testing.Short() {
				games = max(2, v.games/20)
			}
		}
		playAgreeing(t, v.game, v.opts, newDescribed(t, v.game, v.opts), v.ref, games, func(g rules.Game) string {
			d := g.(*described.Game)
			return fmt.Sprint(d.ToMove(), d.QuietMoves(), d.InHand(rules.P1), d.InHand(rules.P2), boardKey(d))
		})
	}
}

// playAgreeing plays games random games of the game name (with opts) from
// start and, move for move, in its hand-written twin ref, the moves drawn
// from newRand(name). At every ply the legal moves (as sorted text) and
// the status must agree, the same position (key) must have one hash and
// the move played must read back from its text; a finished game must
// give a reason for its result; undoing every move must bring back the
// start, its hash and key. It logs the results.
func playAgreeing(t *testing.T, name string, opts rules.Options, start rules.Game, ref func() refGame, games int, key func(rules.Game) string) {
	t.Helper()
	rng := newRand(name)
	var la, lb rules.MoveList
	results := map[rules.Result]int{}
	for i := range games {
		g := start.Clone()
		r := ref()
		hashes := map[string]uint64{}
		for ply := 0; ; ply++ {
			ta, ma := moveTexts(g, &la)
			tb, mb := moveTexts(r, &lb)
			if !slices.Equal(ta, tb) {
				t.Fatalf("%s %s game %d ply %d: moves %v, hand-written %v", name, opts, i, ply, ta, tb)
			}
			if ra, rb := g.Status(), r.Status(); ra != rb {
				t.Fatalf("%s %s game %d ply %d: status %v, hand-written %v", name, opts, i, ply, ra, rb)
			}
			k := key(g)
			if h, ok := hashes[k]; ok && h != g.Hash() {
				t.Fatalf("%s %s game %d ply %d: the same position has two hashes", name, opts, i, ply)
			}
			hashes[k] = g.Hash()
			if len(ma) == 0 {
				results[g.Status()]++
				if g.Outcome().Reason == "" {
					t.Fatalf("%s %s game %d: no reason for the result", name, opts, i)
				}
				break
			}
			j := rng.IntN(len(ma))
			if parsed, err := g.ParseMove(ta[j]); err != nil || parsed != ma[j] {
				t.Fatalf("%s %s game %d ply %d: ParseMove(%q) = %v, %v; want %v", name, opts, i, ply, ta[j], parsed, err, ma[j])
			}
			g.Play(ma[j])
			r.Play(mb[j])
		}
		for g.Ply() > 0 {
			g.Undo()
		}
		if g.Hash() != start.Hash() || key(g) != key(start) {
			t.Fatalf("%s %s game %d: undoing every move does not bring back the start (hash %x, was %x)", name, opts, i, g.Hash(), start.Hash())
		}
	}
	t.Logf("%s %s: %d games, results %v", name, opts, games, results)
}

// newRand is the random source of name's random games.
func newRand(name string) *rand.Rand { return rand.New(rand.NewPCG(uint64(len(name)), 7)) }

// boardKey writes the cells of g.
func boardKey(g *described.Game) string {
	cols, rows := g.Size()
	b := make([]byte, 0, cols*rows)
	for r := range rows {
		for c := range cols {
			p, k, ok := g.At(c, r)
			switch {
			case g.Blocked(c, r):
				b = append(b, '#')
			case !ok:
				b = append(b, '.')
			default:
				b = append(b, byte('A'+2*k+int(p)))
			}
		}
	}
	return string(b)
}

// played writes the moves of g so far in the game's notation, "d4 1r; a1
// 2l", for a failure's message.
func played(g rules.Game) string {
	history := g.History()
	replay := g.Clone()
	for range history {
		replay.Undo()
	}
	texts := make([]string, len(history))
	for i, m := range history {
		texts[i] = replay.FormatMove(m)
		replay.Play(m)
	}
	return strings.Join(texts, "; ")
}
