package hique

import (
	"math/bits"

	"arbiter/rules"
)

// Evaluation weights; 100 is about a runner (90 at its home row, 25 more
// for each row it advances). runnerValue and advanceValue come from a fit
// to the results of self-play games (engine/evalfit), which valued a row
// far above the 10 it had counted: a runner that reaches the far side wins.
const (
	runnerValue  = 90 // each runner on the board
	advanceValue = 25 // each row a runner has advanced from its home row
	exposedValue = 25 // each runner touched by exactly one enemy guard
)

// raceBonus is the bonus for a side's most advanced runner by the rows it
// still has to go.
func raceBonus(toGo int) int {
	switch toGo {
	case 1:
		return 150
	case 2:
		return 70
	case 3:
		return 30
	case 4:
		return 12
	case 5:
		return 4
	}
	return 0
}

// Evaluate scores the position for the player to move, in hundredths of a
// runner, as the sum of these features, each taken as the mover's value
// minus the opponent's:
//
//   - material: 90 for each runner on the board;
//   - advance: 25 for each row each runner has advanced from its home row
//     (the timing option's extra points);
//   - race: a bonus for the most advanced runner by the rows it has left to
//     go: 150 for 1, 70 for 2, 30 for 3, 12 for 4, 4 for 5;
//   - exposure: -25 for each runner touched by exactly one enemy guard (one
//     more guard removes it).
//
// It is a few popcounts and shifts and never allocates.
func (g *Game) Evaluate() int {
	p := &g.pos
	s := p.side
	v := sideValue(p, rules.P1) - sideValue(p, rules.P2)
	if s == rules.P2 {
		return -v
	}
	return v
}

// sideValue is the features of pl's runners, from pl's point of view.
func sideValue(p *position, pl rules.Player) int {
	r := p.runners[pl]
	n := bits.OnesCount64(r)
	if n == 0 {
		return 0
	}
	var advanced, toGo int
	if pl == rules.P1 {
		advanced = rowSum(r)
		toGo = 6 - (bits.Len64(r)-1)/width
	} else {
		advanced = 6*n - rowSum(r)
		toGo = bits.TrailingZeros64(r) / width
	}
	enemy := p.guards[pl^1]
	exposed := bits.OnesCount64(r & touchedAny(enemy) &^ touchedTwice(enemy))
	return runnerValue*n + advanceValue*advanced + raceBonus(toGo) - exposedValue*exposed
}

// Material scores only the runners for the player to move: 90 for each of
// the mover's runners minus 90 for each of the opponent's.
func (g *Game) Material() int {
	p := &g.pos
	s := p.side
	return runnerValue * (bits.OnesCount64(p.runners[s]) - bits.OnesCount64(p.runners[s^1]))
}

// Terms counts the position in the quantities Evaluate weighs, for each
// player: runners on the board, rows they have advanced (the timing
// option's extra points), and runners one guard away from removal.
func (g *Game) Terms() []rules.Term {
	p := &g.pos
	var t [3][2]int
	for pl := rules.P1; pl <= rules.P2; pl++ {
		r := p.runners[pl]
		n := bits.OnesCount64(r)
		t[0][pl] = n
		if pl == rules.P1 {
			t[1][pl] = rowSum(r)
		} else {
			t[1][pl] = 6*n - rowSum(r)
		}
		enemy := p.guards[pl^1]
		t[2][pl] = bits.OnesCount64(r & touchedAny(enemy) &^ touchedTwice(enemy))
	}
	return []rules.Term{{Name: "runners", Count: t[0]}, {Name: "rows advanced", Count: t[1]}, {Name: "runners one guard from removal", Count: t[2]}}
}
