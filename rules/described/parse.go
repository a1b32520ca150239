package described

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Error is what is wrong with a description, and where: the file, the line
// and the column (both from 1) of the value at fault.
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
}

// Error returns "file:line:column: what is wrong".
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "game"
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, e.Line, e.Column, e.Msg)
}

// maxFileSize bounds a description, so that a mistaken file cannot make
// Parse read without end.
const maxFileSize = 1 << 20

// reader walks a parsed YAML document. It keeps the first error.
type reader struct {
	file string
	err  *Error
}

// fail records an error at n's position (the first one wins) and returns it.
func (r *reader) fail(n *yaml.Node, format string, args ...any) {
	if r.err != nil {
		return
	}
	line, col := 1, 1
	if n != nil {
		line, col = n.Line, n.Column
	}
	r.err = &Error{File: r.file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// field is one key of a mapping, with the key's node for positions.
type field struct {
	key   *yaml.Node
	value *yaml.Node
}

// fields reads a mapping, refusing keys outside allowed and keys given
// twice; it returns the fields by key.
func (r *reader) fields(n *yaml.Node, what string, allowed ...string) map[string]field {
	out := map[string]field{}
	if n == nil {
		return out
	}
	if n.Kind != yaml.MappingNode {
		r.fail(n, "%s must be a mapping of keys to values (key: value)", what)
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(allowed, k.Value) {
			r.fail(k, "%s has no key %q; its keys are %s", what, k.Value, strings.Join(allowed, ", "))
			continue
		}
		if _, dup := out[k.Value]; dup {
			r.fail(k, "%s: key %q is given twice", what, k.Value)
			continue
		}
		out[k.Value] = field{key: k, value: v}
	}
	return out
}

// require reports a missing key at the mapping's position.
func (r *reader) require(n *yaml.Node, f map[string]field, what string, keys ...string) {
	for _, k := range keys {
		if _, ok := f[k]; !ok {
			r.fail(n, "%s needs the key %q", what, k)
		}
	}
}

// scalar returns n's text, refusing a list or a mapping.
func (r *reader) scalar(n *yaml.Node, what string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		r.fail(n, "%s must be a single value, not a list or a mapping", what)
		return ""
	}
	return n.Value
}

// word returns n's text from the allowed words.
func (r *reader) word(n *yaml.Node, what string, allowed ...string) string {
	s := r.scalar(n, what)
	if r.err != nil {
		return ""
	}
	if !slices.Contains(allowed, s) {
		r.fail(n, "%s %q: write one of %s", what, s, strings.Join(allowed, ", "))
		return ""
	}
	return s
}

// list returns n's items; a single value is a list of one.
func (r *reader) list(n *yaml.Node, what string) []*yaml.Node {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.SequenceNode:
		return n.Content
	case n.Kind == yaml.ScalarNode:
		return []*yaml.Node{n}
	}
	r.fail(n, "%s must be a list or a single value", what)
	return nil
}

// number reads a whole-number expression.
func (r *reader) number(n *yaml.Node, what string) *expr {
	s := r.scalar(n, what)
	if r.err != nil {
		return nil
	}
	e, off, err := parseExpr(s)
	if err != nil {
		col := n.Column + off
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			col++
		}
		r.err = &Error{File: r.file, Line: n.Line, Column: col, Msg: fmt.Sprintf("%s: %v", what, err)}
		return nil
	}
	return e
}

// boolean reads true or false.
func (r *reader) boolean(n *yaml.Node, what string) bool {
	switch r.scalar(n, what) {
	case "true", "yes", "on":
		return true
	case "false", "no", "off", "":
		return false
	}
	r.fail(n, "%s must be true or false", what)
	return false
}

