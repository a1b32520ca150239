package described

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbiter/rules"
)

// squareName writes a square in the notation: column letter, row number.
func (g *Game) squareName(sq int) string {
	return g.ColumnLabel(sq%g.c.w) + g.RowLabel(sq/g.c.w)
}

// ColumnLabel returns the notation's label of the column col (0 at the
// left): "a", "b", ...
func (g *Game) ColumnLabel(col int) string { return string(rune('a' + col)) }

// RowLabel returns the notation's label of the row index row (0 at the
// top as drawn): "8" for the top row of an 8-row board numbered from the
// bottom.
func (g *Game) RowLabel(row int) string {
	if g.spec.rowsFromTop {
		return strconv.Itoa(row + 1)
	}
	return strconv.Itoa(g.c.h - row)
}

// FormatMove writes m: "pass", a column letter for a drop, a square for a
// placement, "from to" for a move of a piece. A value that is no move of
// the game comes out as "invalid move N".
func (g *Game) FormatMove(m rules.Move) string {
	if m == movePass {
		return "pass"
	}
	if isRoute(m) {
		var over, land [maxRoute]int
		n := g.c.routeSquares(m, &over, &land)
		if n == 0 {
			return fmt.Sprintf("invalid move %d", uint32(m))
		}
		from, _, _ := unpack(m)
		text := g.squareName(from)
		for _, l := range land[:n] {
			text += " " + g.squareName(l)
		}
		return text
	}
	if text, ok := g.formatRemoval(m); ok {
		return text
	}
	from, to, rule := unpack(m)
	if g.c.strayBits(m, rule) || rule >= len(g.c.gens[0]) || to >= g.c.n || from >= g.c.n {
		return fmt.Sprintf("invalid move %d", uint32(m))
	}
	switch {
	case g.c.gens[0][rule].kind == kindSwap:
		return "swap"
	case g.c.gens[0][rule].kind == kindDrop:
		return g.ColumnLabel(to % g.c.w)
	case len(g.c.gens[0][rule].shoot) > 0:
		arrow := g.c.shotSquare(m, to)
		if arrow < 0 || from < 0 {
			return fmt.Sprintf("invalid move %d", uint32(m))
		}
		return g.squareName(from) + " " + g.squareName(to) + " " + g.squareName(arrow)
	case from < 0:
		if b, left := turnOf(m); b >= 0 && g.c.gens[0][rule].rotate > 0 {
			return g.squareName(to) + " " + turnText(b, left)
		}
		return g.squareName(to)
	}
	return g.squareName(from) + " " + g.squareName(to)
}

// turnText writes a block's turn: its number from 1, then r (clockwise)
// or l (anticlockwise).
func turnText(b int, left bool) string {
	if left {
		return strconv.Itoa(b+1) + "l"
	}
	return strconv.Itoa(b+1) + "r"
}

// TurnsBlocks reports whether a rule of the game turns a block of the
// board after placing (Pentago).
func (g *Game) TurnsBlocks() bool {
	for _, gn := range g.c.gens[0] {
		if gn.rotate > 0 {
			return true
		}
	}
	return false
}

// howToWrite says how moves are written in this game.
func (g *Game) howToWrite() string {
	var forms []string
	if g.c.hasDrop {
		forms = append(forms, "a column letter such as c")
	}
	switch {
	case g.c.hasPlace && g.TurnsBlocks():
		forms = append(forms, "a square and the block you turn, its number and r (clockwise) or l (anticlockwise), such as "+g.squareName(g.c.n/2)+" 1r")
	case g.c.hasPlace:
		forms = append(forms, "a square such as "+g.squareName(g.c.n/2))
	}
	if g.c.remove {
		forms = append(forms, "the square of a piece of yours to remove, when the rules ask for one, such as "+g.squareName(0))
	}
	switch {
	case g.c.moveOK && g.Shoots():
		forms = append(forms, "the square of your piece, the square it goes to and the square it shoots to, such as "+g.squareName(g.c.n-g.c.w)+" "+g.squareName(g.c.n-2*g.c.w)+" "+g.squareName(g.c.n-3*g.c.w))
	case g.c.moveOK:
		forms = append(forms, "the square of your piece and the square it goes to, such as "+g.squareName(g.c.n-g.c.w)+" "+g.squareName(g.c.n-2*g.c.w))
	}
	if g.c.pass {
		forms = append(forms, "pass when you have no other move")
	}
	if g.c.swap {
		forms = append(forms, "swap as the game's second move, to take the first stone over")
	}
	return "write " + strings.Join(forms, ", or ")
}

// item is a square or a column read from move text; row is 0 for a
// column alone.
type item struct {
	col, row int
	text     string
}

