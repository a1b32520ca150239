package engine

import (
	"cmp"
	"context"
	"slices"
	"time"

	"arbiter/rules"
)

// inf is beyond every score.
const inf = Mate + 1

// maxEval bounds what an evaluation may return, far from the mate scores.
const maxEval = 20000

// maxQDepth bounds the quiescence search below the main search's leaves.
const maxQDepth = 8

// Reverse futility pruning: within futilityDepth plies of the leaves, a
// position whose evaluation stands futilityMargin (hundredths of a piece)
// a ply above beta fails high unsearched; a rules.Pruner sets its own
// margin. A position whose evaluation improves on the same player's two
// plies up needs a ply's margin less. Self-play at 20 ms a move accepted
// it in Hi-Ya! and Upthrust, and the improving rule in Hi-Ya!
// (docs/explanation/strength.md).
const (
	futilityDepth  = 3
	futilityMargin = 150
)

// Aspiration windows: from aspirationDepth on, an iteration searches a
// window of aspirationWindow (hundredths of a piece) either side of the last
// iteration's score, widening it on the side that fails.
const (
	aspirationDepth  = 5
	aspirationWindow = 50
)

// Internal iterative reduction: a node of iirDepth plies or more without a
// move from the table is searched a ply shallower. Self-play at 20 ms a move
// accepted it in Hi-Ya!, Upthrust and HiQUE (docs/explanation/strength.md).
const iirDepth = 4

// noStatic marks a ply of the line whose evaluation was not taken.
const noStatic = maxEval + 1

// historyBits sets the number of history slots a side (a hash of the
// move): 1<<historyBits.
const historyBits = 12

// Move ordering scores: the hash move, then tactical moves, then killers,
// then quiet moves by history (below killerScore).
const (
	hashMoveScore = 1 << 30
	tacticalScore = 1 << 28
	killerScore   = 1 << 27
	historyMax    = 1 << 20
)

// Searcher searches positions of one game type G: the rules.Game
// interface, as Engine uses it, or a concrete type (see the package doc). A Searcher holds the per-ply move lists, killers and history; it is
// not safe for concurrent use. Reuse one: it is large.
type Searcher[G rules.Game] struct {
	g    G
	eval func(G) int
	tt   *Table
	salt uint64 // mixed into every key, so that games sharing a table never meet
	ctx  context.Context

	nodes, maxNodes uint64
	deadline        time.Time
	hasDeadline     bool
	stopped         bool

	lists    [MaxPly + 1]rules.MoveList
	order    [MaxPly + 1][rules.MaxMoves]int32
	tactical [MaxPly + 1][rules.MaxMoves]bool
	killers  [MaxPly + 1][2]rules.Move
	static   [MaxPly + 1]int // the evaluation at each ply of the line, for player 1; noStatic where not taken
	history  [2][1 << historyBits]int32
	pv       [MaxPly + 1][MaxPly + 1]rules.Move
	pvLen    [MaxPly + 1]int

	// The root: its moves in search order, the exact scores of the last
	// completed iteration (when exactRoot), and the best move of the
	// iteration in progress.
	root       []rules.Move
	rootScores []int
	exactRoot  bool
	iterBest   rules.Move
	iterScore  int

	margin int            // reverse futility pruning's, for the game searched
	calm   bool           // the game has no tactical moves: quiescence stands pat
	finish rules.Finisher // the game searched, when calm and it finds wins in one; else nil
	narrow rules.Narrower // the game searched, when it narrows its moves; else nil
}

// NewSearcher returns a searcher that scores leaves with eval (nil means
// the game's own Evaluate) and uses tt (nil means a fresh table of
// DefaultTableMB).
func NewSearcher[G rules.Game](tt *Table, eval func(G) int) *Searcher[G] {
	if tt == nil {
		tt = NewTable(DefaultTableMB)
	}
	if eval == nil {
		eval = func(g G) int { return g.Evaluate() }
	}
	return &Searcher[G]{tt: tt, eval: eval}
}