// The names of a description's parts.
var (
	nameRE  = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	ident   = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,31}$`)
	yamlErr = regexp.MustCompile(`line (\d+)`)
)

// Parse reads a game description; file names it in errors. The error is
// an *Error with the line and column of the fault.
func Parse(file string, data []byte) (*Spec, error) {
	if len(data) > maxFileSize {
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("the file has %d bytes; a description has at most %d", len(data), maxFileSize)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(file, data, err)
	}
	r := &reader{file: file}
	if len(doc.Content) == 0 {
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: "the file is empty: a description starts with name:, players:, board: ..."}
	}
	s := r.spec(doc.Content[0])
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}

// syntaxError turns a YAML syntax error into an *Error: a key indented
// unlike the keys around it, at that key, in the author's words; else
// YAML's own message at its line, column at the line's first character
// (YAML's errors give no column).
func syntaxError(file string, data []byte, err error) *Error {
	if line, col, msg, ok := indentFault(data); ok {
		return &Error{File: file, Line: line, Column: col, Msg: msg}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlErr.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.Replace(msg, m[0]+":", "", 1))
		// The YAML reader counts these errors' lines from 0.
		if strings.HasPrefix(msg, "did not find expected") || strings.HasPrefix(msg, "found a tab character") {
			line++
		}
	}
	col := 1
	lines := strings.Split(string(data), "\n")
	if line >= 1 && line <= len(lines) {
		col = len(lines[line-1]) - len(strings.TrimLeft(lines[line-1], " \t")) + 1
	}
	return &Error{File: file, Line: line, Column: col, Msg: "not valid YAML: " + msg}
}

// spec reads the whole description.
func (r *reader) spec(root *yaml.Node) *Spec {
	f := r.fields(root, "the description", "name", "title", "players", "rules", "movetime", "options",
		"let", "board", "pieces", "start", "moves", "end", "score", "evaluation")
	r.require(root, f, "the description", "name", "players", "rules", "board", "pieces", "start", "moves")
	if r.err != nil {
		return nil
	}
	s := &Spec{File: r.file, MoveTime: 5 * time.Second}
	s.Name = r.scalar(f["name"].value, "name")
	if r.err == nil && !nameRE.MatchString(s.Name) {
		r.fail(f["name"].value, "name %q: a game's name is lower-case letters, digits and dashes, starting with a letter (at most 32)", s.Name)
	}
	s.Title = s.Name
	if t, ok := f["title"]; ok {
		s.Title = strings.TrimSpace(r.scalar(t.value, "title"))
		if r.err == nil && len(s.Title) > 64 {
			r.fail(t.value, "title has %d bytes; a title has at most 64", len(s.Title))
		}
	}
	s.Rules = strings.TrimSpace(r.scalar(f["rules"].value, "rules"))
	if r.err == nil && s.Rules == "" {
		r.fail(f["rules"].value, "rules is empty: write the rules for players in a few lines")
	}
	if t, ok := f["movetime"]; ok {
		d, err := time.ParseDuration(r.scalar(t.value, "movetime"))
		if r.err == nil && (err != nil || d <= 0 || d > time.Hour) {
			r.fail(t.value, "movetime %q: write a duration such as 5s or 500ms, at most 1h", t.value.Value)
		}
		s.MoveTime = d
	}
	names := map[string]bool{}
	r.options(s, f["options"].value, names)
	r.lets(s, f["let"].value, names)
	r.players(s, f["players"].value)
	r.board(s, f["board"].value, names)
	r.pieces(s, f["pieces"].value)
	if s.shape != shapeGrid {
		r.shapedStart(s, f["start"].value, names)
		r.shapedMoves(s, f["moves"].value)
		r.shapedEnds(s, f["end"].value)
	} else {
		r.start(s, f["start"].value, names)
		r.moves(s, f["moves"].value, names)
		r.ends(s, f["end"].value, names)
	}
	if sc, ok := f["score"]; ok {
		what := "score"
		if s.shape != shapeGrid {
			what = "score on a " + shapeNames[s.shape] + " board"
		}
		r.word(sc.value, what, s.scoreWords()...)
		s.scoreByPieces = s.shape == shapeGrid
	}
	r.evaluation(s, f["evaluation"].value)
	if r.err != nil {
		return nil
	}
	if s.shape != shapeGrid {
		r.shapedCheck(s, f["score"].value, f["pieces"].value)
		if r.err != nil {
			return nil
		}
		return s
	}
	r.checkEnds(s)
	r.checkMills(s)
	if r.err != nil {
		return nil
	}
	return s
}

// options reads the options: key, default, min and max, or values.
func (r *reader) options(s *Spec, n *yaml.Node, names map[string]bool) {
	for _, item := range r.list(n, "options") {
		f := r.fields(item, "an option", "key", "default", "min", "max", "values", "help")
		r.require(item, f, "an option", "key", "default")
		if r.err != nil {
			return
		}
		o := optionDef{Key: r.scalar(f["key"].value, "key"), Help: r.scalar(f["help"].value, "help")}
		if !ident.MatchString(o.Key) {
			r.fail(f["key"].value, "option key %q: write lower-case letters, digits and _", o.Key)
			return
		}
		if names[o.Key] {
			r.fail(f["key"].value, "option %s is defined twice", o.Key)
			return
		}
		names[o.Key] = true
		if v, ok := f["values"]; ok && r.switchOption(&o, f["default"].value, v.value) {
			s.options = append(s.options, o)
			continue
		}
		o.Default = r.integer(f["default"].value, "default")
		if v, ok := f["values"]; ok {
			for _, x := range r.list(v.value, "values") {
				o.Values = append(o.Values, r.integer(x, "a value"))
			}
			if r.err == nil && !slices.Contains(o.Values, o.Default) {
				r.fail(f["default"].value, "default %d is not one of the values", o.Default)
			}
		} else {
			r.require(item, f, "an option without values", "min", "max")
			if r.err != nil {
				return
			}
			o.Min, o.Max = r.integer(f["min"].value, "min"), r.integer(f["max"].value, "max")
			if r.err == nil && (o.Min > o.Max || o.Default < o.Min || o.Default > o.Max) {
				r.fail(item, "option %s: want min <= default <= max, got %d, %d, %d", o.Key, o.Min, o.Default, o.Max)
			}
		}
		s.options = append(s.options, o)
	}
}

// integer reads a plain whole number.
func (r *reader) integer(n *yaml.Node, what string) int {
	s := r.scalar(n, what)
	if r.err != nil {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < -1<<20 || v > 1<<20 {
		r.fail(n, "%s %q must be a whole number", what, s)
	}
	return v
}

// lets reads named expressions, each over the options and earlier lets.
func (r *reader) lets(s *Spec, n *yaml.Node, names map[string]bool) {
	if n == nil {
		return
	}
	if n.Kind != yaml.MappingNode {
		r.fail(n, "let must be a mapping of names to expressions (m: size / 2)")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !ident.MatchString(k.Value) {
			r.fail(k, "let name %q: write lower-case letters, digits and _", k.Value)
			return
		}
		if names[k.Value] {
			r.fail(k, "%s is defined twice", k.Value)
			return
		}
		e := r.known(v, "let "+k.Value, names)
		names[k.Value] = true
		s.lets = append(s.lets, letDef{name: k.Value, e: e})
	}
}

// known reads an expression whose names must all be defined already.
func (r *reader) known(n *yaml.Node, what string, names map[string]bool) *expr {
	e := r.number(n, what)
	e.names(func(name string) {
		if !names[name] {
			known := make([]string, 0, len(names))
			for k := range names {
				known = append(known, k)
			}
			slices.Sort(known)
			list := "none are defined"
			if len(known) > 0 {
				list = "the names are " + strings.Join(known, ", ")
			}
			r.fail(n, "%s: %s is not an option or a let (%s)", what, name, list)
		}
	})
	return e
}

// players reads the two players: name, forward direction, looks.
func (r *reader) players(s *Spec, n *yaml.Node) {
	items := r.list(n, "players")
	if r.err != nil {
		return
	}
	if len(items) != 2 {
		r.fail(n, "players must list two players, the one who moves first first")
		return
	}
	for i, item := range items {
		f := r.fields(item, "a player", "name", "forward", "colour", "emoji")
		r.require(item, f, "a player", "name")
		p := playerDef{Name: r.scalar(f["name"].value, "name"), forward: dirNorth}
		if i == 1 {
			p.forward = dirSouth
		}
		if r.err == nil && (p.Name == "" || len(p.Name) > 32) {
			r.fail(f["name"].value, "a player's name has 1 to 32 characters")
		}
		if fw, ok := f["forward"]; ok {
			p.forward = dir(slices.Index(absNames[:], r.word(fw.value, "forward", absNames[:]...)))
		}
		if c, ok := f["colour"]; ok {
			p.Colour = r.scalar(c.value, "colour")
			if _, err := parseColour(p.Colour); r.err == nil && err != nil {
				r.fail(c.value, "colour %q: write #rrggbb", p.Colour)
			}
		}
		if e, ok := f["emoji"]; ok {
			p.Emoji = r.scalar(e.value, "emoji")
		}
		s.players[i] = p
	}
	if r.err == nil && s.players[0].Name == s.players[1].Name {
		r.fail(n, "the players need different names")
	}
}

// parseColour reads "#rrggbb".
func parseColour(s string) ([3]uint8, error) {
	var c [3]uint8
	if len(s) != 7 || s[0] != '#' {
		return c, errors.New("not #rrggbb")
	}
	for i := range 3 {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, err
		}
		c[i] = uint8(v)
	}
	return c, nil
}

// board reads the board's size and notation.
func (r *reader) board(s *Spec, n *yaml.Node, names map[string]bool) {
	f := r.fields(n, "board", "shape", "columns", "rows", "houses", "rows-numbered", "cells", "colour", "emoji", "points", "lines", "mills")
	if sh, ok := f["shape"]; ok {
		w := r.word(sh.value, "shape", shapeNames[:]...)
		for i, name := range shapeNames {
			if name == w {
				s.shape = boardShape(i)
			}
		}
	}
	if r.err == nil && s.shape != shapeGrid {
		r.shapedBoard(s, n, f, names)
	} else if x, has := f["houses"]; has {
		r.fail(x.key, "houses belongs to a pits board: add shape: pits")
	}
	if s.shape == shapeGrid {
		r.require(n, f, "board", "columns", "rows")
	}
	if r.err != nil {
		return
	}
	if s.shape == shapeGrid {
		s.columns = r.known(f["columns"].value, "columns", names)
		s.rows = r.known(f["rows"].value, "rows", names)
	}
	if rn, ok := f["rows-numbered"]; ok {
		s.rowsFromTop = r.word(rn.value, "rows-numbered", "from-bottom", "from-top") == "from-top"
	}
	if c, ok := f["cells"]; ok {
		s.hexagons = r.word(c.value, "cells", "squares", "hexagons") == "hexagons"
	}
	if c, ok := f["colour"]; ok {
		colours := r.list(c.value, "colour")
		_, graph := f["points"]
		switch {
		case len(colours) > 2:
			r.fail(c.value, "colour: write one colour, or two for a checkered board")
		case len(colours) == 2 && (s.shape != shapeGrid || s.hexagons || graph):
			r.fail(c.value, "colour: two colours checker a board of squares; this board takes one")
		}
		for i, n := range colours {
			v := r.scalar(n, "colour")
			if _, err := parseColour(v); r.err == nil && err != nil {
				r.fail(n, "colour %q: write #rrggbb", v)
			}
			if i == 0 {
				s.boardColour = v
			} else {
				s.boardDark = v
			}
		}
	}
	if e, ok := f["emoji"]; ok {
		s.boardEmoji = r.scalar(e.value, "emoji")
	}
	r.graph(s, f, names)
}

// pieces reads the kinds of piece.
func (r *reader) pieces(s *Spec, n *yaml.Node) {
	items := r.list(n, "pieces")
	if r.err == nil && (len(items) == 0 || len(items) > maxKinds) {
		r.fail(n, "pieces must list 1 to %d kinds of piece", maxKinds)
		return
	}
	for _, item := range items {
		f := r.fields(item, "a piece", "name", "text", "letter")
		r.require(item, f, "a piece", "name")
		if r.err != nil {
			return
		}
		p := pieceDef{Name: r.scalar(f["name"].value, "name"), Text: [2]string{"X", "O"}}
		if !ident.MatchString(p.Name) {
			r.fail(f["name"].value, "piece name %q: write lower-case letters, digits and _", p.Name)
			return
		}
		if slices.ContainsFunc(s.pieces, func(q pieceDef) bool { return q.Name == p.Name }) {
			r.fail(f["name"].value, "piece %s is defined twice", p.Name)
			return
		}
		if t, ok := f["text"]; ok {
			items := r.list(t.value, "text")
			if r.err == nil && len(items) != 2 {
				r.fail(t.value, "text must give two characters, player 1's and player 2's (e.g. [W, B])")
				return
			}
			for i, it := range items {
				p.Text[i] = r.scalar(it, "text")
				if r.err == nil && len(p.Text[i]) != 1 {
					r.fail(it, "a piece's text is one ASCII character, not %q", p.Text[i])
				}
			}
		}
		if l, ok := f["letter"]; ok {
			p.Letter = r.scalar(l.value, "letter")
		}
		s.pieces = append(s.pieces, p)
	}
}

// piece reads a piece name; "" with one kind of piece means that one.
func (r *reader) piece(s *Spec, n *yaml.Node) int {
	if n == nil {
		if len(s.pieces) == 1 {
			return 0
		}
		return -1
	}
	name := r.scalar(n, "piece")
	for i, p := range s.pieces {
		if p.Name == name {
			return i
		}
	}
	if r.err == nil {
		r.fail(n, "there is no piece %q in pieces", name)
	}
	return -1
}

// player reads 1 or 2.
func (r *reader) player(n *yaml.Node) int {
	switch r.scalar(n, "player") {
	case "1":
		return 0
	case "2":
		return 1
	}
	r.fail(n, "player must be 1 or 2")
	return 0
}

// start reads the start position's entries.
func (r *reader) start(s *Spec, n *yaml.Node, names map[string]bool) {
	for _, item := range r.list(n, "start") {
		f := r.fields(item, "a start entry", "player", "piece", "rows", "at", "checkered")
		if r.err != nil {
			return
		}
		st := startDef{piece: r.piece(s, f["piece"].value)}
		if st.piece < 0 && r.err == nil {
			r.fail(item, "a start entry with more than one kind of piece needs piece:")
			return
		}
		if c, ok := f["checkered"]; ok {
			st.checkered = r.boolean(c.value, "checkered")
			if !st.checkered {
				r.fail(c.value, "checkered: write true or leave it out")
			}
			if _, has := f["player"]; has {
				r.fail(f["player"].key, "a checkered entry fills both players' pieces: leave player out")
			}
		} else {
			r.require(item, f, "a start entry", "player")
			st.player = r.player(f["player"].value)
		}
		if rows, ok := f["rows"]; ok {
			for _, x := range r.list(rows.value, "rows") {
				st.rows = append(st.rows, r.known(x, "a row", names))
				st.rowsAt = append(st.rowsAt, place{x.Line, x.Column})
			}
		}
		if at, ok := f["at"]; ok {
			items := r.list(at.value, "at")
			if len(items) > 0 && items[0].Kind == yaml.ScalarNode {
				items = []*yaml.Node{at.value}
			}
			for _, sq := range items {
				xy := r.list(sq, "a square")
				if r.err == nil && len(xy) != 2 {
					r.fail(sq, "a square is [column, row], numbered from 1 as in the notation")
					return
				}
				if r.err != nil {
					return
				}
				st.at = append(st.at, [2]*expr{r.known(xy[0], "a column", names), r.known(xy[1], "a row", names)})
				st.atAt = append(st.atAt, place{sq.Line, sq.Column})
			}
		}
		if r.err == nil && st.rows == nil && st.at == nil && !st.checkered {
			r.fail(item, "a start entry needs rows: (whole rows), at: (squares) or checkered: true")
		}
		s.start = append(s.start, st)
	}
}

// moves reads the move rules.
func (r *reader) moves(s *Spec, n *yaml.Node, names map[string]bool) {
	items := r.list(n, "moves")
	if r.err == nil && (len(items) == 0 || len(items) > maxRules) {
		r.fail(n, "moves must list 1 to %d kinds of move", maxRules)
		return
	}
	for _, item := range items {
		f := r.fields(item, "a move", "kind", "piece", "directions", "to", "over", "capture", "chain",
			"compulsory", "range", "outflank", "must-outflank", "promote", "player", "turn", "on", "next-to", "rotate",
			"if", "distance", "hand", "pieces", "mill", "shoot")
		r.require(item, f, "a move", "kind")
		if r.err != nil {
			return
		}
		m := ruleDef{node: item}
		for sh, k := range shapedKinds {
			if r.scalar(f["kind"].value, "kind") == k {
				r.fail(f["kind"].value, "kind %s needs a %s board: add shape: %s to board", k, shapeNames[sh], shapeNames[sh])
			}
		}
		m.kind = kindOf(r.word(f["kind"].value, "kind", kindNames[:]...))
		m.piece = r.piece(s, f["piece"].value)
		if pl, ok := f["player"]; ok {
			m.player = r.player(pl.value) + 1
		}
		if t, ok := f["turn"]; ok {
			m.turn = r.known(t.value, "turn", names)
		}
		if c, ok := f["if"]; ok {
			m.cond = r.known(c.value, "if", names)
		}
		if rt, ok := f["rotate"]; ok {
			if m.kind != kindPlace {
				r.fail(rt.key, "rotate belongs to place moves, not %s moves", kindNames[m.kind])
			}
			rf := r.fields(rt.value, "rotate", "block")
			r.require(rt.value, rf, "rotate", "block")
			if r.err != nil {
				return
			}
			m.rotate = r.known(rf["block"].value, "block", names)
		}
		if m.kind != kindRemove {
			for _, k := range []string{"on", "next-to"} {
				if x, has := f[k]; has {
					r.fail(x.key, "%s belongs to remove moves, not %s moves", k, kindNames[m.kind])
				}
			}
		}
		switch {
		case m.kind == kindSwap:
			r.swapMove(f, &m)
		case m.kind == kindRemove:
			r.removeMove(f, &m)
		case m.kind == kindFly:
			for _, k := range []string{"directions", "to", "over", "capture", "chain", "compulsory", "range", "outflank", "must-outflank", "promote"} {
				if x, has := f[k]; has {
					r.fail(x.key, "a fly move has no %s: it takes one of the mover's pieces to any empty square", k)
				}
			}
			m.to = toEmpty
		case m.kind == kindPlace || m.kind == kindDrop:
			if m.piece < 0 && r.err == nil {
				r.fail(item, "a %s move with more than one kind of piece needs piece:", kindNames[m.kind])
			}
			for _, k := range []string{"directions", "over", "capture", "chain", "range", "promote"} {
				if x, has := f[k]; has {
					r.fail(x.key, "a %s move has no %s: it puts a new piece on an empty square", kindNames[m.kind], k)
				}
			}
			m.to = toEmpty
		default:
			r.require(item, f, "a "+kindNames[m.kind]+" move", "directions")
			for _, d := range r.list(f["directions"].value, "directions") {
				w := r.word(d, "direction", dirWords()...)
				m.dirs = append(m.dirs, w)
			}
			m.to = toEmpty
			if to, ok := f["to"]; ok && m.kind == kindJump {
				r.fail(to.key, "a jump always lands on an empty square: leave to: out")
			} else if ok {
				m.to = 0
				for _, x := range r.list(to.value, "to") {
					switch r.word(x, "to", "empty", "enemy") {
					case "empty":
						m.to |= toEmpty
					case "enemy":
						m.to |= toEnemy
					}
				}
			}
		}
		r.millRule(f, &m, names)
		r.shootMove(f, &m)
		if m.kind == kindSlide {
			r.lineSlide(f, &m)
		} else if d, ok := f["distance"]; ok {
			r.fail(d.key, "distance belongs to slide moves, not %s moves", kindNames[m.kind])
		}
		if m.kind == kindJump {
			m.over = toEnemy
			if o, ok := f["over"]; ok {
				switch r.word(o.value, "over", "enemy", "friend", "any") {
				case "friend":
					m.over = toFriend
				case "any":
					m.over = toEnemy | toFriend
				}
			}
			if c, ok := f["capture"]; ok {
				m.capture = r.boolean(c.value, "capture")
				if m.capture && m.over&toFriend != 0 && r.err == nil {
					r.fail(c.value, "a jump over friends cannot capture what it jumps over; capture only enemy jumps")
				}
			}
			if c, ok := f["chain"]; ok {
				switch r.scalar(c.value, "chain") {
				case "route":
					m.route = true
				case "true", "yes", "on":
					m.chain = true
				case "false", "no", "off", "":
				default:
					r.fail(c.value, "chain must be true, false or route")
				}
			}
			if c, ok := f["compulsory"]; ok {
				m.compulsory = r.boolean(c.value, "compulsory")
			}
		} else {
			for _, k := range []string{"over", "capture", "chain", "compulsory"} {
				if x, has := f[k]; has && !(k == "over" && m.kind == kindSlide) {
					r.fail(x.key, "%s belongs to jump moves, not %s moves", k, kindNames[m.kind])
				}
			}
		}
		if rg, ok := f["range"]; ok {
			if m.kind != kindSlide {
				r.fail(rg.key, "range belongs to slide moves")
			}
			m.rangeE = r.known(rg.value, "range", names)
		}
		if o, ok := f["outflank"]; ok {
			m.outflank = outflankOf(r.word(o.value, "outflank", "flip", "capture"))
		}
		if mo, ok := f["must-outflank"]; ok {
			m.mustOutflank = r.boolean(mo.value, "must-outflank")
			if m.mustOutflank && m.outflank == 0 && r.err == nil {
				r.fail(mo.value, "must-outflank needs outflank: flip or outflank: capture")
			}
			if m.mustOutflank && m.kind != kindPlace && r.err == nil {
				r.fail(mo.value, "must-outflank is for place moves")
			}
		}
		if p, ok := f["promote"]; ok {
			pf := r.fields(p.value, "promote", "row", "to")
			r.require(p.value, pf, "promote", "row", "to")
			if r.err != nil {
				return
			}
			m.promote = true
			m.promoteRow = r.row(pf["row"].value, names)
			m.promoteTo = r.piece(s, pf["to"].value)
		}
		s.rules = append(s.rules, m)
	}
}

// removeMove reads what a remove move allows: on (named sets of squares)
// and next-to (only a piece beside an empty square, in directions,
// orthogonal by default).
func (r *reader) removeMove(f map[string]field, m *ruleDef) {
	for _, k := range []string{"to", "over", "capture", "chain", "range", "promote", "outflank", "must-outflank"} {
		if x, has := f[k]; has {
			r.fail(x.key, "a remove move has no %s: it takes one of the mover's own pieces off the board", k)
		}
	}
	if on, ok := f["on"]; ok {
		for _, x := range r.list(on.value, "on") {
			m.on = append(m.on, r.word(x, "on", squareSetNames...))
		}
	}
	if nt, ok := f["next-to"]; ok {
		r.word(nt.value, "next-to", "empty")
		m.nextTo = true
	}
	m.dirs = []string{"orthogonal"}
	if d, ok := f["directions"]; ok {
		if !m.nextTo {
			r.fail(d.key, "a remove move's directions say where next-to looks: add next-to: empty")
		}
		m.dirs = nil
		for _, x := range r.list(d.value, "directions") {
			m.dirs = append(m.dirs, r.word(x, "direction", dirWords()...))
		}
	}
}

// row reads "far" (the row a player moves towards) or a row number.
func (r *reader) row(n *yaml.Node, names map[string]bool) *expr {
	if n != nil && n.Kind == yaml.ScalarNode && n.Value == "far" {
		return nil
	}
	return r.known(n, "row", names)
}

// ends reads the ending conditions.
func (r *reader) ends(s *Spec, n *yaml.Node, names map[string]bool) {
	for _, item := range r.list(n, "end") {
		f := r.fields(item, "an ending", "when", "result", "row", "piece", "length", "count", "anywhere", "player", "edges")
		r.require(item, f, "an ending", "when", "result")
		if r.err != nil {
			return
		}
		e := endDef{node: item}
		e.when = whenOf(r.word(f["when"].value, "when", whenNames[:]...))
		e.result = resultOf(r.word(f["result"].value, "result", resultNames[:]...))
		allowed := map[endWhen][]resultKind{
			whenReach:      {resWin, resLoss, resDraw},
			whenInARow:     {resWin, resLoss, resDraw},
			whenNoPieces:   {resWin, resLoss, resDraw},
			whenNoMoves:    {resWin, resLoss, resDraw, resPass, resScore},
			whenBoardFull:  {resWin, resLoss, resDraw, resScore},
			whenTurns:      {resDraw, resScore},
			whenNoProgress: {resDraw, resScore},
			whenConnect:    {resWin, resLoss, resDraw},
			whenOneGroup:   {resWin, resLoss, resDraw},
			whenFewer:      {resWin, resLoss, resDraw},
		}
		if r.err == nil && !slices.Contains(allowed[e.when], e.result) {
			var ws []string
			for _, a := range allowed[e.when] {
				ws = append(ws, resultNames[a])
			}
			r.fail(f["result"].value, "when %s, result must be %s", whenNames[e.when], strings.Join(ws, ", "))
		}
		need := map[endWhen]string{whenInARow: "length", whenTurns: "count", whenReach: "row", whenNoProgress: "count", whenConnect: "edges", whenFewer: "count"}
		r.connectEnding(f, &e)
		if a, has := f["anywhere"]; has && e.when != whenInARow {
			r.fail(a.key, "anywhere belongs to when: in-a-row")
		}
		for _, k := range []string{"row", "piece", "length", "count"} {
			if _, has := f[k]; has && need[e.when] != k && !(k == "piece" && (e.when == whenReach || e.when == whenNoProgress)) {
				r.fail(f[k].key, "%s does not belong to when: %s", k, whenNames[e.when])
			}
		}
		if k := need[e.when]; k != "" {
			r.require(item, f, "when: "+whenNames[e.when], k)
		}
		if r.err != nil {
			return
		}
		switch e.when {
		case whenReach:
			e.row = r.row(f["row"].value, names)
			e.piece = -1
			if p, ok := f["piece"]; ok {
				e.piece = r.piece(s, p.value)
			}
		case whenInARow:
			e.count = r.known(f["length"].value, "length", names)
			if a, ok := f["anywhere"]; ok {
				e.anywhere = r.boolean(a.value, "anywhere")
			}
		case whenTurns, whenFewer:
			e.count = r.known(f["count"].value, "count", names)
		case whenNoProgress:
			e.count = r.known(f["count"].value, "count", names)
			e.piece = -1
			if p, ok := f["piece"]; ok {
				e.piece = r.piece(s, p.value)
			}
		}
		for _, old := range s.ends {
			if old.when == e.when && e.when != whenReach && e.when != whenConnect {
				r.fail(f["when"].value, "when: %s is given twice", whenNames[e.when])
			}
		}
		s.ends = append(s.ends, e)
	}
}

// checkEnds checks the endings against the rest of the description.
func (r *reader) checkEnds(s *Spec) {
	for _, e := range s.ends {
		if e.result == resScore && !s.scoreByPieces {
			r.fail(e.node, "result: score needs score: pieces in the description")
		}
	}
}

// evaluation reads the engine's weights.
func (r *reader) evaluation(s *Spec, n *yaml.Node) {
	s.eval = evalDef{material: make([]int, len(s.pieces))}
	for i := range s.eval.material {
		s.eval.material[i] = 100
	}
	if n == nil {
		return
	}
	f := r.fields(n, "evaluation", "material", "mobility", "advance", "centre", "corners", "home", "groups", "connection", "territory", "lines", "houses", "near")
	if m, ok := f["material"]; ok {
		mf := r.fields(m.value, "material", pieceNames(s)...)
		for name, v := range mf {
			s.eval.material[slices.Index(pieceNames(s), name)] = r.weight(v.value, "material of "+name)
		}
	}
	if m, ok := f["mobility"]; ok {
		s.eval.mobility = r.weight(m.value, "mobility")
	}
	if m, ok := f["advance"]; ok {
		s.eval.advance = r.weight(m.value, "advance")
	}
	if m, ok := f["centre"]; ok {
		s.eval.centre = r.weight(m.value, "centre")
	}
	if m, ok := f["corners"]; ok {
		s.eval.corners = r.weight(m.value, "corners")
	}
	if m, ok := f["home"]; ok {
		s.eval.home = r.weight(m.value, "home")
	}
	if m, ok := f["groups"]; ok {
		s.eval.groups = r.weight(m.value, "groups")
		if r.err == nil && !slices.ContainsFunc(s.ends, func(e endDef) bool { return e.when == whenOneGroup }) {
			r.fail(m.key, "groups weighs the way to a one-group ending: add an ending with when: one-group")
		}
	}
	if m, ok := f["connection"]; ok {
		s.eval.connection = r.weight(m.value, "connection")
		if r.err == nil && !slices.ContainsFunc(s.ends, func(e endDef) bool { return e.when == whenConnect }) {
			r.fail(m.key, "connection weighs the way to a connect ending: add an ending with when: connect")
		}
	}
	if m, ok := f["territory"]; ok {
		s.eval.territory = r.weight(m.value, "territory")
	}
	if m, ok := f["lines"]; ok {
		s.eval.lines = r.weight(m.value, "lines")
		if r.err == nil && !slices.ContainsFunc(s.ends, func(e endDef) bool { return e.when == whenInARow }) {
			r.fail(m.key, "lines weighs the lines toward an in-a-row ending: add an ending with when: in-a-row")
		}
	}
	if m, ok := f["houses"]; ok {
		s.eval.houses = r.weight(m.value, "houses")
		if r.err == nil && s.shape != shapePits {
			r.fail(m.key, "houses weighs the seeds in a pits board's houses: add shape: pits to board")
		}
	}
	if m, ok := f["near"]; ok {
		s.eval.near = r.integer(m.value, "near")
		if r.err == nil && (s.eval.near < 1 || s.eval.near > 3) {
			r.fail(m.value, "near must be from 1 to 3 steps")
		}
	}
}

// weight reads an evaluation weight, -10000..10000.
func (r *reader) weight(n *yaml.Node, what string) int {
	v := r.integer(n, what)
	if r.err == nil && (v < -10000 || v > 10000) {
		r.fail(n, "%s must be from -10000 to 10000", what)
	}
	return v
}

func pieceNames(s *Spec) []string {
	out := make([]string, len(s.pieces))
	for i, p := range s.pieces {
		out[i] = p.Name
	}
	return out
}
