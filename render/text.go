package render

import (
	"strings"

	"arbiter/rules"
)

// Text draws g as a monospace board in plain ASCII, for a Discord code block
// (see CodeBlock) or a terminal: the column labels above and below, the row
// labels on the left, then a line for each player (their pieces, name and
// figures), the last move and whose turn it is, or the result.
//
// Each cell is a glyph with a character of room on both sides, where the
// last move is marked: (.) the square it left, [X] where it went, *.* a
// piece it removed or hurt; a key line under the board says so, and for
// Hi-Ya! what each letter is. With opt.Colour the pieces, marks and lines are
// coloured with ANSI escapes.
//
// A game render has no drawing for yields a one-line message saying so.
func Text(g rules.Game, opt Options) string { return NewBoard(g, opt).Text() }

// Text is the package's Text of the board's game.
func (b *Board) Text() string { return string(b.AppendText(make([]byte, 0, 1024))) }

// AppendText appends the board's Text to dst and returns the extended
// buffer, so that a caller building a message around the board (a code
// block with a header) writes it once into its own buffer.
func (b *Board) AppendText(dst []byte) []byte {
	if b.err != nil {
		return append(append(dst, b.err.Error()...), '\n')
	}
	w := textWriter{buf: dst, start: len(dst), colour: b.opt.Colour}
	writeText(&w, b.s, b.opt)
	return w.buf
}

// ANSI colours of the text board's furniture.
const (
	ansiLine  = "90"   // lines, dots and rules: grey
	ansiTo    = "1;32" // the last move's destination: bold green
	ansiFrom  = "32"   // the square it left: green
	ansiHit   = "1;31" // a piece it removed: bold red
	ansiReset = "\x1b[0m"
)

// textWriter appends text with optional ANSI colour to a buffer, switching
// colour only where it changes so that a coloured board stays short.
type textWriter struct {
	buf    []byte
	start  int // where the line being written begins in buf
	colour bool
	sgr    string // the colour in force on the line
}

// put adds text to the line, coloured with the SGR parameters sgr when
// colour is on ("" for none).
func (w *textWriter) put(text, sgr string) {
	w.setColour(sgr, strings.TrimSpace(text) != "")
	w.buf = append(w.buf, text...)
}

// puts is put of the parts written one after another, as one text.
func (w *textWriter) puts(sgr string, parts ...string) {
	shown := false
	for _, p := range parts {
		shown = shown || strings.TrimSpace(p) != ""
	}
	w.setColour(sgr, shown)
	for _, p := range parts {
		w.buf = append(w.buf, p...)
	}
}

// repeat is put of n copies of the character ch.
func (w *textWriter) repeat(ch byte, n int, sgr string) {
	if n <= 0 {
		return
	}
	w.setColour(sgr, ch != ' ')
	for range n {
		w.buf = append(w.buf, ch)
	}
}

// setColour switches the colour to sgr before text that shows (not only
// spaces), when colour is on.
func (w *textWriter) setColour(sgr string, shown bool) {
	if w.colour && sgr != w.sgr && shown {
		if w.sgr != "" {
			w.buf = append(w.buf, ansiReset...)
		}
		if sgr != "" {
			w.buf = append(append(append(w.buf, "\x1b["...), sgr...), 'm')
		}
		w.sgr = sgr
	}
}

// end finishes the line without its trailing spaces.
func (w *textWriter) end() {
	n := len(w.buf)
	for n > w.start && w.buf[n-1] == ' ' {
		n--
	}
	w.buf = w.buf[:n]
	if w.sgr != "" {
		w.buf = append(w.buf, ansiReset...)
		w.sgr = ""
	}
	w.buf = append(w.buf, '\n')
	w.start = len(w.buf)
}

