package described

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Boards that are graphs of named points (Nine Men's Morris):
//
//   - points: lists the squares of the grid that are on the board, each
//     written as in the notation ("d2"); the others are not there at all.
//   - lines: joins points, each entry a line of points written in order
//     ("a1 d1 g1"); two points next to each other in an entry are joined.
//     Each line runs straight along a row, a column or a diagonal, so a
//     joined point is a neighbour in one of the eight directions: a step
//     east from a1 goes to d1. With lines, points touch only along them.
//   - mills: lines of points that count as mills for moves with mill:
//     (mill.go); "mills: lines" makes every line a mill.

// pointRef is a point as written in a description: column and row from 1,
// with its node for errors.
type pointRef struct {
	col, row int
	node     *yaml.Node
}

// graph reads a board's points, lines and mills.
func (r *reader) graph(s *Spec, f map[string]field, names map[string]bool) {
	p, hasPoints := f["points"]
	if hasPoints {
		for _, n := range r.list(p.value, "points") {
			for _, pt := range r.pointList(s, n, "a point") {
				s.points = append(s.points, pt)
			}
		}
		if r.err == nil && len(s.points) == 0 {
			r.fail(p.value, "points must list the board's points, such as [a1, d1, g1]")
		}
	}
	if l, ok := f["lines"]; ok {
		if !hasPoints {
			r.fail(l.key, "lines join the board's points: list them first with points:")
			return
		}
		for _, n := range r.list(l.value, "lines") {
			line := r.pointList(s, n, "a line")
			if r.err == nil && len(line) < 2 {
				r.fail(n, "a line joins two or more points, written in order: \"a1 d1 g1\"")
			}
			for i := 1; r.err == nil && i < len(line); i++ {
				if straightDir(line[i-1], line[i]) < 0 {
					r.fail(n, "a line runs straight along a row, a column or a diagonal; %s to %s does not", pointText(line[i-1]), pointText(line[i]))
				}
			}
			s.lines = append(s.lines, line)
		}
	}
	if m, ok := f["mills"]; ok {
		if m.value.Kind == yaml.ScalarNode && m.value.Value == "lines" {
			if _, has := f["lines"]; !has {
				r.fail(m.value, "mills: lines makes every line a mill, and the board has no lines:")
			}
			s.mills = s.lines
			return
		}
		for _, n := range r.list(m.value, "mills") {
			mill := r.pointList(s, n, "a mill")
			if r.err == nil && (len(mill) < 2 || len(mill) > 8) {
				r.fail(n, "a mill is 2 to 8 points, such as \"a1 d1 g1\"")
			}
			s.mills = append(s.mills, mill)
		}
	}
	_ = names
}

// pointList reads points written in one value, separated by spaces or
// commas ("a1 d1 g1"), or as a list ([a1, d1, g1]); each must be a point
// of the board when points: lists them.
func (r *reader) pointList(s *Spec, n *yaml.Node, what string) []pointRef {
	var words []*yaml.Node
	if n != nil && n.Kind == yaml.SequenceNode {
		words = n.Content
	} else {
		words = []*yaml.Node{n}
	}
	var out []pointRef
	for _, w := range words {
		text := r.scalar(w, what)
		if r.err != nil {
			return nil
		}
		for _, name := range strings.Fields(strings.ReplaceAll(text, ",", " ")) {
			pt, ok := readPoint(name)
			if !ok {
				r.fail(w, "%s: %q is not a point; write a column letter and a row number, such as d2", what, name)
				return nil
			}
			pt.node = w
			if cols, rows, known := s.constSize(); known && (pt.col > cols || pt.row > rows) {
				r.fail(w, "%s: %s is off the board of %d columns and %d rows", what, name, cols, rows)
				return nil
			}
			if what != "a point" && len(s.points) > 0 && !hasPoint(s.points, pt) {
				r.fail(w, "%s: %s is not one of the board's points", what, name)
				return nil
			}
			if what == "a point" && hasPoint(s.points, pt) {
				r.fail(w, "point %s is listed twice", name)
				return nil
			}
			out = append(out, pt)
		}
	}
	return out
}

// readPoint reads "d2" as column 4, row 2.
func readPoint(name string) (pointRef, bool) {
	if len(name) < 2 || name[0] < 'a' || name[0] > 'z' {
		return pointRef{}, false
	}
	row, err := strconv.Atoi(name[1:])
	if err != nil || row < 1 || row > maxSide {
		return pointRef{}, false
	}
	return pointRef{col: int(name[0]-'a') + 1, row: row}, true
}

func pointText(p pointRef) string { return string(rune('a'+p.col-1)) + strconv.Itoa(p.row) }

func hasPoint(ps []pointRef, p pointRef) bool {
	for _, q := range ps {
		if q.col == p.col && q.row == p.row {
			return true
		}
	}
	return false
}

// straightDir returns the direction from a to b in the notation's
// numbering (row up is north when rows are numbered from the bottom), or
// -1 when they are not on one row, column or diagonal. The board's
// numbering is applied when compiled.
func straightDir(a, b pointRef) int {
	dx, dy := b.col-a.col, b.row-a.row
	if dx == 0 && dy == 0 || dx != 0 && dy != 0 && dx != dy && dx != -dy {
		return -1
	}
	return 0
}

// constSize returns the board's columns and rows when they do not depend
// on options.
func (s *Spec) constSize() (cols, rows int, ok bool) {
	if s.columns == nil || s.rows == nil {
		return 0, 0, false
	}
	c, err1 := s.columns.eval(map[string]int{})
	rw, err2 := s.rows.eval(map[string]int{})
	return c, rw, err1 == nil && err2 == nil
}

// buildGraph limits the board to its points and joins them along its
// lines, replacing the grid's neighbours.
func (c *compiled) buildGraph(s *Spec) error {
	if len(s.points) == 0 {
		return nil
	}
	sqOf := func(p pointRef) (int, error) {
		sq := c.square(p.col, p.row, s.rowsFromTop)
		if sq < 0 {
			return 0, fmt.Errorf("%d:%d: %s is off the board of %d columns and %d rows", p.node.Line, p.node.Column, pointText(p), c.w, c.h)
		}
		return sq, nil
	}
	c.mask = [maxWords]uint64{}
	for _, p := range s.points {
		sq, err := sqOf(p)
		if err != nil {
			return err
		}
		c.mask[sq/64] |= 1 << (sq % 64)
	}
	c.graph = true
	for sq := range c.n {
		c.adj[sq] = [maxWords]uint64{}
		for d := range 8 {
			c.nb[d][sq] = -1
		}
	}
	for _, line := range s.lines {
		for i := 1; i < len(line); i++ {
			a, err := sqOf(line[i-1])
			if err != nil {
				return err
			}
			b, err := sqOf(line[i])
			if err != nil {
				return err
			}
			d := dirBetween(c, a, b)
			c.nb[d][a], c.nb[(d+4)%8][b] = int16(b), int16(a)
			c.adj[a][b/64] |= 1 << (b % 64)
			c.adj[b][a/64] |= 1 << (a % 64)
		}
	}
	for d := range 8 {
		c.shiftMask[d] = 0 // no square-set shifts on a graph
	}
	return c.buildMills(s, sqOf)
}

// points returns the number of squares on the board.
func (c *compiled) points() int {
	n := 0
	for w := range c.words {
		n += bits.OnesCount64(c.mask[w])
	}
	return n
}

// Graph reports whether the board is points joined by lines (points:).
func (g *Game) Graph() bool { return g.c.graph }

// OnBoard reports whether the square at column col and row row (both from
// 0, row 0 at the top as drawn) is on the board: every square, or on a
// board of points one of its points.
func (g *Game) OnBoard(col, row int) bool {
	if col < 0 || col >= g.c.w || row < 0 || row >= g.c.h {
		return false
	}
	sq := row*g.c.w + col
	return g.c.mask[sq/64]>>(sq%64)&1 != 0
}

// Joins returns the lines between the points of a board of points, each
// as the columns and rows (from 0, row 0 at the top) of the two points it
// joins; nil on a board of squares.
func (g *Game) Joins() [][4]int {
	c := g.c
	if !c.graph {
		return nil
	}
	var out [][4]int
	for sq := range c.n {
		for _, d := range []dir{dirEast, dirSouthEast, dirSouth, dirSouthWest} {
			if t := int(c.nb[d][sq]); t >= 0 {
				out = append(out, [4]int{sq % c.w, sq / c.w, t % c.w, t / c.w})
			}
		}
	}
	return out
}
