package commands

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"arbiter/rules"
	"arbiter/rules/games"
)

// pickerGames is how many random games of each game the picker's property
// test walks: 1,000 in full, 40 under -short.
func pickerGames() int {
	if testing.Short() {
		return 40
	}
	return 1000
}

// TestPickerReachesEveryMove: in every position of random games of each
// game, every legal move is reachable through the picker in at most
// MaxPicks picks, exactly once; every step fits a menu (at most 25
// options, texts of at most 100 characters); and reading each move's path
// back as a picked value finds that move. Full count: go test
// -run TestPickerReachesEveryMove ./commands (1,000 games each).
func TestPickerReachesEveryMove(t *testing.T) {
	reg := games.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(name)), 25))
			positions, most := 0, 0
			for n := range pickerGames() {
				g, err := reg.New(name, rules.Options{"seed": strconv.Itoa(n + 1)})
				if err != nil {
					g, err = reg.New(name, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; g.Status() == rules.Ongoing && ply < 400; ply++ {
					var list rules.MoveList
					g.Moves(&list)
					if list.N == 0 {
						break
					}
					positions++
					most = max(most, checkPicker(t, g, &list))
					g.Play(list.Moves[rng.IntN(list.N)])
				}
			}
			t.Logf("%s: %d positions of %d games, deepest move %d picks", name, positions, pickerGames(), most)
		})
	}
}

// checkPicker checks the picker of g's position against its legal moves
// and returns the most picks a move needs.
func checkPicker(t *testing.T, g rules.Game, list *rules.MoveList) int {
	t.Helper()
	root := pickTree(g)
	seen := map[rules.Move]bool{}
	deepest := 0
	var walk func(n *pickNode, path []string)
	walk = func(n *pickNode, path []string) {
		if n.leaf {
			if seen[n.move] {
				t.Fatalf("%s: move %s reachable twice", g.Name(), g.FormatMove(n.move))
			}
			seen[n.move] = true
			value := strings.Join(path, ".")
			if len(path) > MaxPicks || len(value) > maxPickValue {
				t.Fatalf("%s: move %s needs %d picks (path %q)", g.Name(), g.FormatMove(n.move), len(path), value)
			}
			got, _, err := pickPath(root, value)
			if err != nil || got != n {
				t.Fatalf("%s: path %q of %s reads back as %+v, %v", g.Name(), value, g.FormatMove(n.move), got, err)
			}
			deepest = max(deepest, len(path))
			return
		}
		if len(n.kids) == 0 || len(n.kids) > MaxMenuOptions {
			t.Fatalf("%s: a step has %d choices", g.Name(), len(n.kids))
		}
		for i, k := range n.kids {
			if k.label == "" || utf8.RuneCountInString(k.label) > MaxMenuText || utf8.RuneCountInString(k.hint) > MaxMenuText {
				t.Fatalf("%s: choice %q (%q) does not fit a menu", g.Name(), k.label, k.hint)
			}
			walk(k, append(path[:len(path):len(path)], strconv.Itoa(i)))
		}
	}
	walk(root, nil)
	for _, m := range list.Slice() {
		if !seen[m] {
			t.Fatalf("%s: legal move %s is not in the picker", g.Name(), g.FormatMove(m))
		}
	}
	if len(seen) != list.N {
		t.Fatalf("%s: the picker offers %d moves, %d are legal", g.Name(), len(seen), list.N)
	}
	return deepest
}

// TestPickerGroupsLargeSteps: a step with more choices than a menu holds
// is grouped, and moves stay within MaxPicks even for a position with
// rules.MaxMoves moves.
func TestPickerGroupsLargeSteps(t *testing.T) {
	var nodes []*pickNode
	for i := range 60 {
		nodes = append(nodes, &pickNode{label: fmt.Sprintf("%c%d", 'a'+i/8, i%8+1), leaf: true, move: rules.Move(i)})
	}
	got := grouped(nodes)
	if len(got) > MaxMenuOptions || len(got) < 2 {
		t.Fatalf("60 squares grouped into %d groups", len(got))
	}
	for _, g := range got {
		if len(g.kids) > MaxMenuOptions || !strings.HasSuffix(g.label, "…") {
			t.Fatalf("group %q of %d", g.label, len(g.kids))
		}
	}
	var many []*pickNode
	for i := range rules.MaxMoves {
		many = append(many, &pickNode{label: fmt.Sprintf("m%d", i), leaf: true, move: rules.Move(i)})
	}
	root := &pickNode{kids: runs(many)}
	if depth(root) > MaxPicks || !fits(root) || countMoves(root) != rules.MaxMoves {
		t.Fatalf("%d moves in runs: depth %d, fits %v, %d moves", rules.MaxMoves, depth(root), fits(root), countMoves(root))
	}
	// The last resort lists whole moves: 40 pieces of 6 destinations each
	// flatten into runs of moves named in full.
	var pieces []*pickNode
	for i := range 40 {
		p := &pickNode{label: fmt.Sprintf("P%d", i)}
		for j := range 6 {
			text := fmt.Sprintf("P%dD%d", i, j)
			p.kids = append(p.kids, &pickNode{label: fmt.Sprintf("D%d", j), text: text, leaf: true, move: rules.Move(i*6 + j)})
		}
		pieces = append(pieces, p)
	}
	flat := &pickNode{kids: runs(flatten(&pickNode{kids: grouped(pieces)}))}
	if depth(flat) != 2 || !fits(flat) || flat.kids[0].kids[0].label != "P0D0" || countMoves(flat) != 240 {
		t.Fatalf("flattened: depth %d, fits %v, first %q, %d moves", depth(flat), fits(flat), flat.kids[0].kids[0].label, countMoves(flat))
	}
}