// readItems reads move text into squares and columns: letters followed by
// digits, separated or not by spaces, commas, dashes or "to".
func readItems(text string) ([]item, bool) {
	b := []byte(strings.ToLower(text))
	for i, c := range b {
		if c == ',' || c == '-' || c == '\t' {
			b[i] = ' '
		}
	}
	fields := strings.Fields(string(b))
	if len(fields) == 3 && fields[1] == "to" {
		fields = []string{fields[0], fields[2]}
	}
	s := strings.Join(fields, "")
	var items []item
	for i := 0; i < len(s); {
		if s[i] < 'a' || s[i] > 'z' {
			return nil, false
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		it := item{col: int(s[i] - 'a'), text: s[i:j]}
		if j > i+1 {
			n, err := strconv.Atoi(s[i+1 : j])
			if err != nil || n < 1 {
				return nil, false
			}
			it.row = n
		}
		items = append(items, it)
		i = j
		if len(items) > maxRoute+1 {
			return nil, false
		}
	}
	return items, len(items) > 0
}

// ParseMove reads a move in the game's notation ("a2 a3", "d3", "c",
// "pass"; any case, extra spaces, commas and dashes) and checks it against
// the position. Its errors are *rules.MoveError values that say what is
// wrong.
func (g *Game) ParseMove(text string) (rules.Move, error) {
	if r := g.Status(); r != rules.Ongoing {
		o := g.Outcome()
		winner := "it is a draw"
		if p, ok := r.Winner(); ok {
			winner = g.PlayerName(p) + " won"
		}
		return rules.NoMove, rules.NewMoveError(rules.ErrGameOver, fmt.Sprintf("the game is over: %s (%s)", winner, o.Reason))
	}
	var list rules.MoveList
	g.Moves(&list)
	trimmed := strings.ToLower(strings.TrimSpace(text))
	if trimmed == "pass" {
		switch {
		case list.Contains(movePass):
			return movePass, nil
		case !g.c.pass:
			return rules.NoMove, illegal("there is no passing in %s: %s", g.spec.Title, g.howToWrite())
		}
		return rules.NoMove, illegal("you may pass only when you have no other move, and you have %d", list.N)
	}
	if trimmed == "swap" {
		return g.parseSwap(&list)
	}
	if g.TurnsBlocks() {
		return g.parseTurn(trimmed, text, &list)
	}
	if len(g.c.mills) > 0 {
		return g.parseMill(trimmed, text, &list)
	}
	return g.parseItems(trimmed, text, &list)
}

// parseItems reads a move written as squares or a column.
func (g *Game) parseItems(trimmed, text string, list *rules.MoveList) (rules.Move, error) {
	items, ok := readItems(trimmed)
	if !ok {
		return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s", strings.TrimSpace(text), g.howToWrite()))
	}
	if list.Contains(movePass) {
		return rules.NoMove, illegal("you have no legal move but pass: write pass")
	}
	for _, it := range items {
		if it.col >= g.c.w || it.row > g.c.h {
			return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf("%s is off the board: columns are a to %s and rows 1 to %d",
				it.text, g.ColumnLabel(g.c.w-1), g.c.h))
		}
	}
	switch {
	case len(items) == 1 && items[0].row == 0 && g.c.hasDrop:
		return g.parseDrop(items[0], list)
	case len(items) == 1 && items[0].row > 0 && (g.c.hasPlace || g.c.remove):
		return g.parsePlace(items[0], list)
	case len(items) == 1 && items[0].row > 0 && g.c.hasDrop:
		// A square for a drop: read as its column, checked against where
		// the piece lands.
		return g.parseDrop(items[0], list)
	case len(items) == 3 && items[0].row > 0 && items[1].row > 0 && items[2].row > 0 && g.Shoots():
		return g.parseShot(items, list)
	case len(items) == 2 && items[0].row > 0 && items[1].row > 0 && g.c.moveOK:
		return g.parseStep(items[0], items[1], list)
	case len(items) > 2 && g.routes():
		return g.parseRoute(items, list)
	}
	return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s", strings.TrimSpace(text), g.howToWrite()))
}

func illegal(format string, args ...any) error {
	return rules.NewMoveError(rules.ErrIllegal, fmt.Sprintf(format, args...))
}

// sq returns an item's square.
func (g *Game) sq(it item) int { return g.c.square(it.col+1, it.row, g.spec.rowsFromTop) }

