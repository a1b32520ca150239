package render

import (
	"image"

	"arbiter/rules/described"
)

// Boards of points joined by lines (layout points, Nine Men's Morris): the
// grid's cells that are points hold pieces; the others are blank or carry
// the line that passes through them, so that text and emoji boards show
// the lines, and images draw each line from point to point.

// Emoji of the cells between points.
const (
	emojiHLine = "➖"
	emojiVLine = "▪️"
)

// pointsScene marks the cells of g's board that are no point as blank or
// line cells and records the lines between points.
func pointsScene(s *scene, g *described.Game) {
	s.palette.emptyText[blank], s.palette.emptyText[hline], s.palette.emptyText[vline] = " ", "-", "|"
	s.palette.emptyEmoji[blank], s.palette.emptyEmoji[hline], s.palette.emptyEmoji[vline] = emojiBlank, emojiHLine, emojiVLine
	for r := range s.rows {
		for c := range s.cols {
			if !g.OnBoard(c, r) {
				s.at(c, r).kind = blank
			}
		}
	}
	for _, j := range g.Joins() {
		s.links = append(s.links, [2]int{j[1]*s.cols + j[0], j[3]*s.cols + j[2]})
		dc, dr := sign(j[2]-j[0]), sign(j[3]-j[1])
		kind := hline
		if dc == 0 {
			kind = vline
		}
		for c, r := j[0]+dc, j[1]+dr; c != j[2] || r != j[3]; c, r = c+dc, r+dr {
			if cl := s.at(c, r); cl.kind == blank && (dc == 0 || dr == 0) {
				cl.kind = kind
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// paintPoints draws a board of points: the ground, each line from point to
// point, and a dot on each point, ringed when the last move left or
// reached it.
func (p *painter) paintPoints(board image.Rectangle) {
	s := p.s
	p.rect(board.Inset(-2), s.palette.frame)
	p.rect(board, s.palette.board)
	w := max(2, float32(p.sq)/14)
	for _, l := range s.links {
		ax, ay := centre(p.cellRect(l[0]%s.cols, l[0]/s.cols))
		bx, by := centre(p.cellRect(l[1]%s.cols, l[1]/s.cols))
		// A band of width w along the line.
		nx, ny := float32(0), w/2
		if ay == by {
			ax, bx = min(ax, bx)-w/2, max(ax, bx)+w/2
		} else if ax == bx {
			nx, ny = w/2, 0
			ay, by = min(ay, by)-w/2, max(ay, by)+w/2
		} else {
			nx, ny = w/2*0.7071, w/2*0.7071
			if (bx-ax)*(by-ay) > 0 {
				nx = -nx
			}
		}
		p.polygon(s.palette.frame, ax-nx, ay-ny, bx-nx, by-ny, bx+nx, by+ny, ax+nx, ay+ny)
	}
	for i := range s.cells {
		cl := &s.cells[i]
		if cl.kind != square {
			continue
		}
		cx, cy := centre(p.cellRect(i%s.cols, i/s.cols))
		if cl.mark == fromMark || cl.mark == toMark {
			col := hex(colTo)
			if cl.mark == fromMark {
				col = hex(colFrom)
			}
			p.disc(col, cx, cy, float32(p.sq)*0.44)
		}
		p.disc(s.palette.frame, cx, cy, float32(p.sq)*0.14)
	}
}
