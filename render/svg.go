package render

import (
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"strconv"

	"arbiter/rules"
)

// SVG draws g as an SVG image for a page that is played by clicking. The
// drawing is the PNG's, made by the same code from the same scene (same
// layout, colours, marks and caption). Over every cell a piece can stand
// on lies a transparent, focusable target: a <rect class="cell"> with
// data-i, the cell's index in display order (top row first, left column
// first: the index BoardMove uses), and aria-label, the cell in words
// ("column 4, row 10: White runner"), so that the board can be played by
// pointer, keyboard and screen reader.
func SVG(g rules.Game, opt Options) ([]byte, error) {
	s, err := sceneOf(g, opt)
	if err != nil {
		return nil, err
	}
	fonts, err := loadFonts()
	if err != nil {
		return nil, err
	}
	var w svgWriter
	p := newPainter(s, opt, newFaces(fonts))
	p.svg = &w
	p.alloc(0, 0, nil)
	fmt.Fprintf(&w.buf, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="Go,DejaVu Sans,Arial,sans-serif">`,
		p.width, p.height, p.width, p.height)
	p.paint()
	w.buf.WriteString(`<g class="cells">`)
	clip := ""
	if s.layout == hexes {
		// Each cell's target is its hexagon: the box around it, clipped
		// (which clips where a pointer finds it too).
		w.buf.WriteString(`<defs><clipPath id="hexcell" clipPathUnits="objectBoundingBox"><polygon points="0.5,0 1,0.25 1,0.75 0.5,1 0,0.75 0,0.25"/></clipPath></defs>`)
		clip = ` clip-path="url(#hexcell)"`
	}
	for r := 0; r < s.rows; r++ {
		for c := 0; c < s.cols; c++ {
			cl := s.at(c, r)
			line := s.openLattice && (cl.kind == hedge || cl.kind == vedge)
			if cl.kind != square && cl.kind != point && !line || cl.void {
				continue
			}
			rect := p.cellRect(c, r)
			switch {
			case s.layout == hexes:
				rect = p.hexBox(c, r)
			case line: // a thin border: widened across to be easy to click,
				// and shortened as much at its ends, clear of the dots
				// and of the lines that meet there
				w := p.sq / 5
				if cl.kind == hedge {
					rect.Min.Y, rect.Max.Y = rect.Min.Y-w, rect.Max.Y+w
					rect.Min.X, rect.Max.X = rect.Min.X+w, rect.Max.X-w
				} else {
					rect.Min.X, rect.Max.X = rect.Min.X-w, rect.Max.X+w
					rect.Min.Y, rect.Max.Y = rect.Min.Y+w, rect.Max.Y-w
				}
			}
			if cl.kind == point {
				cx, cy := centre(rect)
				h := int(float32(p.sq) * 0.34)
				rect = image.Rect(int(cx)-h, int(cy)-h, int(cx)+h, int(cy)+h)
			}
			fmt.Fprintf(&w.buf, `<rect class="cell" data-i="%d" x="%d" y="%d" width="%d" height="%d" fill="transparent" role="button" tabindex="-1" aria-label="%s"%s/>`,
				r*s.cols+c, rect.Min.X, rect.Min.Y, rect.Dx(), rect.Dy(), html.EscapeString(cellWords(s, c, r)), clip)
		}
	}
	w.buf.WriteString(`</g></svg>`)
	return w.buf.Bytes(), nil
}

// cellWords names display cell c, r and what stands on it: "column d,
// row 2: empty"; on a board of pits the pit and its seeds ("South house
// 3: 4 seeds"); on an open lattice (Dots and Boxes) a line by its two
// dots, lower-left first ("line a1 b1: not drawn"), and a box by its
// corners.
func cellWords(s *scene, c, r int) string {
	cl := s.at(c, r)
	if s.pits && cl.piece != 0 {
		return s.pieces[cl.piece].name
	}
	what := "empty"
	if cl.piece != 0 {
		what = s.pieces[cl.piece].name
	}
	if s.openLattice {
		switch {
		case cl.kind == hedge && c > 0 && c+1 < s.cols:
			return fmt.Sprintf("line %s%s %s%s: %s", s.colLabels[c-1], s.rowLabels[r], s.colLabels[c+1], s.rowLabels[r], drawn(cl))
		case cl.kind == vedge && r > 0 && r+1 < s.rows:
			return fmt.Sprintf("line %s%s %s%s: %s", s.colLabels[c], s.rowLabels[r+1], s.colLabels[c], s.rowLabels[r-1], drawn(cl))
		case cl.kind == square && c > 0 && c+1 < s.cols && r > 0 && r+1 < s.rows:
			return fmt.Sprintf("box %s%s to %s%s: %s", s.colLabels[c-1], s.rowLabels[r+1], s.colLabels[c+1], s.rowLabels[r-1], what)
		}
	}
	return "column " + s.colLabels[c] + ", row " + s.rowLabels[r] + ": " + what
}

// drawn says whether a line of an open lattice is drawn.
func drawn(cl *cell) string {
	if cl.piece != 0 {
		return "drawn"
	}
	return "not drawn"
}

// BoardMove is a legal move as the cells it joins on a board drawn with
// the same options: From and To are indexes of cells in display order
// (as SVG's data-i), -1 when the move has none (a pass).
type BoardMove struct {
	Text string `json:"text"` // the move in the game's notation
	From int    `json:"from"`
	To   int    `json:"to"`
}

// BoardMoves lists the legal moves of the player to move in g as the
// cells they join, seen as opt says: each move is played on a copy of g
// and the cells are those the board would mark as its move, so they
// are right for every game the renderer draws. g is not changed.
func BoardMoves(g rules.Game, opt Options) ([]BoardMove, error) {
	var list rules.MoveList
	g.Moves(&list)
	moves := make([]BoardMove, 0, list.N)
	for _, m := range list.Slice() {
		next := g.Clone()
		next.Play(m)
		s, err := sceneOf(next, Options{View: opt.View})
		if err != nil {
			return nil, err
		}
		moves = append(moves, BoardMove{Text: g.FormatMove(m), From: s.moved[0], To: s.moved[1]})
	}
	return moves, nil
}

// svgWriter receives a painter's drawing as SVG elements.
type svgWriter struct {
	buf bytes.Buffer
}

func (w *svgWriter) rect(r image.Rectangle, col color.RGBA) {
	fmt.Fprintf(&w.buf, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, r.Min.X, r.Min.Y, r.Dx(), r.Dy(), svgColour(col))
}

func (w *svgWriter) disc(col color.RGBA, cx, cy, r float32) {
	fmt.Fprintf(&w.buf, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, num(cx), num(cy), num(r), svgColour(col))
}

func (w *svgWriter) polygon(col color.RGBA, pts []float32) {
	w.buf.WriteString(`<polygon points="`)
	for i, v := range pts {
		if i > 0 {
			w.buf.WriteByte(' ')
		}
		w.buf.WriteString(num(v))
	}
	fmt.Fprintf(&w.buf, `" fill="%s"/>`, svgColour(col))
}

// text writes s at x, y (its middle at x when centred) as wide as the
// image's font draws it: the viewer's font, whichever it has, is fitted
// to that width, so that no line runs past the drawing's edge.
func (w *svgWriter) text(size float64, bold bool, s string, x, y, width float32, col color.RGBA, centred bool) {
	fmt.Fprintf(&w.buf, `<text x="%s" y="%s" font-size="%s" fill="%s" textLength="%s" lengthAdjust="spacingAndGlyphs"`,
		num(x), num(y), strconv.FormatFloat(size, 'f', -1, 64), svgColour(col), num(width))
	if bold {
		w.buf.WriteString(` font-weight="bold"`)
	}
	if centred {
		w.buf.WriteString(` text-anchor="middle"`)
	}
	fmt.Fprintf(&w.buf, `>%s</text>`, html.EscapeString(s))
}

// svgColour writes an opaque colour as #rrggbb.
func svgColour(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// num writes a coordinate as briefly as it reads back.
func num(v float32) string { return strconv.FormatFloat(float64(v), 'f', -1, 32) }
