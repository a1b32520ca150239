package engine

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// toy is tic-tac-toe behind the rules contract: a game small enough for the
// search's exact answers to be known. X (P1) moves first; a move is the
// square 0..8; a move that completes a line is tactical.
type toy struct {
	board [9]int8 // 0 empty, 1 X, 2 O
	hist  []rules.Move
	hash  uint64
}

var toyLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// toyKey is the hash of a piece of colour c (1 or 2) on square i.
func toyKey(c int8, i int) uint64 {
	x := uint64(int(c)*16+i+1) * 0x9E3779B97F4A7C15
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	return x ^ x>>29
}

func newToy(diagram string) *toy {
	t := &toy{hist: make([]rules.Move, 0, 9)}
	i := 0
	for _, r := range diagram {
		switch r {
		case 'x', 'X':
			t.board[i] = 1
		case 'o', 'O':
			t.board[i] = 2
		case '.':
		default:
			continue
		}
		if t.board[i] != 0 {
			t.hash ^= toyKey(t.board[i], i)
		}
		i++
	}
	return t
}

func (t *toy) count() int {
	n := 0
	for _, c := range t.board {
		if c != 0 {
			n++
		}
	}
	return n
}

func (t *toy) Name() string                     { return "toy" }
func (t *toy) Options() rules.Options           { return rules.Options{} }
func (t *toy) ToMove() rules.Player             { return rules.Player(t.count() % 2) }
func (t *toy) PlayerName(p rules.Player) string { return [2]string{"X", "O"}[p] }
func (t *toy) Ply() int                         { return len(t.hist) }
func (t *toy) History() []rules.Move            { return t.hist }

func (t *toy) Moves(l *rules.MoveList) {
	l.Reset()
	if t.Status() != rules.Ongoing {
		return
	}
	for i, c := range t.board {
		if c == 0 {
			l.Add(rules.Move(i))
		}
	}
}

func (t *toy) Play(m rules.Move) {
	c := int8(t.ToMove()) + 1
	t.board[m] = c
	t.hash ^= toyKey(c, int(m))
	t.hist = append(t.hist, m)
}

func (t *toy) Undo() {
	m := t.hist[len(t.hist)-1]
	t.hist = t.hist[:len(t.hist)-1]
	t.hash ^= toyKey(t.board[m], int(m))
	t.board[m] = 0
}

func (t *toy) winner() int8 {
	for _, l := range toyLines {
		if c := t.board[l[0]]; c != 0 && c == t.board[l[1]] && c == t.board[l[2]] {
			return c
		}
	}
	return 0
}

func (t *toy) Status() rules.Result {
	switch t.winner() {
	case 1:
		return rules.P1Wins
	case 2:
		return rules.P2Wins
	}
	if t.count() == 9 {
		return rules.Draw
	}
	return rules.Ongoing
}

func (t *toy) Outcome() rules.Outcome {
	return rules.Outcome{Result: t.Status(), Reason: "three in a row"}
}

func (t *toy) Hash() uint64 { return t.hash ^ uint64(t.ToMove()) }

func (t *toy) ParseMove(text string) (rules.Move, error) {
	var n int
	if _, err := fmt.Sscanf(strings.TrimSpace(text), "%d", &n); err != nil || n < 0 || n > 8 {
		return 0, rules.NewMoveError(rules.ErrUnreadable, "write a square 0..8")
	}
	if t.board[n] != 0 || t.Status() != rules.Ongoing {
		return 0, rules.NewMoveError(rules.ErrIllegal, "that square is taken")
	}
	return rules.Move(n), nil
}

func (t *toy) FormatMove(m rules.Move) string { return fmt.Sprint(int(m)) }
func (t *toy) Announce(rules.Move) string     { return "" }

func (t *toy) Tactical(m rules.Move) bool {
	t.Play(m)
	won := t.winner() != 0
	t.Undo()
	return won
}

// Evaluate counts open lines: lines with only the mover's marks minus lines
// with only the opponent's.
func (t *toy) Evaluate() int {
	me := int8(t.ToMove()) + 1
	v := 0
	for _, l := range toyLines {
		mine, theirs := 0, 0
		for _, i := range l {
			switch t.board[i] {
			case 0:
			case me:
				mine++
			default:
				theirs++
			}
		}
		if theirs == 0 && mine > 0 {
			v += 10 * mine
		}
		if mine == 0 && theirs > 0 {
			v -= 10 * theirs
		}
	}
	return v
}

func (t *toy) Material() int { return 0 }

func (t *toy) Clone() rules.Game {
	c := *t
	c.hist = append(make([]rules.Move, 0, 9), t.hist...)
	return &c
}