// Search searches g's position within lim and ctx and returns the best move
// found with its score and costs. g is not changed: the search plays on a
// clone. When the position has a legal move, Info.Move is one of them,
// however small the limits.
func (s *Searcher[G]) Search(ctx context.Context, g G, lim Limits) Info {
	info, _ := s.search(ctx, g, lim, false, time.Now())
	return info
}

// search is Search that, with exactRoot, scores every root move exactly
// (a full window for each) and also returns those scores in root order.
// The move time counts from start.
func (s *Searcher[G]) search(ctx context.Context, g G, lim Limits, exactRoot bool, start time.Time) (Info, []rootScore) {
	s.begin(ctx, lim, start)
	s.exactRoot = exactRoot
	s.g = g.Clone().(G)
	s.salt = gameSalt(s.g.Name())
	s.margin = futilityMarginOf(s.g)
	s.calm = isCalm(s.g)
	s.narrow, _ = rules.Game(s.g).(rules.Narrower)
	s.finish = nil
	if f, ok := rules.Game(s.g).(rules.Finisher); ok && s.calm && f.Finishes() {
		s.finish = f
	}
	defer func() { var zero G; s.g = zero; s.ctx = nil; s.narrow = nil; s.finish = nil }()

	var list rules.MoveList
	s.g.Moves(&list)
	if s.narrow != nil && !exactRoot {
		s.narrow.Narrow(&list) // exactRoot scores every legal move
	}
	info := Info{Move: rules.NoMove}
	if list.N == 0 {
		info.Elapsed = time.Since(start)
		return info, nil
	}
	s.root = append(s.root[:0], list.Slice()...)
	s.rootScores = s.rootScores[:0]
	for range s.root {
		s.rootScores = append(s.rootScores, -inf)
	}
	if hm, _, _, _, ok := s.tt.probe(s.g.Hash() ^ s.salt); ok {
		s.toFront(hm)
	}
	info.Move = s.root[0] // a legal answer before any search

	maxDepth := MaxDepth
	if lim.Depth > 0 && lim.Depth < maxDepth {
		maxDepth = lim.Depth
	}
	if len(s.root) == 1 && !exactRoot && lim.Depth == 0 {
		maxDepth = 1 // a forced move: score it, spend no time
	}
	var scores []rootScore
	for depth := 1; depth <= maxDepth; depth++ {
		s.iterBest, s.iterScore = rules.NoMove, -inf
		score := s.aspire(depth, info.Score)
		if s.stopped {
			if s.iterBest != rules.NoMove && !exactRoot {
				info.Move, info.Score = s.iterBest, s.iterScore
				info.PV = s.pvLine()
				if len(info.PV) == 0 || info.PV[0] != info.Move {
					// A move that failed high, stopped in its search again.
					info.PV = []rules.Move{info.Move}
				}
			}
			if exactRoot && depth == 1 {
				// Stopped inside the first iteration: the moves scored
				// so far, rather than none.
				for i, m := range s.root {
					if s.rootScores[i] > -inf {
						scores = append(scores, rootScore{Move: m, Score: s.rootScores[i]})
					}
				}
			}
			break
		}
		info.Move, info.Score, info.Depth = s.iterBest, score, depth
		info.PV = s.pvLine()
		if exactRoot {
			scores = scores[:0]
			for i, m := range s.root {
				scores = append(scores, rootScore{Move: m, Score: s.rootScores[i]})
			}
		}
		if !exactRoot && depth == 1 && s.calm && s.finish == nil {
			s.sortRoot()
		}
		s.toFront(info.Move)
		if s.hasDeadline && !deepen(time.Since(start), s.deadline.Sub(start)) {
			break // too little time left for the next iteration to matter
		}
		if n, ok := MateIn(score); ok && !exactRoot && 2*abs(n) <= depth {
			break // a forced end within the horizon: deeper changes nothing
		}
	}
	info.Nodes = s.nodes
	info.Elapsed = time.Since(start)
	return info, scores
}

