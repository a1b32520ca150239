package hiya

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arbiter/rules"
)

// This file holds a naive reference implementation of the rules, written
// from the rules file with a plain 2D array and obvious code, and checks the
// fast implementation against it.

type refCell struct {
	kind Kind
	side Side
	full bool
}

type refBoard struct {
	cell   [rows + 1][cols + 1]refCell // [row][col], both from 1
	toMove Side
	over   bool
	winner Side
	reason string
}

type refMove struct{ fc, fr, tc, tr int }

func (m refMove) String() string {
	return fmt.Sprintf("%c%d%c%d", 'A'+m.fc-1, m.fr, 'A'+m.tc-1, m.tr)
}

// refStart builds the start from the words of the rules file.
func refStart(first Side) *refBoard {
	b := &refBoard{toMove: first}
	place := func(s Side, k Kind, squares string) {
		for _, sq := range strings.Fields(squares) {
			b.cell[sq[1]-'0'][sq[0]-'A'+1] = refCell{k, s, true}
		}
	}
	place(North, King, "D8")
	place(North, Ninja, "A7 B7 C7")
	place(North, Samurai, "E7 F7 G7")
	place(North, MiniSamurai, "A6 B6 C6")
	place(North, MiniNinja, "E6 F6 G6")
	place(South, King, "D1")
	place(South, Samurai, "A2 B2 C2")
	place(South, Ninja, "E2 F2 G2")
	place(South, MiniNinja, "A3 B3 C3")
	place(South, MiniSamurai, "E3 F3 G3")
	return b
}

// refFromGame copies g's position through its exported accessors.
func refFromGame(g *Game) *refBoard {
	b := &refBoard{toMove: g.SideToMove()}
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			if k, s, ok := g.PieceAt(c, r); ok {
				b.cell[r][c] = refCell{k, s, true}
			}
		}
	}
	for _, s := range []Side{South, North} {
		if g.Pieces(s) == 0 || !b.hasKing(s) {
			b.over, b.winner, b.reason = true, s^1, "king attacked"
			return b
		}
	}
	if len(b.moves()) == 0 {
		b.over, b.winner, b.reason = true, b.toMove^1, "no legal move"
	}
	return b
}

func (b *refBoard) hasKing(s Side) bool {
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			if x := b.cell[r][c]; x.full && x.kind == King && x.side == s {
				return true
			}
		}
	}
	return false
}

func onBoard(c, r int) bool { return c >= 1 && c <= cols && r >= 1 && r <= rows }

// attacks reports whether a piece of the side to move landing on (c, r)
// attacks: the square one step further forward holds an opposing piece.
func (b *refBoard) attacks(c, r int) bool {
	f := 1
	if b.toMove == North {
		f = -1
	}
	if !onBoard(c, r+f) {
		return false
	}
	x := b.cell[r+f][c]
	return x.full && x.side != b.toMove
}

func (b *refBoard) moves() []refMove {
	if b.over {
		return nil
	}
	type way struct {
		dc, dr     int // dr in rows forward
		far        bool
		onlyAttack bool
	}
	ways := map[Kind][]way{
		Ninja:       {{-1, 1, true, false}, {1, 1, true, false}, {-1, -1, true, true}, {1, -1, true, true}},
		Samurai:     {{0, 1, true, false}, {-1, 0, true, true}, {1, 0, true, true}},
		MiniNinja:   {{-1, 1, false, false}, {1, 1, false, false}, {-1, -1, false, true}, {1, -1, false, true}},
		MiniSamurai: {{0, 1, false, false}, {-1, 0, false, true}, {1, 0, false, true}},
	}
	f := 1
	if b.toMove == North {
		f = -1
	}
	var out []refMove
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			x := b.cell[r][c]
			if !x.full || x.side != b.toMove {
				continue
			}
			for _, w := range ways[x.kind] {
				for n := 1; ; n++ {
					tc, tr := c+n*w.dc, r+n*w.dr*f
					if !onBoard(tc, tr) || b.cell[tr][tc].full {
						break
					}
					if !w.onlyAttack || b.attacks(tc, tr) {
						out = append(out, refMove{c, r, tc, tr})
					}
					if !w.far {
						break
					}
				}
			}
		}
	}
	return out
}

