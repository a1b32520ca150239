package described_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"arbiter/rules"
	"arbiter/rules/described"
)

// ---- Kalah, written by hand: each side's houses in its own numbering
// (from 1 in the direction of sowing), the stores apart.

type kalahState struct {
	house  [2][6]int
	store  [2]int
	toMove int
	over   bool
}

type kalah struct {
	n    int
	s    kalahState
	past []kalahState
}

func newKalah(houses, seeds int) *kalah {
	g := &kalah{n: houses}
	for p := range 2 {
		for i := range houses {
			g.s.house[p][i] = seeds
		}
	}
	return g
}

func (g *kalah) Moves(list *rules.MoveList) {
	list.N = 0
	if g.s.over {
		return
	}
	for i := range g.n {
		if g.s.house[g.s.toMove][i] > 0 {
			list.Add(rules.Move(i + 1))
		}
	}
}

func (g *kalah) Play(m rules.Move) {
	g.past = append(g.past, g.s)
	s := &g.s
	p := s.toMove
	side, at := p, int(m)-1
	seeds := s.house[side][at]
	s.house[side][at] = 0
	for seeds > 0 {
		// The pit after (side, at): the next house of that side, its
		// store after its last house, the other side's first house after
		// a store. The opponent's store is passed over.
		switch {
		case at < g.n-1:
			at++
		case at == g.n-1 && side == p:
			at = g.n
		default:
			side, at = 1-side, 0
		}
		if at == g.n {
			s.store[side]++
		} else {
			s.house[side][at]++
		}
		seeds--
	}
	inStore := at == g.n
	if !inStore && side == p && s.house[p][at] == 1 && s.house[1-p][g.n-1-at] > 0 {
		s.store[p] += 1 + s.house[1-p][g.n-1-at]
		s.house[p][at], s.house[1-p][g.n-1-at] = 0, 0
	}
	if !inStore {
		s.toMove = 1 - p
	}
	empty := [2]bool{true, true}
	for q := range 2 {
		for i := range g.n {
			if s.house[q][i] > 0 {
				empty[q] = false
			}
		}
	}
	if empty[0] || empty[1] {
		s.over = true
		for q := range 2 {
			for i := range g.n {
				s.store[q] += s.house[q][i]
				s.house[q][i] = 0
			}
		}
	}
}

func (g *kalah) Undo() {
	g.s = g.past[len(g.past)-1]
	g.past = g.past[:len(g.past)-1]
}

func (g *kalah) Status() rules.Result {
	if !g.s.over {
		return rules.Ongoing
	}
	return rules.ByScore(g.s.store[0], g.s.store[1])
}

func (g *kalah) FormatMove(m rules.Move) string { return strconv.Itoa(int(m)) }

// kalahVariants are the option settings the tests compare.
var kalahVariants = []struct {
	houses, seeds int
	depth         int
}{{6, 4, 8}, {3, 3, 10}, {4, 6, 8}}

func kalahOptions(houses, seeds int) rules.Options {
	return rules.Options{"houses": fmt.Sprint(houses), "seeds": fmt.Sprint(seeds)}
}

// newShaped starts a shipped game on a pits or dots board.
func newShaped(t testing.TB, name string, opts rules.Options) rules.Game {
	t.Helper()
	g, err := shippedSpec(t, name).Definition().New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestKalahPerft checks Kalah's perft at three settings against the
// figures of the hand-written Kalah.
func TestKalahPerft(t *testing.T) {
	for _, tc := range []struct {
		houses, seeds int
		want          []uint64
	}{
		{6, 4, []uint64{6, 35, 185, 942, 4690, 23233, 114430, 563055}},
		{3, 3, []uint64{3, 8, 19, 48, 120, 280, 610, 1283}},
		{4, 6, []uint64{4, 16, 63, 235, 813, 2678, 9081}},
	} {
		g := newShaped(t, "kalah", kalahOptions(tc.houses, tc.seeds))
		for d, want := range tc.want {
			if got := rules.Perft(g, d+1); got != want {
				t.Errorf("kalah %d/%d perft(%d) = %d, want %d", tc.houses, tc.seeds, d+1, got, want)
			}
		}
	}
}

// TestKalahAgrees compares the described Kalah with the hand-written one:
// perft depth by depth, and random games move by move.
func TestKalahAgrees(t *testing.T) {
	for _, v := range kalahVariants {
		opts := kalahOptions(v.houses, v.seeds)
		agree(t, "kalah", opts, func() refGame { return newKalah(v.houses, v.seeds) }, v.depth, func(g rules.Game) string {
			k := g.(*described.Pits)
			return fmt.Sprint(k.ToMove(), k.Store(0), k.Store(1), k.Status(), houses(k))
		})
	}
}

// TestKalahEvaluate: the shipped Kalah weighs each seed more in the store
// (100), in the player's own houses (25) and each house more that can be
// sown (5), for the player to move, along random games.
func TestKalahEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	var list rules.MoveList
	for range 20 {
		g := newShaped(t, "kalah", nil).(*described.Pits)
		for g.Status() == rules.Ongoing {
			p := g.ToMove()
			var seeds, sown int
			for h := 1; h <= g.Houses(); h++ {
				seeds += g.House(p, h) - g.House(p^1, h)
				sown += min(g.House(p, h), 1) - min(g.House(p^1, h), 1)
			}
			want := 100*(g.Store(p)-g.Store(p^1)) + 25*seeds + 5*sown
			if got := g.Evaluate(); got != want {
				t.Fatalf("after %v: Evaluate = %d, want %d", played(g), got, want)
			}
			list.Reset()
			g.Moves(&list)
			g.Play(list.Moves[rng.IntN(list.N)])
		}
	}
}

func houses(k *described.Pits) []int {
	var out []int
	for p := range rules.Player(2) {
		for h := 1; h <= k.Houses(); h++ {
			out = append(out, k.House(p, h))
		}
	}
	return out
}

// agree checks a game on a pits or dots board against its hand-written
// twin: perft to depth (two less under -short), then random games (1,000;
// 60 under -short) by playAgreeing.
func agree(t *testing.T, name string, opts rules.Options, ref func() refGame, depth int, key func(rules.Game) string) {
	t.Helper()
	start := newShaped(t, name, opts)
	if testing.Short() {
		depth -= 2
	}
	for d := 1; d <= depth; d++ {
		if got, want := rules.Perft(start, d), perftN(ref(), d); got != want {
			t.Errorf("%s %s: perft(%d) = %d, hand-written %d", name, opts, d, got, want)
			return
		}
	}
	games := 1000
	if testing.Short() {
		games = 60
	}
	playAgreeing(t, name, opts, start, ref, games, key)
}