// rootScore is a root move with its exact score.
type rootScore struct {
	Move  rules.Move
	Score int
}

// reset forgets the move-ordering memory kept from one search to the next.
func (s *Searcher[G]) reset() {
	s.killers = [MaxPly + 1][2]rules.Move{}
	s.history = [2][1 << historyBits]int32{}
}

// begin resets the per-search state.
func (s *Searcher[G]) begin(ctx context.Context, lim Limits, start time.Time) {
	s.ctx = ctx
	s.nodes = 0
	s.maxNodes = lim.Nodes
	if s.maxNodes == 0 {
		s.maxNodes = ^uint64(0)
	}
	s.hasDeadline = lim.MoveTime > 0
	if s.hasDeadline {
		s.deadline = start.Add(lim.MoveTime - safetyMargin(lim.MoveTime))
	}
	if d, ok := ctx.Deadline(); ok && (!s.hasDeadline || d.Before(s.deadline)) {
		s.hasDeadline = true
		s.deadline = d.Add(-safetyMargin(time.Until(d)))
	}
	s.stopped = false
	s.killers = [MaxPly + 1][2]rules.Move{}
	for side := range s.history {
		for i := range s.history[side] {
			s.history[side][i] /= 8
		}
	}
	s.tt.newSearch()
	s.tt.fit(lim.MoveTime)
}

// futilityMarginOf returns the margin of reverse futility pruning for g:
// its own if it is a rules.Pruner, else futilityMargin.
func futilityMarginOf(g rules.Game) int {
	if p, ok := g.(rules.Pruner); ok {
		return p.FutilityMargin()
	}
	return futilityMargin
}

// isCalm reports whether g is a rules.Calm game that says it is calm.
func isCalm(g rules.Game) bool {
	c, ok := g.(rules.Calm)
	return ok && c.Calm()
}

// safetyMargin is the time a search keeps back from its move time for
// returning the move and for a busy machine's scheduling delays: a tenth of
// the move time, at most 50 ms.
func safetyMargin(d time.Duration) time.Duration {
	return max(0, min(d/10, 50*time.Millisecond))
}

// deepen reports whether a search that has used elapsed of its budget
// starts another iteration: while a quarter of the budget is left. An
// iteration that the clock stops still counts: its first root move is the
// last iteration's best, searched one ply deeper, and any move found better
// after it replaces it.
func deepen(elapsed, budget time.Duration) bool {
	return elapsed < budget-budget/4
}

// tick counts a node and reports whether the search must stop: the node
// limit at every node, the clock and the context every 256 nodes.
func (s *Searcher[G]) tick() bool {
	if s.stopped {
		return true
	}
	if s.nodes >= s.maxNodes {
		s.stopped = true
		return true
	}
	s.nodes++
	if s.nodes&255 == 0 {
		if s.ctx.Err() != nil || (s.hasDeadline && !time.Now().Before(s.deadline)) {
			s.stopped = true
			return true
		}
	}
	return false
}

// sortRoot orders the root moves by their scores in the first iteration,
// best first, keeping the order of equal scores, so that an iteration the
// clock stops has searched the likeliest moves. The search sorts in calm
// games alone, where the first iteration's scores are the evaluation after
// each move, and only once: a deeper iteration's score for a move after
// the first is a bound from a null window, and ordering by those lost in
// Pentago; in Hi-Ya! the order gained nothing. A game that finds wins in
// one at its leaves (rules.Finisher: Pentago) keeps its listed order, with
// which it loses fewer games against greedy.
func (s *Searcher[G]) sortRoot() {
	byScore := make([]rootScore, len(s.root))
	for i, m := range s.root {
		byScore[i] = rootScore{Move: m, Score: s.rootScores[i]}
	}
	slices.SortStableFunc(byScore, func(a, b rootScore) int { return cmp.Compare(b.Score, a.Score) })
	for i, r := range byScore {
		s.root[i], s.rootScores[i] = r.Move, r.Score
	}
}