func (b *refBoard) play(m refMove) *refBoard {
	n := *b
	f := 1
	if b.toMove == North {
		f = -1
	}
	attack := n.attacks(m.tc, m.tr)
	n.cell[m.tr][m.tc] = n.cell[m.fr][m.fc]
	n.cell[m.fr][m.fc] = refCell{}
	if attack {
		t := &n.cell[m.tr+f][m.tc]
		switch t.kind {
		case Ninja:
			t.kind = MiniNinja
		case Samurai:
			t.kind = MiniSamurai
		case King:
			*t = refCell{}
			n.over, n.winner, n.reason = true, b.toMove, "king attacked"
		default:
			*t = refCell{}
		}
	}
	n.toMove = b.toMove ^ 1
	if !n.over && len(n.moves()) == 0 {
		n.over, n.winner, n.reason = true, b.toMove, "no legal move"
	}
	return &n
}

func (b *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range b.moves() {
		n += b.play(m).perft(depth - 1)
	}
	return n
}

func refMoveTexts(b *refBoard) []string {
	var out []string
	for _, m := range b.moves() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

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

// samePosition reports the first difference between g and b, or "".
func samePosition(g *Game, b *refBoard) string {
	if g.SideToMove() != b.toMove {
		return fmt.Sprintf("side to move %s, reference %s", g.SideToMove(), b.toMove)
	}
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			k, s, ok := g.PieceAt(c, r)
			x := b.cell[r][c]
			if ok != x.full || ok && (k != x.kind || s != x.side) {
				return fmt.Sprintf("%s: %v %v %v, reference %v", squareText(c, r), k, s, ok, x)
			}
		}
	}
	status := rules.Ongoing
	if b.over {
		status = rules.Win(g.PlayerOf(b.winner))
	}
	if g.Status() != status || g.Outcome().Reason != b.reason {
		return fmt.Sprintf("outcome %v %q, reference %v %q", g.Status(), g.Outcome().Reason, status, b.reason)
	}
	return ""
}

func TestReferenceStart(t *testing.T) {
	for _, first := range []Side{South, North} {
		g, err := New(rules.Options{"first": strings.ToLower(first.String())})
		if err != nil {
			t.Fatal(err)
		}
		if d := samePosition(g, refStart(first)); d != "" {
			t.Fatalf("first=%s: start differs from the rules file: %s", first, d)
		}
	}
}

func TestReferencePerftAndDivide(t *testing.T) {
	depth := 5
	if raceEnabled || testing.Short() {
		depth = 4
	}
	for _, first := range []Side{South, North} {
		g, _ := New(rules.Options{"first": strings.ToLower(first.String())})
		ref := refStart(first)
		moves, counts := rules.Divide(g, depth)
		refMoves := ref.moves()
		if len(moves) != len(refMoves) {
			t.Fatalf("first=%s: %d moves, reference %d", first, len(moves), len(refMoves))
		}
		want := map[string]uint64{}
		for _, m := range refMoves {
			want[m.String()] = ref.play(m).perft(depth - 1)
		}
		for i, m := range moves {
			if w, ok := want[g.FormatMove(m)]; !ok || w != counts[i] {
				t.Errorf("first=%s: divide %s: %d, reference %d (known %v)", first, g.FormatMove(m), counts[i], w, ok)
			}
		}
	}
}

