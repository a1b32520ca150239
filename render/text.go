package render

import (
	"bytes"
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
func (b *Board) Text() string { return b.drawText(1024, writeText) }

// drawText writes the scene with write into a builder of size bytes; a game
// render has no drawing for gives the error's message.
func (b *Board) drawText(size int, write func(*strings.Builder, *scene, Options)) string {
	if b.err != nil {
		return b.err.Error() + "\n"
	}
	var sb strings.Builder
	sb.Grow(size)
	write(&sb, b.s, b.opt)
	return sb.String()
}

// ANSI colours of the text board's furniture.
const (
	ansiLine  = "90"   // lines, dots and rules: grey
	ansiTo    = "1;32" // the last move's destination: bold green
	ansiFrom  = "32"   // the square it left: green
	ansiHit   = "1;31" // a piece it removed: bold red
	ansiReset = "\x1b[0m"
)

// textWriter writes text with optional ANSI colour, switching colour only
// where it changes so that a coloured board stays short.
type textWriter struct {
	b      *strings.Builder
	colour bool
	line   []byte // the line being built, for trimming trailing spaces
	sgr    string // the colour in force on the line
}

// put adds text to the line, coloured with the SGR parameters sgr when
// colour is on ("" for none).
func (w *textWriter) put(text, sgr string) {
	if w.colour && sgr != w.sgr && strings.TrimSpace(text) != "" {
		if w.sgr != "" {
			w.line = append(w.line, ansiReset...)
		}
		if sgr != "" {
			w.line = append(w.line, "\x1b["+sgr+"m"...)
		}
		w.sgr = sgr
	}
	w.line = append(w.line, text...)
}

// end finishes the line without its trailing spaces.
func (w *textWriter) end() {
	w.b.Write(bytes.TrimRight(w.line, " "))
	if w.sgr != "" {
		w.b.WriteString(ansiReset)
		w.sgr = ""
	}
	w.b.WriteByte('\n')
	w.line = w.line[:0]
}

func writeText(b *strings.Builder, s *scene, opt Options) {
	w := &textWriter{b: b, colour: opt.Colour, line: make([]byte, 0, 128)}
	labelWidth := longest(s.rowLabels)
	margin := strings.Repeat(" ", labelWidth+1)
	width := s.textWidth

	columns := func() {
		line := []byte(strings.Repeat(" ", width*s.cols))
		for c, l := range s.colLabels {
			end := c*width + width - 1
			copy(line[max(0, end-len(l)):end], l)
		}
		w.put(margin, "")
		w.put(string(line), "")
		w.end()
	}

	columns()
	for r := 0; r < s.rows; r++ {
		w.put(margin[:labelWidth-len(s.rowLabels[r])], "")
		w.put(s.rowLabels[r], "")
		w.put(" ", "")
		for c := 0; c < s.cols; c++ {
			writeCell(w, s, s.at(c, r))
		}
		if s.rowNotes[r] != "" {
			w.put("  "+s.rowNotes[r], "")
		}
		w.end()
		if s.ruleBelow[r] {
			w.put(margin+" ", "")
			w.put(strings.Repeat("-", width*s.cols-2), ansiLine)
			w.end()
		}
	}
	columns()

	for p, side := range s.status.sides {
		for i, k := range side.pieces {
			if i > 0 {
				w.put(" ", "")
			}
			w.put(strings.TrimSpace(s.pieces[k].text), s.pieces[k].ansi)
		}
		w.put("  "+sideLine(s, p, opt.Players), "")
		w.end()
	}
	for _, line := range s.textKey {
		w.put(line, "")
		w.end()
	}
	if key := marksKey(s, "(.)", "[X]", "*X*"); key != "" {
		w.put(key, "")
		w.end()
	}
	if last := lastLine(s); last != "" {
		w.put(last, "")
		w.end()
	}
	w.put(s.title+": "+stateLine(s, opt.Players), "")
	w.end()
}

// writeCell writes one cell: its glyph with the room around it, which holds
// the last move's marks.
func writeCell(w *textWriter, s *scene, c *cell) {
	glyphWidth := s.textWidth - 2
	fill := " " // around the glyph and before a short one
	if c.kind == point || c.kind == hedge {
		fill = "-"
	}
	glyph, sgr := s.palette.emptyText[c.kind], ansiLine
	if c.piece != 0 {
		glyph, sgr = s.pieces[c.piece].text, s.pieces[c.piece].ansi
	}
	if pad := glyphWidth - len(glyph); pad > 0 {
		glyph = strings.Repeat(fill, pad) + glyph
	}
	left, right, markSGR := fill, fill, ansiLine
	switch c.mark {
	case fromMark:
		left, right, markSGR = "(", ")", ansiFrom
	case toMark:
		left, right, markSGR = "[", "]", ansiTo
	case hitMark:
		left, right, markSGR = "*", "*", ansiHit
	}
	if !w.colour { // the common case, without put's colour bookkeeping
		w.line = append(append(append(w.line, left...), glyph...), right...)
		return
	}
	w.put(left, markSGR)
	w.put(glyph, sgr)
	w.put(right, markSGR)
}