// toFront moves m to the front of the root moves, keeping the others'
// order, and its score with it.
func (s *Searcher[G]) toFront(m rules.Move) {
	for i, r := range s.root {
		if r == m {
			sc := s.rootScores[i]
			copy(s.root[1:i+1], s.root[:i])
			copy(s.rootScores[1:i+1], s.rootScores[:i])
			s.root[0], s.rootScores[0] = m, sc
			return
		}
	}
}

// aspire searches the root to depth in a window around last, the previous
// iteration's score, and searches again with the window widened on the side
// where the score fell outside it. A move that fails high stays the
// iteration's best through the search again.
func (s *Searcher[G]) aspire(depth, last int) int {
	alpha, beta := -inf, inf
	delta := aspirationWindow
	if depth >= aspirationDepth && !s.exactRoot && abs(last) < MateBound {
		alpha, beta = last-delta, last+delta
	}
	for {
		score := s.searchRoot(depth, alpha, beta)
		switch {
		case s.stopped:
			return score
		case score <= alpha && alpha > -inf:
			alpha = max(-inf, score-delta)
		case score >= beta && beta < inf:
			beta = min(inf, score+delta)
			s.toFront(s.iterBest)
		default:
			return score
		}
		delta *= 2
	}
}

// searchRoot searches every root move to depth in the window (alpha, beta)
// and returns the best score. It records the iteration's best move as soon
// as one scores above alpha.
func (s *Searcher[G]) searchRoot(depth, alpha, beta int) int {
	g := s.g
	origAlpha := alpha
	best := -inf
	s.pvLen[0] = 0
	if s.tick() {
		return best
	}
	side := g.ToMove()
	for i, m := range s.root {
		g.Play(m)
		var score int
		if i == 0 || s.exactRoot {
			score = s.child(side, depth-1, 1, alpha, beta, true)
		} else {
			score = s.child(side, depth-1, 1, alpha, alpha+1, false)
			if score > alpha && !s.stopped {
				score = s.child(side, depth-1, 1, alpha, beta, true)
			}
		}
		g.Undo()
		if s.stopped {
			break
		}
		s.rootScores[i] = score
		if score > best {
			best = score
			if score > origAlpha {
				s.iterBest, s.iterScore = m, score
				s.pv[0][0] = m
				copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
				s.pvLen[0] = max(s.pvLen[1], 1)
			}
			if !s.exactRoot && score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	if !s.stopped && s.iterBest != rules.NoMove && best < beta {
		s.tt.store(g.Hash()^s.salt, s.iterBest, toTT(best, 0), depth, boundExact)
	}
	return best
}

// pvLine returns a copy of the root's principal variation.
func (s *Searcher[G]) pvLine() []rules.Move {
	n := s.pvLen[0]
	if n < 1 {
		return nil
	}
	return append([]rules.Move(nil), s.pv[0][:n]...)
}

// terminal scores a finished game for the player to move at ply.
func (s *Searcher[G]) terminal(r rules.Result, ply int) int {
	return resultScore(r, s.g.ToMove(), ply)
}

// evaluate returns the evaluation, kept within ±maxEval.
func (s *Searcher[G]) evaluate() int {
	return clampEval(s.eval(s.g))
}

func clampEval(v int) int {
	if v > maxEval {
		return maxEval
	}
	if v < -maxEval {
		return -maxEval
	}
	return v
}

// child searches the position after a move by side, to depth, within
// alpha and beta as side sees them, and returns its score for side: the
// opponent's score negated, or the position's own score when the rules
// give side the next move too (a move again).
func (s *Searcher[G]) child(side rules.Player, depth, ply, alpha, beta int, pvNode bool) int {
	if s.g.ToMove()&1 == side&1 {
		return s.negamax(depth, ply, alpha, beta, pvNode)
	}
	return -s.negamax(depth, ply, -beta, -alpha, pvNode)
}

// negamax searches the current position to depth with the window
// (alpha, beta) and returns its score for the player to move. pvNode marks
// the principal variation, where the table's bounds do not cut.
func (s *Searcher[G]) negamax(depth, ply, alpha, beta int, pvNode bool) int {
	s.pvLen[ply] = ply
	if s.tick() {
		return 0
	}
	g := s.g
	if r := g.Status(); r != rules.Ongoing {
		return s.terminal(r, ply)
	}
	if ply >= MaxPly-maxQDepth-1 {
		return s.evaluate()
	}
	// Mate distance: no line from here beats a win at the next ply.
	if a := -Mate + ply; alpha < a {
		alpha = a
		if alpha >= beta {
			return alpha
		}
	}
	if b := Mate - ply - 1; beta > b {
		beta = b
		if alpha >= beta {
			return beta
		}
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta, 0)
	}

	key := g.Hash() ^ s.salt
	hashMove := rules.NoMove
	if m, sc, d, b, ok := s.tt.probe(key); ok {
		hashMove = m
		if !pvNode && d >= depth {
			sc = fromTT(sc, ply)
			if b == boundExact || (b == boundLower && sc >= beta) || (b == boundUpper && sc <= alpha) {
				return sc
			}
		}
	}

	// Internal iterative reduction: a node with no move from the table is
	// searched a ply shallower, its move ordering being a guess; the next
	// iteration, with the move this one finds, searches it in full.
	if hashMove == rules.NoMove && depth >= iirDepth {
		depth--
	}

	// Reverse futility pruning (s.margin), off the principal variation.
	s.static[ply] = noStatic
	if !pvNode && depth <= futilityDepth && beta > -MateBound && beta < MateBound {
		stand := s.evaluate()
		d := depth
		if s.improving(ply, g.ToMove(), stand) {
			d-- // a ply's margin less
		}
		if stand-s.margin*d >= beta {
			return stand
		}
	}

	list := &s.lists[ply]
	list.Reset()
	g.Moves(list)
	if list.N == 0 {
		return s.evaluate()
	}
	if s.narrow != nil {
		s.narrow.Narrow(list)
	}
	side := g.ToMove() & 1
	s.orderMoves(ply, side, hashMove)

	origAlpha := alpha
	best, bestMove := -inf, rules.NoMove
	for i := 0; i < list.N; i++ {
		m, tactical := s.pick(ply, i)
		quiet := !tactical && m != hashMove && m != s.killers[ply][0] && m != s.killers[ply][1]
		g.Play(m)
		var score int
		if i == 0 {
			score = s.child(side, depth-1, ply+1, alpha, beta, pvNode)
		} else {
			r := 0
			if quiet && depth >= 3 && i >= 3 {
				r = 1
				if depth >= 6 && i >= 8 {
					r = 2
				}
			}
			score = s.child(side, depth-1-r, ply+1, alpha, alpha+1, false)
			if score > alpha && r > 0 && !s.stopped {
				score = s.child(side, depth-1, ply+1, alpha, alpha+1, false)
			}
			if score > alpha && score < beta && pvNode && !s.stopped {
				score = s.child(side, depth-1, ply+1, alpha, beta, true)
			}
		}
		g.Undo()
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if score >= beta {
					if !tactical {
						s.rememberCutoff(ply, side, m, depth)
					}
					break
				}
			}
		}
	}
	b := boundExact
	switch {
	case best >= beta:
		b = boundLower
	case best <= origAlpha:
		b = boundUpper
		bestMove = hashMove // no move proved best: keep what was known
	}
	s.tt.store(key, bestMove, toTT(best, ply), depth, b)
	return best
}