// TestReferenceRandomGames plays random games with both implementations
// side by side: same legal moves, same position and outcome at every ply,
// hash kept incrementally equal to the hash from scratch, no two distinct
// positions with one hash, and Undo back to the start restoring everything.
func TestReferenceRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(180, 2017))
	games := 300
	if testing.Short() {
		games = 60
	}
	seen := map[uint64]string{}
	reasons := map[string]int{}
	defer func() {
		if len(reasons) != 2 {
			t.Errorf("random games ended only by %v; want both ways to win", reasons)
		}
	}()
	for i := range games {
		first := Side(i % 2)
		g, _ := New(rules.Options{"first": strings.ToLower(first.String())})
		ref := refStart(first)
		var hashes []uint64
		var diagrams []string
		for ply := 0; ; ply++ {
			if ply > historyCap {
				t.Fatalf("game %d runs past %d plies", i, historyCap)
			}
			if ply%2 == 1 {
				// Generate first, as an engine would: Status must not
				// depend on what was asked before.
				_ = moveTexts(g)
			}
			if d := samePosition(g, ref); d != "" {
				t.Fatalf("game %d ply %d: %s\n%s", i, ply, d, g.Diagram())
			}
			got, want := moveTexts(g), refMoveTexts(ref)
			if !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d: moves %v\nreference %v\n%s", i, ply, got, want, g.Diagram())
			}
			if h := g.pos.computeHash(g.keys); h != g.Hash() {
				t.Fatalf("game %d ply %d: hash %x, from scratch %x", i, ply, g.Hash(), h)
			}
			if v := g.pos.placement(g.squares); v != g.pos.placed {
				t.Fatalf("game %d ply %d: square values %d, from scratch %d", i, ply, g.pos.placed, v)
			}
			key := fmt.Sprint(g.SideToMove(), g.Diagram())
			if other, ok := seen[g.Hash()]; ok && other != key {
				t.Fatalf("hash collision %x:\n%s\n%s", g.Hash(), other, key)
			}
			seen[g.Hash()] = key
			hashes = append(hashes, g.Hash())
			diagrams = append(diagrams, key)
			if g.Status() != rules.Ongoing {
				if len(want) != 0 {
					t.Fatalf("game %d: over but the reference has moves", i)
				}
				break
			}
			if len(want) == 0 {
				t.Fatalf("game %d ply %d: no moves but the game goes on", i, ply)
			}
			var list rules.MoveList
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			fc, fr, tc, tr := MoveSquares(m)
			rm := refMove{fc, fr, tc, tr}
			if g.IsAttack(m) != ref.attacks(tc, tr) || g.Tactical(m) != g.IsAttack(m) {
				t.Fatalf("game %d ply %d: %s attack %v, reference %v", i, ply, g.FormatMove(m), g.IsAttack(m), ref.attacks(tc, tr))
			}
			if (g.Announce(m) == Announcement) != g.IsAttack(m) {
				t.Fatalf("announce %q for %s", g.Announce(m), g.FormatMove(m))
			}
			if pm, err := g.ParseMove(g.FormatMove(m)); err != nil || pm != m {
				t.Fatalf("ParseMove(%s) = %v, %v", g.FormatMove(m), pm, err)
			}
			g.Play(m)
			ref = ref.play(rm)
		}
		if _, won := g.Status().Winner(); !won {
			t.Fatalf("game %d ended without a winner", i)
		}
		reasons[g.Outcome().Reason]++
		for ply := len(hashes) - 2; ply >= 0; ply-- {
			g.Undo()
			if g.Hash() != hashes[ply] || fmt.Sprint(g.SideToMove(), g.Diagram()) != diagrams[ply] || g.Ply() != ply {
				t.Fatalf("game %d: Undo to ply %d does not restore the position", i, ply)
			}
		}
	}
}

// TestReferenceMidgamePerft compares perft from positions along random
// games, where pieces are hurt and the minis' backward attacks come in.
func TestReferenceMidgamePerft(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checked := 0
	for checked < 20 {
		g, _ := New(nil)
		plies := 10 + rng.IntN(40)
		for range plies {
			var list rules.MoveList
			g.Moves(&list)
			if list.N == 0 {
				break
			}
			g.Play(list.Moves[rng.IntN(list.N)])
		}
		ref := refFromGame(g)
		if got, want := rules.Perft(g, 3), ref.perft(3); got != want {
			t.Fatalf("perft 3 after %v: %d, reference %d\n%s", g.History(), got, want, g.Diagram())
		}
		checked++
	}
}