func (g *Game) parseDrop(it item, list *rules.MoveList) (rules.Move, error) {
	for _, m := range list.Slice() {
		if _, to, rule := unpack(m); to%g.c.w == it.col && g.c.gens[g.toMove][rule].kind == kindDrop {
			if it.row > 0 && to != g.sq(it) {
				return rules.NoMove, illegal("a piece dropped into column %s lands on %s, not %s", g.ColumnLabel(it.col), g.squareName(to), it.text)
			}
			return m, nil
		}
	}
	return rules.NoMove, illegal("column %s is full", g.ColumnLabel(it.col))
}

// parseTurn reads a placement with a block's turn: "d4 1r".
func (g *Game) parseTurn(trimmed, text string, list *rules.MoveList) (rules.Move, error) {
	fields := strings.Fields(strings.ReplaceAll(trimmed, ",", " "))
	unreadable := rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("cannot read %q: %s", strings.TrimSpace(text), g.howToWrite()))
	if len(fields) != 2 || len(fields[1]) < 2 {
		return rules.NoMove, unreadable
	}
	turn := fields[1]
	dir := turn[len(turn)-1]
	b, err := strconv.Atoi(turn[:len(turn)-1])
	items, ok := readItems(fields[0])
	if err != nil || (dir != 'r' && dir != 'l') || !ok || len(items) != 1 || items[0].row == 0 {
		return rules.NoMove, unreadable
	}
	it := items[0]
	if it.col >= g.c.w || it.row > g.c.h {
		return rules.NoMove, rules.NewMoveError(rules.ErrOffBoard, fmt.Sprintf("%s is off the board: columns are a to %s and rows 1 to %d",
			it.text, g.ColumnLabel(g.c.w-1), g.c.h))
	}
	sq := g.sq(it)
	blocks := 0
	for _, m := range list.Slice() {
		if _, to, _ := unpack(m); to != sq {
			continue
		}
		mb, left := turnOf(m)
		blocks = max(blocks, mb+1)
		if mb == b-1 && left == (dir == 'l') {
			return m, nil
		}
	}
	if g.cells[sq] != 0 {
		return rules.NoMove, illegal("%s is taken", it.text)
	}
	if blocks > 0 {
		return rules.NoMove, illegal("there is no block %d: the blocks are 1 to %d", b, blocks)
	}
	return rules.NoMove, illegal("%s is not a legal move", strings.TrimSpace(text))
}

// parsePlace reads a move written as one square: a placement or a
// removal.
func (g *Game) parsePlace(it item, list *rules.MoveList) (rules.Move, error) {
	sq := g.sq(it)
	var removals []string
	for _, m := range list.Slice() {
		from, to, rule := unpack(m)
		if from >= 0 {
			continue
		}
		kind := g.c.gens[g.toMove][rule].kind
		if to == sq && (kind == kindPlace || kind == kindRemove) {
			return m, nil
		}
		if kind == kindRemove {
			removals = append(removals, g.squareName(to))
		}
	}
	if len(removals) > 0 {
		return rules.NoMove, illegal("%s is not a piece you may remove now; you may remove the piece on %s", it.text, strings.Join(removals, ", "))
	}
	if !g.c.hasPlace {
		return rules.NoMove, illegal("a move is not written as one square now: %s", g.howToWrite())
	}
	if g.cells[sq] != 0 {
		return rules.NoMove, illegal("%s is taken", it.text)
	}
	for _, gn := range g.c.gens[g.toMove] {
		if gn.kind == kindPlace && gn.must {
			return rules.NoMove, illegal("a piece on %s would outflank no enemy piece: a placement must close off a line of enemy pieces against one of yours", it.text)
		}
	}
	return rules.NoMove, illegal("%s is not a legal placement", it.text)
}

func (g *Game) parseStep(a, b item, list *rules.MoveList) (rules.Move, error) {
	from, to := g.sq(a), g.sq(b)
	p := g.toMove
	switch g.c.cls[p][g.cells[from]] {
	case toEmpty:
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("there is no piece on %s", a.text))
	case toEnemy:
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece, fmt.Sprintf("the piece on %s is %s's; you play %s", a.text, g.PlayerName(p^1), g.PlayerName(p)))
	}
	var targets []string
	for _, m := range list.Slice() {
		f, t, rule := unpack(m)
		if f != from {
			continue
		}
		if isRoute(m) {
			var over, land [maxRoute]int
			n := g.c.routeSquares(m, &over, &land)
			if n == 1 && land[0] == to {
				return m, nil
			}
			targets = append(targets, strings.TrimPrefix(g.FormatMove(m), g.squareName(from)+" "))
			continue
		}
		if t == to {
			if _, dist := shotOf(m); dist > 0 && len(g.c.gens[0][rule].shoot) > 0 {
				return rules.NoMove, illegal("write the square the piece shoots to as well, such as %s", g.FormatMove(m))
			}
			return m, nil
		}
		if !slices.Contains(targets, g.squareName(t)) {
			targets = append(targets, g.squareName(t))
		}
	}
	if len(targets) == 0 {
		return rules.NoMove, illegal("the piece on %s has no legal move", a.text)
	}
	if g.cells[to] != 0 && g.c.cls[p][g.cells[to]] == toFriend {
		return rules.NoMove, illegal("%s is taken by your own piece; the piece on %s can go to %s", b.text, a.text, strings.Join(targets, ", "))
	}
	return rules.NoMove, illegal("the piece on %s cannot go to %s; it can go to %s", a.text, b.text, strings.Join(targets, ", "))
}