// quiesce searches only tactical moves below the main search's leaves, so
// that no leaf is scored in the middle of an exchange. The player to move
// may stand pat on the evaluation.
func (s *Searcher[G]) quiesce(ply, alpha, beta, qdepth int) int {
	s.pvLen[ply] = ply
	if s.tick() {
		return 0
	}
	g := s.g
	if r := g.Status(); r != rules.Ongoing {
		return s.terminal(r, ply)
	}
	stand := s.evaluate()
	if s.finish != nil && stand < beta && s.finish.WinningMove() != rules.NoMove {
		return Mate - (ply + 1) // the player to move wins with its next move
	}
	if qdepth >= maxQDepth || ply >= MaxPly-1 || stand >= beta || s.calm {
		return stand
	}
	if stand > alpha {
		alpha = stand
	}
	best := stand
	list := &s.lists[ply]
	list.Reset()
	g.Moves(list)
	for i := 0; i < list.N; i++ {
		m := list.Moves[i]
		if !g.Tactical(m) {
			continue
		}
		mover := g.ToMove()
		g.Play(m)
		var score int
		if g.ToMove() == mover { // the mover moves again
			score = s.quiesce(ply+1, alpha, beta, qdepth+1)
		} else {
			score = -s.quiesce(ply+1, -beta, -alpha, qdepth+1)
		}
		g.Undo()
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// improving records stand, the evaluation at ply for side, and reports
// whether it is better for side than the evaluation two plies up, when
// that was taken.
func (s *Searcher[G]) improving(ply int, side rules.Player, stand int) bool {
	forP1 := stand
	if side&1 != 0 {
		forP1 = -stand
	}
	s.static[ply] = forP1
	if ply < 2 || s.static[ply-2] == noStatic {
		return false
	}
	if side&1 != 0 {
		return forP1 < s.static[ply-2]
	}
	return forP1 > s.static[ply-2]
}

// orderMoves gives each move at ply its ordering score and tactical flag.
func (s *Searcher[G]) orderMoves(ply int, side rules.Player, hashMove rules.Move) {
	g := s.g
	list := &s.lists[ply]
	order := &s.order[ply]
	tact := &s.tactical[ply]
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	hist := &s.history[side]
	for i, m := range list.Moves[:list.N] {
		t := !s.calm && g.Tactical(m) // a calm game has no tactical move
		tact[i] = t
		var v int32
		switch {
		case m == hashMove:
			v = hashMoveScore
		case t:
			v = tacticalScore + hist[historyIndex(m)]
		case m == k0:
			v = killerScore + 1
		case m == k1:
			v = killerScore
		default:
			v = hist[historyIndex(m)]
		}
		order[i] = v
	}
}

// pick swaps the best-ordered of the moves from i on into place i and
// returns it with its tactical flag (selection sort, lazily).
func (s *Searcher[G]) pick(ply, i int) (rules.Move, bool) {
	list := &s.lists[ply]
	order := &s.order[ply]
	tact := &s.tactical[ply]
	best := i
	for j := i + 1; j < list.N; j++ {
		if order[j] > order[best] {
			best = j
		}
	}
	if best != i {
		list.Moves[i], list.Moves[best] = list.Moves[best], list.Moves[i]
		order[i], order[best] = order[best], order[i]
		tact[i], tact[best] = tact[best], tact[i]
	}
	return list.Moves[i], tact[i]
}

// rememberCutoff credits a quiet move that caused a beta cutoff.
func (s *Searcher[G]) rememberCutoff(ply int, side rules.Player, m rules.Move, depth int) {
	if s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	h := &s.history[side][historyIndex(m)]
	*h += int32(depth * depth)
	if *h > historyMax {
		for i := range s.history[side] {
			s.history[side][i] /= 2
		}
	}
}

// historyIndex hashes a move to its history slot.
func historyIndex(m rules.Move) uint32 {
	return (uint32(m) * 2654435761) >> (32 - historyBits)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// gameSalt hashes a game's name (FNV-1a).
func gameSalt(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}
