package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// The move picker lets the player to move play by picking instead of
// typing: a "Pick a move" button under the board opens, privately, a menu
// of the pieces (or squares) that have legal moves; picking one shows its
// destinations, each with what the move does; picking a destination plays
// the move publicly. Where a step would have more choices than a menu
// holds, the choices are grouped first, so that every legal move is at
// most MaxPicks picks away.

// Limits of a menu, as chat platforms set them (Discord: 25 options a
// select menu, 100 characters for an option's label, value and
// description).
const (
	MaxMenuOptions = 25
	MaxMenuText    = 100
	// MaxPicks is the most picks any legal move needs in the picker.
	MaxPicks = 3
)

// Menu is a list of choices offered under a message, of which one is
// picked. Picking option O makes the invocation of ID (a button id,
// "CMD:GAME:VERSION") with O's Value as the option PickOption.
type Menu struct {
	ID          string
	Placeholder string
	Options     []MenuOption
}

// MenuOption is one choice of a Menu; Label, Value and Description are at
// most MaxMenuText characters.
type MenuOption struct {
	Label       string
	Value       string
	Description string
}

// PickOption names the invocation option that carries a menu's picked
// value.
const PickOption = "pick"

// maxPickValue bounds the length of a picked value read: a path of at
// most MaxPicks small numbers.
const maxPickValue = 16

// pickNode is one choice of the picker: a group, a piece, or a move.
type pickNode struct {
	label string
	// hint describes a group or a piece in words; a move's description is
	// its effect, worked out when it is shown.
	hint string
	kids []*pickNode
	// A move: its canonical text too, for when the moves are listed whole.
	move rules.Move
	text string
	leaf bool
}

// pickTree builds the picker's choices for the position of g: pieces (the
// first half of a move's text) then destinations (the second half), with
// pieces or destinations grouped where a step has more than a menu holds.
// It falls back to consecutive runs of moves, runs of runs where one
// menu of runs is not enough, which always fit because a position has at
// most rules.MaxMoves moves (at most MaxMenuOptions to the power
// MaxPicks).
func pickTree(g rules.Game) *pickNode {
	var list rules.MoveList
	g.Moves(&list)
	root := &pickNode{}
	bySource := map[string]*pickNode{}
	for _, m := range list.Slice() {
		text := g.FormatMove(m)
		from, to := splitMoveText(text)
		leaf := &pickNode{label: text, text: text, move: m, leaf: true}
		if to == "" {
			root.kids = append(root.kids, leaf)
			continue
		}
		src, ok := bySource[from]
		if !ok {
			src = &pickNode{label: from}
			bySource[from] = src
			root.kids = append(root.kids, src)
		}
		leaf.label = to
		src.kids = append(src.kids, leaf)
	}
	for _, k := range root.kids {
		if !k.leaf {
			k.hint = plural(len(k.kids), "move")
			k.kids = grouped(k.kids)
		}
	}
	if len(root.kids) > MaxMenuOptions {
		root.kids = grouped(root.kids)
	}
	if depth(root) > MaxPicks || !fits(root) {
		root.kids = runs(flatten(root))
	}
	return root
}