// TestSplitMoveText: each game's notation splits into piece and
// destination.
func TestSplitMoveText(t *testing.T) {
	for _, c := range []struct{ text, from, to string }{
		{"4 2 4 10", "4 2", "4 10"},
		{"c4 d4", "c4", "d4"},
		{"E2B5", "E2", "B5"},
		{"d1 d7 g7", "d1", "d7 g7"},
		// Nine Men's Morris: a removal stays with the last pick.
		{"d2", "d2", ""},
		{"d2 x a1", "d2 x a1", ""},
		{"d2 d3", "d2", "d3"},
		{"d2 d3 x a1", "d2", "d3 x a1"},
		{"G1", "G1", ""},
		{"pass", "pass", ""},
	} {
		if from, to := splitMoveText(c.text); from != c.from || to != c.to {
			t.Errorf("splitMoveText(%q) = %q, %q; want %q, %q", c.text, from, to, c.from, c.to)
		}
	}
}

// TestPickerKeepsAMillsRemovalWithItsMove: in Nine Men's Morris, a move
// that makes a mill ("d2 d3 x a1") is picked as its piece (d2), then the
// destination with the removal ("d3 x a1"), beside the piece's other
// destinations.
func TestPickerKeepsAMillsRemovalWithItsMove(t *testing.T) {
	reg := games.Registry()
	rng := rand.New(rand.NewPCG(7, 8))
	var list rules.MoveList
	for n := 0; n < 200; n++ {
		g, err := reg.New("morris", nil)
		if err != nil {
			t.Fatal(err)
		}
		for g.Status() == rules.Ongoing {
			g.Moves(&list)
			for _, m := range list.Slice() {
				f := strings.Fields(g.FormatMove(m))
				if len(f) != 4 || f[2] != "x" {
					continue
				}
				piece, dest := f[0], f[1]+" x "+f[3]
				for _, k := range pickTree(g).kids {
					if k.label == piece && !k.leaf && hasLeaf(k, dest, m) {
						return
					}
				}
				t.Fatalf("ply %d: %s is not picked as %s, then %s", g.Ply(), g.FormatMove(m), piece, dest)
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
	}
	t.Fatal("no move with a removal in 200 random games")
}

// hasLeaf reports whether the move m, labelled label, is below n.
func hasLeaf(n *pickNode, label string, m rules.Move) bool {
	if n.leaf {
		return n.label == label && n.move == m
	}
	for _, k := range n.kids {
		if hasLeaf(k, label, m) {
			return true
		}
	}
	return false
}

// FuzzPickPath feeds a component's custom_id and picked value to the
// picker's parsers: they never panic, and a value they accept leads to a
// choice of the tree, a legal move or a step of at most a menu.
func FuzzPickPath(f *testing.F) {
	for _, seed := range [][2]string{
		{"pick:1:2", "0"}, {"pick:1:2", "0.1"}, {"pick:9:1", "3.12.1"}, {"pick:1:2", "-1"}, {"pick:1:2", "01"},
		{"pick::", "0..1"}, {"pick:1:99999999999999999999", "1.1.1.1"}, {"pick:1:2", strings.Repeat("9", 10240)},
	} {
		f.Add(seed[0], seed[1])
	}
	reg := games.Registry()
	var trees []*pickNode
	var states []rules.Game
	for _, name := range reg.Names() {
		g, err := reg.New(name, rules.Options{"seed": "1"})
		if err != nil {
			g, _ = reg.New(name, nil)
		}
		trees, states = append(trees, pickTree(g)), append(states, g)
	}
	f.Fuzz(func(t *testing.T, id, value string) {
		if _, _, _, err := ParseButton(id); err != nil {
			return
		}
		for i, root := range trees {
			n, path, err := pickPath(root, value)
			if err != nil {
				continue
			}
			if len(path) == 0 || len(path) > MaxPicks {
				t.Fatalf("value %q accepted as path %v", value, path)
			}
			var list rules.MoveList
			states[i].Moves(&list)
			if n.leaf && !list.Contains(n.move) || !n.leaf && (len(n.kids) == 0 || len(n.kids) > MaxMenuOptions) {
				t.Fatalf("value %q leads to %+v", value, n)
			}
		}
	})
}