func writeText(w *textWriter, s *scene, opt Options) {
	labelWidth := longest(s.rowLabels)
	width := s.textWidth

	columns := func(indent int, labels []string) {
		w.repeat(' ', indent+labelWidth+1, "")
		line := len(w.buf)
		w.repeat(' ', width*s.cols, "")
		for c, l := range labels {
			end := line + c*width + width - 1
			copy(w.buf[max(line, end-len(l)):end], l)
		}
		w.end()
	}

	indent := func(r int) int { // a board of hexagons shifts each row
		if s.layout == hexes {
			return hexTextIndent(s, r)
		}
		return 0
	}
	columns(indent(0), s.labelsAbove())
	for r := 0; r < s.rows; r++ {
		w.repeat(' ', indent(r)+labelWidth-len(s.rowLabels[r]), "")
		w.buf = append(append(w.buf, s.rowLabels[r]...), ' ') // at a line's start: no colour
		if w.colour {
			for c := 0; c < s.cols; c++ {
				writeColourCell(w, s, s.at(c, r))
			}
		} else {
			buf := w.buf // appended to here, where no write barrier slows it
			row := s.cells[r*s.cols : (r+1)*s.cols]
			for c := range row {
				buf = appendCell(buf, s, &row[c])
			}
			w.buf = buf
		}
		if s.rowNotes[r] != "" {
			w.puts("", "  ", s.rowNotes[r])
		}
		w.end()
		if s.ruleBelow[r] {
			w.repeat(' ', labelWidth+2, "")
			w.repeat('-', width*s.cols-2, ansiLine)
			w.end()
		}
	}
	columns(indent(s.rows-1), s.colLabels)

	for p, side := range s.status.sides {
		for i, k := range side.pieces {
			if i > 0 {
				w.put(" ", "")
			}
			w.put(strings.TrimSpace(s.pieces[k].text), s.pieces[k].ansi)
		}
		w.setColour("", true) // the side's line after its pieces is plain
		w.buf = appendSideLine(append(w.buf, "  "...), s, p, opt.Players)
		w.end()
	}
	for _, line := range s.textKey {
		w.put(line, "")
		w.end()
	}
	marks := len(w.buf)
	if w.buf = appendMarksKey(w.buf, s, "(.)", "["+markedGlyph(s, toMark)+"]", "*"+markedGlyph(s, hitMark)+"*"); len(w.buf) > marks {
		w.end()
	}
	if s.status.last != "" {
		w.puts("", "Last: ", s.status.last)
		w.end()
	}
	w.puts("", s.title, ": ")
	w.buf = appendStateLine(w.buf, s, opt.Players)
	w.end()
}

// markedGlyph is the text glyph in the first cell with mark m, as the
// board shows it there, so that the key names the marks as they look.
func markedGlyph(s *scene, m mark) string {
	if s.marks[m] == 0 {
		return ""
	}
	for i := range s.cells {
		if c := &s.cells[i]; c.mark == m {
			glyph := s.palette.emptyText[c.kind]
			if c.piece != 0 {
				glyph = s.pieces[c.piece].text
			}
			return strings.TrimSpace(glyph)
		}
	}
	return ""
}

// writeColourCell writes one cell with colour: its glyph with the room
// around it, which holds the last move's marks.
func writeColourCell(w *textWriter, s *scene, c *cell) {
	left, glyph, right, sgr, markSGR := cellText(s, c)
	w.put(left, markSGR)
	w.put(glyph, sgr)
	w.put(right, markSGR)
}

// appendCell appends cell c as writeColourCell writes it, without colour:
// the common case, free of put's colour bookkeeping.
func appendCell(dst []byte, s *scene, c *cell) []byte {
	glyph := s.palette.emptyText[c.kind]
	if c.piece != 0 {
		glyph = s.pieces[c.piece].text
	}
	if c.mark == noMark && len(glyph) == 1 && s.textWidth == 3 {
		// Most cells: unmarked, one character between its fill.
		fill := byte(' ')
		if (c.kind == point || c.kind == hedge) && (!s.openLattice || c.kind == hedge && c.piece != 0) || c.kind == hline {
			fill = '-'
		}
		return append(dst, fill, glyph[0], fill)
	}
	left, glyph, right, _, _ := cellText(s, c)
	return append(append(append(dst, left...), glyph...), right...)
}

// cellText returns what a cell shows: its glyph (padded to the scene's
// glyph width), the marks left and right of it, and their colours.
func cellText(s *scene, c *cell) (left, glyph, right, sgr, markSGR string) {
	glyphWidth := s.textWidth - 2
	fill := " " // around the glyph and before a short one
	if (c.kind == point || c.kind == hedge) && (!s.openLattice || c.kind == hedge && c.piece != 0) || c.kind == hline {
		fill = "-"
	}
	glyph, sgr = s.palette.emptyText[c.kind], ansiLine
	if c.piece != 0 {
		glyph, sgr = s.pieces[c.piece].text, s.pieces[c.piece].ansi
	}
	if pad := glyphWidth - len(glyph); pad > 0 {
		glyph = strings.Repeat(fill, pad) + glyph
	}
	left, right, markSGR = fill, fill, ansiLine
	switch c.mark {
	case fromMark:
		left, right, markSGR = "(", ")", ansiFrom
	case toMark:
		left, right, markSGR = "[", "]", ansiTo
	case hitMark:
		left, right, markSGR = "*", "*", ansiHit
	}
	return left, glyph, right, sgr, markSGR
}
