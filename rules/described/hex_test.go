package described_test

// A hand-written Go Hex, for the tests only: the described hex must agree
// with it move for move.

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
)

// hexGame's cells are cells[rank0*size + file0], rank 0 at the bottom; a
// move is the cell, or hexSwap.
type hexGame struct {
	size   int
	swap   bool
	cells  []int8 // 0 empty, 1 Red, 2 Blue
	moves  []rules.Move
	result []rules.Result
}

const hexSwap rules.Move = 1 << 12

func newHex(size int, swap bool) *hexGame {
	return &hexGame{size: size, swap: swap, cells: make([]int8, size*size), result: []rules.Result{rules.Ongoing}}
}

func (g *hexGame) Status() rules.Result { return g.result[len(g.result)-1] }

func (g *hexGame) Moves(list *rules.MoveList) {
	list.N = 0
	if g.Status() != rules.Ongoing {
		return
	}
	for c, v := range g.cells {
		if v == 0 {
			list.Add(rules.Move(c))
		}
	}
	if g.swap && len(g.moves) == 1 {
		list.Add(hexSwap)
	}
}

// neighbours of (f, r): (f±1, r), (f, r±1), (f+1, r−1), (f−1, r+1).
var hexSteps = [6][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}}

// joined reports whether player who (1 Red: rank 1 to the last rank; 2
// Blue: file a to the last file) has a chain.
func (g *hexGame) joined(who int8) bool {
	n := g.size
	seen := make([]bool, n*n)
	var stack []int
	for i := range n {
		c := i // Red: rank 0, file i
		if who == 2 {
			c = i * n // Blue: file 0, rank i
		}
		if g.cells[c] == who {
			seen[c] = true
			stack = append(stack, c)
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f, r := c%n, c/n
		if who == 1 && r == n-1 || who == 2 && f == n-1 {
			return true
		}
		for _, s := range hexSteps {
			x, y := f+s[0], r+s[1]
			if x < 0 || x >= n || y < 0 || y >= n {
				continue
			}
			if t := y*n + x; !seen[t] && g.cells[t] == who {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return false
}

func (g *hexGame) Play(m rules.Move) {
	me := int8(1 + len(g.moves)%2)
	if m == hexSwap {
		for c, v := range g.cells {
			if v == 1 {
				g.cells[c] = 0
				f, r := c%g.size, c/g.size
				g.cells[f*g.size+r] = 2 // (f, r) -> (r, f)
				break
			}
		}
	} else {
		g.cells[m] = me
	}
	g.moves = append(g.moves, m)
	res := rules.Ongoing
	if g.joined(me) {
		res = rules.Win(rules.Player(me - 1))
	}
	g.result = append(g.result, res)
}

func (g *hexGame) Undo() {
	m := g.moves[len(g.moves)-1]
	g.moves = g.moves[:len(g.moves)-1]
	g.result = g.result[:len(g.result)-1]
	if m == hexSwap {
		for c, v := range g.cells {
			if v == 2 {
				g.cells[c] = 0
				f, r := c%g.size, c/g.size
				g.cells[f*g.size+r] = 1
				break
			}
		}
		return
	}
	g.cells[m] = 0
}

func (g *hexGame) FormatMove(m rules.Move) string {
	if m == hexSwap {
		return "swap"
	}
	return squareText(int(m)%g.size, int(m)/g.size+1)
}

// TestHexSwap: Blue's swap is the second move only, mirrors Red's stone
// and gives Red the move; with swap off it is refused.
func TestHexSwap(t *testing.T) {
	g := newDescribed(t, "hex", nil)
	if _, err := g.ParseMove("swap"); err == nil || !strings.Contains(err.Error(), "second move") {
		t.Fatalf("swap as the first move: %v", err)
	}
	for _, text := range []string{"b3", "swap"} {
		m, err := g.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := g.FormatMove(m); got != text {
			t.Fatalf("%s reads back as %s", text, got)
		}
		g.Play(m)
	}
	cols, rows := g.Size()
	// c2 (file 3, rank 2) is Blue's now, b3 empty, and Red is to move.
	if p, _, ok := g.At(2, rows-2); !ok || p != rules.P2 {
		t.Fatalf("after swap c2 holds %v %v", p, ok)
	}
	if _, _, ok := g.At(1, rows-3); ok {
		t.Fatal("after swap b3 still holds a stone")
	}
	if g.ToMove() != rules.P1 || cols != 11 {
		t.Fatalf("after swap %v is to move", g.ToMove())
	}
	if _, err := g.ParseMove("swap"); err == nil {
		t.Fatal("a second swap was accepted")
	}
	off := newDescribed(t, "hex", rules.Options{"swap": "off"})
	off.Play(mustParse(t, off, "b3"))
	if _, err := off.ParseMove("swap"); err == nil || !strings.Contains(err.Error(), "no swap") {
		t.Fatalf("swap with swap=off: %v", err)
	}
}

// TestHexConnects: a straight chain of Red up file a wins for Red, and
// the reason says so; the zigzag a1 b1... is no chain for Blue since a1
// and b1 ... meet only through touching cells.
func TestHexConnects(t *testing.T) {
	g := newDescribed(t, "hex", rules.Options{"size": "5", "swap": "off"})
	for _, text := range []string{"c1", "a1", "c2", "b1", "c3", "d1", "c4", "e1"} {
		g.Play(mustParse(t, g, text))
	}
	// Blue's a1 b1 d1 e1 miss c1 (Red's), so Blue has not joined.
	if g.Status() != rules.Ongoing {
		t.Fatalf("status %v before Red's last stone", g.Status())
	}
	g.Play(mustParse(t, g, "c5"))
	if g.Status() != rules.Win(rules.P1) || !strings.Contains(g.Outcome().Reason, "Red joined") {
		t.Fatalf("after c1-c5: %v %q", g.Status(), g.Outcome().Reason)
	}
	// The diagonal that does not touch: b1, c2 ... do not join for Red
	// when they step along file and rank together.
	d := newDescribed(t, "hex", rules.Options{"size": "5", "swap": "off"})
	for _, text := range []string{"a1", "e1", "b2", "e2", "c3", "e3", "d4", "d1", "e5"} {
		d.Play(mustParse(t, d, text))
	}
	if d.Status() != rules.Ongoing {
		t.Fatalf("a1 b2 c3 d4 e5 joined: %v", d.Status())
	}
}

// TestConnectionAgreesWithTwoDistance: along random games of Hex on
// boards of one, two and three 64-bit words, the connection term weighs
// each side's connection potential and the cells that reach it, as
// counted here by relaxing two-distances over the hand-written game's own
// neighbours until none shortens.
func TestConnectionAgreesWithTwoDistance(t *testing.T) {
	text, err := shipped.Files.ReadFile("hex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(text), "connection: 50\n  centre: 4", "connection: 16", 1)
	if body == string(text) {
		t.Fatal("games/hex.yaml no longer weighs connection: 50, centre: 4")
	}
	spec, err := described.Load("hex.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 5))
	for _, size := range []int{5, 8, 11, 13} {
		g, err := spec.New(rules.Options{"size": strconv.Itoa(size)})
		if err != nil {
			t.Fatal(err)
		}
		var list rules.MoveList
		for g.Status() == rules.Ongoing {
			// rows from the top, as At reads them: a cell's rank is size-1-row
			cells := make([]int8, size*size)
			for c := range size {
				for r := range size {
					if p, _, ok := g.At(c, size-1-r); ok {
						cells[r*size+c] = int8(p) + 1
					}
				}
			}
			me := g.ToMove()
			own, ownWays := twoDistance(cells, size, int8(me)+1)
			theirs, theirWays := twoDistance(cells, size, int8(me^1)+1)
			want := 16*(theirs-own) + ownWays - theirWays
			if got := g.Evaluate(); got != want {
				t.Fatalf("size %d after %v: connection term %d, want %d (potentials %d and %d, reached at %d and %d cells)",
					size, played(g), got, want, own, theirs, ownWays, theirWays)
			}
			g.Moves(&list)
			g.Play(list.Slice()[rng.IntN(list.N)])
		}
	}
}

// twoDistance is the connection potential of player who (1 Red, joining
// the ranks; 2 Blue, the files) and the empty cells that reach it; cells
// as hexGame's. An empty cell's neighbours are the empty cells it touches
// and those touching a group of who's stones that it touches. Its
// two-distance to an edge is 1 on the edge or next to a group of who's
// touching it, else one more than the second-least of its neighbours',
// 255 at most; its potential is the sum of its two.
func twoDistance(cells []int8, size int, who int8) (potential, count int) {
	const far = 255
	touching := func(c int) []int {
		var out []int
		for _, s := range hexSteps {
			x, y := c%size+s[0], c/size+s[1]
			if x >= 0 && x < size && y >= 0 && y < size {
				out = append(out, y*size+x)
			}
		}
		return out
	}
	onEdge := func(c, end int) bool {
		along := c / size
		if who == 2 {
			along = c % size
		}
		return along == end*(size-1)
	}
	// group[c]: the stones of who's group through c.
	group := make([][]int, len(cells))
	for c := range cells {
		if cells[c] != who || group[c] != nil {
			continue
		}
		members := []int{c}
		for i := 0; i < len(members); i++ {
			for _, x := range touching(members[i]) {
				if cells[x] == who && !slices.Contains(members, x) {
					members = append(members, x)
				}
			}
		}
		for _, m := range members {
			group[m] = members
		}
	}
	neighbours := make([][]int, len(cells))
	starts := [2][]bool{make([]bool, len(cells)), make([]bool, len(cells))}
	for c := range cells {
		if cells[c] != 0 {
			continue
		}
		for end := range 2 {
			starts[end][c] = onEdge(c, end)
		}
		for _, x := range touching(c) {
			switch cells[x] {
			case 0:
				if !slices.Contains(neighbours[c], x) {
					neighbours[c] = append(neighbours[c], x)
				}
			case who:
				for _, m := range group[x] {
					for end := range 2 {
						starts[end][c] = starts[end][c] || onEdge(m, end)
					}
					for _, y := range touching(m) {
						if cells[y] == 0 && y != c && !slices.Contains(neighbours[c], y) {
							neighbours[c] = append(neighbours[c], y)
						}
					}
				}
			}
		}
	}
	var dist [2][]int
	for end := range 2 {
		d := make([]int, len(cells))
		for c := range d {
			d[c] = far
			if cells[c] == 0 && starts[end][c] {
				d[c] = 1
			}
		}
		for changed := true; changed; {
			changed = false
			for c := range cells {
				if cells[c] != 0 || d[c] == 1 || len(neighbours[c]) < 2 {
					continue
				}
				var ds []int
				for _, x := range neighbours[c] {
					ds = append(ds, d[x])
				}
				slices.Sort(ds)
				if v := ds[1] + 1; v < d[c] {
					d[c], changed = v, true
				}
			}
		}
		dist[end] = d
	}
	potential = 2 * far
	for c := range cells {
		if cells[c] != 0 {
			continue
		}
		switch pot := dist[0][c] + dist[1][c]; {
		case pot < potential:
			potential, count = pot, 1
		case pot == potential:
			count++
		}
	}
	return potential, count
}
