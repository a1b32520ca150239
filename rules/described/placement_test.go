package described_test

// A hand-written Go m,n,k-game (tic-tac-toe, gomoku), for the tests only:
// the described tictactoe and gomoku must agree with it move for move.

import "arbiter/rules"

// mnk is a board of cols × rows cells, numbered cell = (rank-1)*cols +
// file, on which the players place in turn; connect or more in a line
// wins, a full board without one is a draw. A move is its cell.
type mnk struct {
	cols, rows, connect int
	cells               []int8 // 0 empty, 1 player 1, 2 player 2
	played              []int
	result              []rules.Result
}

func newMNK(cols, rows, connect int) *mnk {
	return &mnk{cols: cols, rows: rows, connect: connect, cells: make([]int8, cols*rows), result: []rules.Result{rules.Ongoing}}
}

func (g *mnk) Status() rules.Result { return g.result[len(g.result)-1] }

func (g *mnk) Moves(list *rules.MoveList) {
	list.N = 0
	if g.Status() != rules.Ongoing {
		return
	}
	for c, v := range g.cells {
		if v == 0 {
			list.Add(rules.Move(c))
		}
	}
}

// run counts the mover's marks from (f, r) stepping (df, dr), not
// counting (f, r) itself.
func (g *mnk) run(f, r, df, dr int, v int8) int {
	n := 0
	for f, r = f+df, r+dr; f >= 0 && f < g.cols && r >= 0 && r < g.rows && g.cells[r*g.cols+f] == v; f, r = f+df, r+dr {
		n++
	}
	return n
}

func (g *mnk) Play(m rules.Move) {
	c := int(m)
	p := len(g.played) % 2
	v := int8(p + 1)
	g.cells[c] = v
	g.played = append(g.played, c)
	f, r := c%g.cols, c/g.cols
	res := rules.Ongoing
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		if 1+g.run(f, r, d[0], d[1], v)+g.run(f, r, -d[0], -d[1], v) >= g.connect {
			res = rules.Win(rules.Player(p))
		}
	}
	if res == rules.Ongoing && len(g.played) == len(g.cells) {
		res = rules.Draw
	}
	g.result = append(g.result, res)
}

func (g *mnk) Undo() {
	n := len(g.played) - 1
	g.cells[g.played[n]] = 0
	g.played = g.played[:n]
	g.result = g.result[:len(g.result)-1]
}

func (g *mnk) FormatMove(m rules.Move) string {
	return squareText(int(m)%g.cols, int(m)/g.cols+1)
}