// grouped returns nodes as they are when they fit a menu, else grouped by
// the first part of their label (a row or column), else in consecutive
// runs.
func grouped(nodes []*pickNode) []*pickNode {
	if len(nodes) <= MaxMenuOptions {
		return nodes
	}
	var groups []*pickNode
	byKey := map[string]*pickNode{}
	for _, n := range nodes {
		key := groupKey(n.label)
		g, ok := byKey[key]
		if !ok {
			g = &pickNode{label: key + " …"}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.kids = append(g.kids, n)
	}
	// A group larger than a menu goes in consecutive parts, each a group
	// of its own (an amazon's destination with more than a menu of
	// arrows).
	var parts []*pickNode
	for _, g := range groups {
		if len(g.kids) > MaxMenuOptions {
			parts = append(parts, chunked(g.kids)...)
			continue
		}
		g.hint = labels(g.kids)
		parts = append(parts, g)
	}
	groups = parts
	if len(groups) > MaxMenuOptions || len(groups) == 1 {
		return chunked(nodes)
	}
	return groups
}

// chunked splits nodes into consecutive runs of at most a menu each.
func chunked(nodes []*pickNode) []*pickNode {
	if len(nodes) <= MaxMenuOptions {
		return nodes
	}
	var out []*pickNode
	for start := 0; start < len(nodes); start += MaxMenuOptions {
		run := nodes[start:min(start+MaxMenuOptions, len(nodes))]
		out = append(out, &pickNode{label: run[0].label + " … " + run[len(run)-1].label, hint: labels(run), kids: run})
	}
	return out
}

// runs splits nodes into consecutive runs, and the runs into runs of runs,
// until one menu holds them.
func runs(nodes []*pickNode) []*pickNode {
	for len(nodes) > MaxMenuOptions {
		nodes = chunked(nodes)
	}
	return nodes
}

// flatten lists the moves below n, labelled with their whole text.
func flatten(n *pickNode) []*pickNode {
	if n.leaf {
		return []*pickNode{{label: n.text, move: n.move, leaf: true}}
	}
	var out []*pickNode
	for _, k := range n.kids {
		out = append(out, flatten(k)...)
	}
	return out
}

// depth is the number of picks the deepest move below n needs.
func depth(n *pickNode) int {
	if n.leaf {
		return 0
	}
	d := 0
	for _, k := range n.kids {
		d = max(d, depth(k))
	}
	return d + 1
}

// fits reports whether every step below n fits a menu.
func fits(n *pickNode) bool {
	if n.leaf {
		return true
	}
	if len(n.kids) > MaxMenuOptions {
		return false
	}
	for _, k := range n.kids {
		if !fits(k) {
			return false
		}
	}
	return true
}

// splitMoveText splits a move's canonical text into the piece's square
// and the destination: halves of the words ("4 2 4 10", "c4 d4"), the
// first word and the rest of three ("d1 d7 g7": a piece, where it goes
// and where it shoots or jumps next), or the squares of one word
// ("E2B5"). A move of one square or a word such as
// "pass" has no destination. A removal ("x a1" at the end, a mill's)
// stays with the last pick: "d2 d3 x a1" is the piece d2 and the
// destination "d3 x a1", and the placement "d2 x a1" has no destination.
func splitMoveText(text string) (from, to string) {
	text, removal := cutRemoval(text)
	from, to = splitMoveWords(text)
	if to != "" {
		return from, to + removal
	}
	return from + removal, ""
}

// cutRemoval takes a removal, " x SQUARE", off the end of a move's text:
// "d2 d3 x a1" is "d2 d3" and " x a1".
func cutRemoval(text string) (move, removal string) {
	f := strings.Fields(text)
	if n := len(f); n >= 3 && f[n-2] == "x" {
		return strings.Join(f[:n-2], " "), " x " + f[n-1]
	}
	return text, ""
}

// splitMoveWords is splitMoveText for a move's text without a removal.
func splitMoveWords(text string) (from, to string) {
	f := strings.Fields(text)
	if len(f) >= 2 && len(f)%2 == 0 {
		return strings.Join(f[:len(f)/2], " "), strings.Join(f[len(f)/2:], " ")
	}
	if len(f) == 3 {
		return f[0], f[1] + " " + f[2]
	}
	if len(f) == 1 {
		w := f[0]
		for i := 1; i+1 < len(w); i++ {
			if unicode.IsDigit(rune(w[i])) && unicode.IsLetter(rune(w[i+1])) {
				return w[:i+1], w[i+1:]
			}
		}
	}
	return text, ""
}

// groupKey is the first part of a square's name: "4" of "4 2", "E" of
// "E2".
func groupKey(label string) string {
	if f := strings.Fields(label); len(f) > 1 {
		return f[0]
	}
	i := strings.IndexFunc(label, unicode.IsDigit)
	if i <= 0 {
		i = 1
	}
	return label[:min(i, len(label))]
}

// labels lists the labels of nodes, clipped for a description.
func labels(nodes []*pickNode) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = n.label
	}
	return clipRunes(strings.Join(parts, ", "), MaxMenuText)
}

// clipRunes shortens s to at most n characters, marking the cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// pickPath reads a picked value: the indices of the choices picked so far,
// "3" or "3.12". It refuses anything else, and a path leading off the
// tree.
func pickPath(root *pickNode, value string) (*pickNode, []int, error) {
	if value == "" || len(value) > maxPickValue {
		return nil, nil, fmt.Errorf("not a choice of the picker")
	}
	parts := strings.Split(value, ".")
	if len(parts) > MaxPicks {
		return nil, nil, fmt.Errorf("not a choice of the picker")
	}
	n := root
	path := make([]int, 0, len(parts))
	for _, p := range parts {
		i, err := strconv.Atoi(p)
		if err != nil || strconv.Itoa(i) != p || n.leaf || i < 0 || i >= len(n.kids) {
			return nil, nil, fmt.Errorf("not a choice of the picker")
		}
		n = n.kids[i]
		path = append(path, i)
	}
	return n, path, nil
}

// pickID is the id of the picker's button and menus in g's position:
// "pick:GAME:POSITION", with positionKey in a button id's version place.
// A change of the game that is not a move (a draw offer, premoves, a
// vacation) leaves the picker open; a move, a takeback or a new game
// makes it stale.
func pickID(g *store.Game) string { return string(appendButtonID(nil, "pick", g)) }

// positionKey identifies g's position (its pieces, the side to move and
// what else decides the legal moves, rules.Game.Hash) as a positive
// number.
func positionKey(g *store.Game) int64 { return int64(g.State.Hash()>>2) + 1 }