// Outcome returns the result with its reason in words and, when the
// description scores by pieces, the pieces as scores.
func (g *Game) Outcome() rules.Outcome {
	r := g.Status()
	out := rules.Outcome{Result: r}
	if g.spec.scoreByPieces {
		out.Scores = [2]int{int(g.total[0]), int(g.total[1])}
		out.HasScores = true
	}
	if r == rules.Ongoing {
		return out
	}
	who := g.PlayerName(g.end.who)
	counts := fmt.Sprintf("%d pieces to %d", max(g.total[0], g.total[1]), min(g.total[0], g.total[1]))
	if g.total[0] == g.total[1] {
		counts = fmt.Sprintf("%d pieces each", g.total[0])
	}
	switch g.end.why {
	case whyReach:
		out.Reason = who + " reached the goal row"
	case whyInARow:
		out.Reason = fmt.Sprintf("%s made %d in a row", who, g.c.inARow)
	case whyBothInARow:
		out.Reason = fmt.Sprintf("both players made %d in a row", g.c.inARow)
	case whyNoPieces:
		out.Reason = who + " has no pieces left"
	case whyNoMoves:
		out.Reason = who + " has no legal move"
		if g.c.noMovesRes == resScore {
			out.Reason += ": " + counts
		}
	case whyNeither:
		out.Reason = "neither player can move: " + counts
	case whyFull:
		out.Reason = "the board is full"
		if g.c.fullRes == resScore {
			out.Reason += ": " + counts
		}
	case whyConnect:
		out.Reason = who + " joined their edges"
	case whyOneGroup:
		out.Reason = who + "'s pieces form one group"
	case whyFewer:
		out.Reason = fmt.Sprintf("%s has fewer than %d pieces left", who, g.c.fewer)
	case whyNoProgress:
		out.Reason = fmt.Sprintf("%d moves in a row without progress", g.c.progress)
	case whyTurns:
		out.Reason = fmt.Sprintf("turn limit of %d moves reached", g.c.turns)
		if g.c.turnsRes == resScore {
			out.Reason += ": " + counts
		}
	}
	return out
}

// routes reports whether a rule of the game jumps by routes.
func (g *Game) routes() bool {
	for _, gn := range g.c.gens[0] {
		if gn.route {
			return true
		}
	}
	return false
}

// parseRoute reads a route of jumps written with every landing square:
// "c3 e5 c7".
func (g *Game) parseRoute(items []item, list *rules.MoveList) (rules.Move, error) {
	var want []string
	for _, it := range items {
		if it.row == 0 {
			return rules.NoMove, rules.NewMoveError(rules.ErrUnreadable, fmt.Sprintf("%s is no square: %s", it.text, g.howToWrite()))
		}
		want = append(want, g.squareName(g.sq(it)))
	}
	text := strings.Join(want, " ")
	from := g.sq(items[0])
	switch g.c.cls[g.toMove][g.cells[from]] {
	case toEmpty:
		return rules.NoMove, rules.NewMoveError(rules.ErrNoPiece, fmt.Sprintf("there is no piece on %s", items[0].text))
	case toEnemy:
		return rules.NoMove, rules.NewMoveError(rules.ErrNotYourPiece, fmt.Sprintf("the piece on %s is %s's; you play %s", items[0].text, g.PlayerName(g.toMove^1), g.PlayerName(g.toMove)))
	}
	var routes []string
	for _, m := range list.Slice() {
		if f, _, _ := unpack(m); f != from || !isRoute(m) {
			continue
		}
		t := g.FormatMove(m)
		if t == text {
			return m, nil
		}
		routes = append(routes, t)
	}
	if len(routes) == 0 {
		return rules.NoMove, illegal("the piece on %s has no capture", items[0].text)
	}
	return rules.NoMove, illegal("%s is not a legal capture; the piece on %s can play %s", text, items[0].text, strings.Join(routes, ", "))
}