// pick is the picker: the "Pick a move" button (no pick yet) or a pick
// from its menu. A button or menu of an older state of the game is
// refused with the board as it is now (load); only the player to move
// may pick.
func (s *Service) pick(ctx context.Context, inv Invocation) Reply {
	game, position := inv.Game, inv.Version
	inv.Version = 0 // the picker's id names a position, not a version (pickID)
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	if g.ID != game || positionKey(g) != position {
		return s.staleRefusal(g, inv)
	}
	seat, refusal := playable(g, inv)
	switch {
	case refusal != nil:
		return *refusal
	case g.Status != store.Active:
		return refuse("the game is over; there is nothing to pick")
	case seat != g.State.ToMove():
		return refuse("it is %s's turn, not yours", label(g.Players[g.State.ToMove()]))
	}
	root := pickTree(g.State)
	node, path := root, []int(nil)
	if v, ok := inv.Options[PickOption]; ok {
		var err error
		node, path, err = pickPath(root, v)
		if err != nil {
			return refuse("that pick is not one of the picker's choices here; nothing was changed: press Pick a move under the board again")
		}
	}
	if node.leaf {
		inv.Options = map[string]string{"move": g.State.FormatMove(node.move)}
		reply, _ := s.playMove(ctx, inv, g)
		return reply
	}
	// A step after the first replaces the step it was picked from.
	return Reply{Message: pickStep(g, seat, root, node, path), Private: true, Update: len(path) > 0}
}

// pickStep is one private step of the picker: what to pick, and a menu of
// node's choices.
func pickStep(g *store.Game, seat rules.Player, root, node *pickNode, path []int) Message {
	var head string
	switch {
	case node == root && allLeaves(root):
		head = fmt.Sprintf("Your move as %s: %s to pick from.", g.State.PlayerName(seat), plural(countMoves(root), "legal move"))
	case node == root:
		head = fmt.Sprintf("Your move as %s: pick a piece (%s in all).", g.State.PlayerName(seat), plural(countMoves(root), "legal move"))
	case allLeaves(node):
		head = fmt.Sprintf("Your move as %s, %s: pick where it goes.", g.State.PlayerName(seat), node.label)
	default:
		head = fmt.Sprintf("Your move as %s: pick among %s.", g.State.PlayerName(seat), node.label)
	}
	menu := &Menu{ID: pickID(g), Placeholder: "Pick a piece"}
	switch {
	case node == root && allLeaves(root):
		menu.Placeholder = "Pick your move"
	case node != root && allLeaves(node):
		menu.Placeholder = "Pick a destination"
	}
	prefix := ""
	for _, i := range path {
		prefix += strconv.Itoa(i) + "."
	}
	for i, k := range node.kids {
		desc := k.hint
		if k.leaf {
			desc = moveEffect(g.State, k.move)
		}
		menu.Options = append(menu.Options, MenuOption{
			Label:       clipRunes(k.label, MaxMenuText),
			Value:       prefix + strconv.Itoa(i),
			Description: clipRunes(desc, MaxMenuText),
		})
	}
	return Message{Text: head, Menu: menu}
}

// allLeaves reports whether n's choices are all moves (a square where a
// piece is placed, Upthrust's "G1"), not pieces or groups.
func allLeaves(n *pickNode) bool {
	for _, k := range n.kids {
		if !k.leaf {
			return false
		}
	}
	return len(n.kids) > 0
}

// countMoves counts the moves below n.
func countMoves(n *pickNode) int {
	if n.leaf {
		return 1
	}
	c := 0
	for _, k := range n.kids {
		c += countMoves(k)
	}
	return c
}

// moveEffect says what m does in g, for a menu: what it removes or hurts
// (as the board's last-move line says it), what the player announces, and
// the points it scores where the game counts them; "no capture" when it
// does none of these.
func moveEffect(g rules.Game, m rules.Move) string {
	var parts []string
	before, what, scored := standing(g, g.ToMove())
	after := g.Clone()
	announce := after.Announce(m)
	after.Play(m)
	if e := render.LastMoveEffects(after); e != "" {
		parts = append(parts, e)
	}
	if announce != "" {
		parts = append(parts, announce)
	}
	if now, _, ok := standing(after, g.ToMove()); ok && scored && now != before {
		parts = append(parts, fmt.Sprintf("%+d %s", now-before, what))
	}
	if after.Status() != rules.Ongoing {
		parts = append(parts, "ends the game")
	}
	if len(parts) == 0 {
		return "no capture"
	}
	return strings.Join(parts, "; ")
}

// standing is seat's score in g where g keeps one (a rules.Scorer).
func standing(g rules.Game, seat rules.Player) (score int, what string, ok bool) {
	sc, isScorer := g.(rules.Scorer)
	if !isScorer {
		return 0, "", false
	}
	scores, what := sc.Standing()
	return scores[seat], what, true
}
