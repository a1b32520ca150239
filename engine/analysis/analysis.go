// Package analysis is the engine's review of a finished game: for every
// move the evaluation before it, the engine's best move, the evaluation
// after the move played, the expected score it lost and a class (best,
// good, inaccuracy, mistake, blunder, forced); for each player an accuracy
// from 0 to 100 and the count of each class.
//
// Evaluations are the engine's scores (engine.Info.Score) in the game's own
// unit, hundredths of a piece, always from player 1's side; a forced result
// the engine sees is ±(engine.Mate - plies to the end). An evaluation e
// becomes player 1's expected score by the game's logistic curve,
// 1/(1+exp(-K·e)), with K fitted on Arbiter's self-play (Curve, CurveFor;
// docs/explanation/analysis.md tells how and gives the command). A move's
// loss is the expected score the mover had before it (after the engine's
// best move) minus what it has after the move played, in percentage points;
// the classes are thresholds on it (BestLoss ... BlunderLoss), and a move into a forced
// loss the engine sees, from a position that was not lost, is a blunder
// whatever the numbers.
//
// Every position of the game is searched once, one position per worker, on
// as many workers as there are cores. Each search starts from a cleared
// engine, so with a depth limit and no move time the analysis is the same
// on every run and machine.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/rules"
)

// Class is what a move was worth, in the words of the review.
type Class string

// The classes, from best to worst; Forced is a move that was the only legal
// one.
const (
	Best       Class = "best"
	Good       Class = "good"
	Inaccuracy Class = "inaccuracy"
	Mistake    Class = "mistake"
	Blunder    Class = "blunder"
	Forced     Class = "forced"
)

// Thresholds are the losses of expected score, in percentage points, from
// which a move is an inaccuracy, a mistake or a blunder (lichess's 5, 10
// and 15 points of win percentage). A move that loses at most BestLoss is
// best (the engine's own choice loses nothing); one below Inaccuracy is
// good.
const (
	BestLoss        = 1.0
	InaccuracyLoss  = 5.0
	MistakeLoss     = 10.0
	BlunderLoss     = 15.0
	maxAccuracyMove = 100.0
)

// LostScore is the expected score below which a player is lost: its moves
// from such a position keep their class but leave its accuracy alone, since
// a lost player has nothing left to lose on the curve and every move would
// count as perfect.
const LostScore = 0.02

// Options tune an analysis.
type Options struct {
	// Limits bound the search of each position: a move time, a depth or
	// both. With a depth and no move time the analysis is deterministic.
	// With none, a second a position.
	Limits engine.Limits
	// Workers is the number of positions searched at once
	// (runtime.NumCPU() when 0 or less).
	Workers int
	// TableMB is each worker's transposition table (8 when 0 or less).
	TableMB int
	// Progress, when set, is called after each position with the number of
	// positions done and their total, from one goroutine at a time.
	Progress func(done, total int)
	// Curve turns evaluations into expected scores (CurveFor the game
	// when zero).
	Curve Curve
}

// MoveReview is the review of one move.
type MoveReview struct {
	Ply        int          // from 1
	Player     rules.Player // who played it
	Move       string       // as played, in canonical notation
	Best       string       // the engine's best move in the position before it
	EvalBefore int          // the position before the move, with the best move: player 1's side
	EvalAfter  int          // the position after the move played: player 1's side
	Loss       float64      // expected score lost by the mover, in percentage points (0 to 100)
	Class      Class
	Accuracy   float64 // the move's accuracy, 0 to 100
	// Why says in words what made the move an inaccuracy, a mistake or a
	// blunder; "" for the other classes.
	Why string
}

// PlayerReview sums up one player's moves.
type PlayerReview struct {
	Name     string
	Accuracy float64 // 0 to 100, over the player's moves that were neither forced nor made when lost (LostScore)
	Counts   map[Class]int
	Moves    int // moves played, forced ones included
}

// Report is the review of a whole game.
type Report struct {
	Game    string          // the game's registry name
	Players [2]PlayerReview // player 1 first
	Moves   []MoveReview
	Over    bool          // the moves end the game by its rules
	Limits  engine.Limits // what each position was searched with
	Elapsed time.Duration
}

// Plan is a game's analysis in parts, for callers that schedule the
// searches themselves (the bot searches a position only while a bot-turn
// worker is idle): the positions to search, each searched with Search on
// any engine in any order, then Report. A Plan's methods other than Search
// are not safe for concurrent use; Search of distinct positions is.
type Plan struct {
	start     rules.Game
	end       rules.Game
	moves     []rules.Move
	names     [2]string
	positions []rules.Game
	texts     []string
	lim       engine.Limits
	curve     Curve
}

// Verdict is the engine's verdict on one position of a Plan.
type Verdict struct {
	Best  rules.Move   // rules.NoMove in a finished game
	Score int          // for the player to move
	Moves int          // legal moves
	Line  []rules.Move // the line the engine expects, from Best; may be empty
}

// NewPlan replays the moves played from start (which is not changed),
// naming the players names (player 1 first; the game's own words for them
// when empty), with the limits and curve of opt. Its error names a move
// that is not legal.
func NewPlan(start rules.Game, moves []rules.Move, names [2]string, opt Options) (*Plan, error) {
	lim := opt.Limits
	if lim.MoveTime == 0 && lim.Depth == 0 && lim.Nodes == 0 {
		lim.MoveTime = time.Second
	}
	curve := opt.Curve
	if curve.K == 0 {
		curve = CurveFor(start.Name())
	}
	g := start.Clone()
	p := &Plan{start: start.Clone(), moves: append([]rules.Move(nil), moves...), names: names,
		texts: make([]string, len(moves)), lim: lim, curve: curve}
	var list rules.MoveList
	for i, m := range moves {
		p.positions = append(p.positions, g.Clone())
		g.Moves(&list)
		if !list.Contains(m) {
			return nil, fmt.Errorf("analysis: move %d is not legal in its position", i+1)
		}
		p.texts[i] = g.FormatMove(m)
		g.Play(m)
	}
	p.positions = append(p.positions, g.Clone())
	p.end = g
	return p, nil
}

// Positions returns the number of positions to search: one more than the
// moves.
func (p *Plan) Positions() int { return len(p.positions) }

// Search searches position i (0 is the start) on eng, cleared first, and
// returns its verdict; with ctx ended early the verdict is not to be used
// (check ctx.Err()).
func (p *Plan) Search(ctx context.Context, eng *engine.Engine, i int) Verdict {
	var list rules.MoveList
	return judge(ctx, eng, p.positions[i], p.lim, &list)
}

// Recheck searches again the positions before the moves whose verdicts
// disagree: the search after a move found a forced loss for its mover
// where the search before it did not (a search of limited depth may choose
// a move whose loss only the search after it, a move deeper, sees). Each
// such position is searched on eng after the position the move led to,
// without clearing the engine in between, so that the search before knows
// what the search after found: if a move that does not lose exists, it
// finds it, and the move played is a blunder. It corrects verdicts in place
// and returns how many positions it searched again; with ctx ended early
// the verdicts it had not reached are left as they were.
func (p *Plan) Recheck(ctx context.Context, eng *engine.Engine, verdicts []Verdict) int {
	if len(verdicts) != len(p.positions) {
		return 0
	}
	n := 0
	var list rules.MoveList
	for i := range p.moves {
		if ctx.Err() != nil || !p.disagree(verdicts, i) {
			continue
		}
		eng.Reset()
		eng.Search(ctx, p.positions[i+1], p.lim)
		info := eng.Search(ctx, p.positions[i], p.lim)
		if ctx.Err() != nil {
			break
		}
		p.positions[i].Moves(&list)
		verdicts[i] = Verdict{Best: info.Move, Score: info.Score, Moves: list.N, Line: info.PV}
		if p.disagree(verdicts, i) { // the table did not carry it: try each other move
			verdicts[i] = p.alternatives(ctx, eng, i, verdicts[i+1].Score, &list)
		}
		n++
	}
	return n
}

// alternatives is the verdict on the position before move i from a search
// of the position after each of its legal moves: the best of them for the
// mover, the move played counting afterScore (the score after it, for the
// player to move then). A move time is shared among the moves.
func (p *Plan) alternatives(ctx context.Context, eng *engine.Engine, i int, afterScore int, list *rules.MoveList) Verdict {
	before := p.positions[i]
	lim := p.lim
	if lim.MoveTime > 0 {
		lim.MoveTime = max(lim.MoveTime/time.Duration(max(list.N, 1)), 10*time.Millisecond)
	}
	played := p.moves[i]
	if p.positions[i+1].ToMove() != before.ToMove() {
		afterScore = -afterScore
	}
	best := Verdict{Best: played, Score: afterScore, Moves: list.N}
	g := before.Clone()
	for _, m := range list.Slice() {
		if m == played || ctx.Err() != nil {
			continue
		}
		g.Play(m)
		var score int
		if g.Status() != rules.Ongoing {
			score = judge(ctx, eng, g, lim, &rules.MoveList{}).Score
		} else {
			eng.Reset()
			score = eng.Search(ctx, g, lim).Score
		}
		if g.ToMove() != before.ToMove() {
			score = -score
		}
		g.Undo()
		if score > best.Score {
			best.Best, best.Score = m, score
		}
	}
	return best
}

// disagree reports whether the verdicts around move i disagree: the
// position after it is lost by force for the mover, the one before was not,
// and the mover had a choice.
func (p *Plan) disagree(verdicts []Verdict, i int) bool {
	before, after := p.positions[i], p.positions[i+1]
	mover := before.ToMove()
	return verdicts[i].Moves > 1 && lostFor(forP1(verdicts[i+1].Score, after.ToMove()), mover) &&
		!lostFor(forP1(verdicts[i].Score, mover), mover)
}

// Report assembles the review from the verdicts of every position, in
// order, taking elapsed as the analysis's time.
func (p *Plan) Report(verdicts []Verdict, elapsed time.Duration) (*Report, error) {
	if len(verdicts) != len(p.positions) {
		return nil, fmt.Errorf("analysis: %d verdicts for %d positions", len(verdicts), len(p.positions))
	}
	rep := &Report{Game: p.start.Name(), Limits: p.lim, Over: p.end.Status() != rules.Ongoing, Elapsed: elapsed}
	for i := range rep.Players {
		rep.Players[i] = PlayerReview{Name: p.names[i], Counts: map[Class]int{}}
		if p.names[i] == "" {
			rep.Players[i].Name = p.start.PlayerName(rules.Player(i))
		}
	}
	accs := [2][]float64{}
	for i, m := range p.moves {
		before, after := p.positions[i], p.positions[i+1]
		mover := before.ToMove()
		v := verdicts[i]
		mr := MoveReview{
			Ply:        before.Ply() + 1,
			Player:     mover,
			Move:       p.texts[i],
			Best:       before.FormatMove(v.Best),
			EvalBefore: forP1(v.Score, mover),
			EvalAfter:  forP1(verdicts[i+1].Score, after.ToMove()),
		}
		esBefore := p.curve.Expected(mr.EvalBefore, mover)
		esAfter := p.curve.Expected(mr.EvalAfter, mover)
		if m != v.Best {
			mr.Loss = max(0, 100*(esBefore-esAfter))
		}
		mr.Class = classify(mr.Loss, v.Moves, m == v.Best, lostFor(mr.EvalBefore, mover), lostFor(mr.EvalAfter, mover))
		mr.Accuracy = moveAccuracy(mr.Loss)
		mr.Why = why(mr, 100*esBefore, 100*esAfter)
		if mr.Why != "" && !lostFor(mr.EvalAfter, mover) {
			if counts := p.inTerms(i, v, verdicts[i+1]); counts != "" {
				mr.Why += "; " + counts
			}
		}
		pr := &rep.Players[mover]
		pr.Counts[mr.Class]++
		pr.Moves++
		if mr.Class != Forced && esBefore >= LostScore {
			accs[mover] = append(accs[mover], mr.Accuracy)
		}
		rep.Moves = append(rep.Moves, mr)
	}
	for i := range rep.Players {
		rep.Players[i].Accuracy = gameAccuracy(accs[i])
	}
	return rep, nil
}

// Analyse reviews the moves played from start (which is not changed),
// naming the players names (player 1 first; the game's own words for them
// when empty), searching the positions on opt.Workers workers. It returns
// ctx's error if ctx ends first, and an error naming the move when a move
// is not legal.
func Analyse(ctx context.Context, start rules.Game, moves []rules.Move, names [2]string, opt Options) (*Report, error) {
	began := time.Now()
	p, err := NewPlan(start, moves, names, opt)
	if err != nil {
		return nil, err
	}
	verdicts, err := searchAll(ctx, p, opt)
	if err != nil {
		return nil, err
	}
	p.Recheck(ctx, engine.NewEngine(tableMB(opt)), verdicts)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	return p.Report(verdicts, time.Since(began))
}

// searchAll searches every position on the workers and returns the
// verdicts in order.
func searchAll(ctx context.Context, p *Plan, opt Options) ([]Verdict, error) {
	positions := p.positions
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, len(positions))
	tableMB := tableMB(opt)
	out := make([]Verdict, len(positions))
	jobs := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := engine.NewEngine(tableMB)
			for i := range jobs {
				out[i] = p.Search(ctx, eng, i)
				done <- i
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range positions {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	n := 0
	for range done {
		n++
		if opt.Progress != nil {
			opt.Progress(n, len(positions))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	if n != len(positions) {
		return nil, errors.New("analysis: not every position was searched")
	}
	return out, nil
}

// tableMB is the transposition table of each of opt's workers.
func tableMB(opt Options) int {
	if opt.TableMB <= 0 {
		return 8
	}
	return opt.TableMB
}

// judge searches one position from a cleared engine.
func judge(ctx context.Context, eng *engine.Engine, g rules.Game, lim engine.Limits, list *rules.MoveList) Verdict {
	g.Moves(list)
	if r := g.Status(); r != rules.Ongoing || list.N == 0 {
		// The game is over: won, lost or drawn for the side to move.
		score := 0
		if w, ok := r.Winner(); ok {
			score = -engine.Mate
			if w == g.ToMove() {
				score = engine.Mate
			}
		}
		return Verdict{Best: rules.NoMove, Score: score}
	}
	eng.Reset()
	info := eng.Search(ctx, g, lim)
	return Verdict{Best: info.Move, Score: info.Score, Moves: list.N, Line: info.PV}
}

// forP1 turns a score for the player to move into player 1's.
func forP1(score int, toMove rules.Player) int {
	if toMove == rules.P2 {
		return -score
	}
	return score
}

// lostFor reports whether the evaluation (player 1's side) is a forced
// loss for p.
func lostFor(eval int, p rules.Player) bool {
	return forP1(eval, p) < -engine.MateBound
}

// classify gives a move its class from its loss, the number of legal moves
// in its position, whether it was the engine's choice, and whether the
// mover was lost by force before it and after it.
func classify(loss float64, legal int, engineMove, lostBefore, lostAfter bool) Class {
	switch {
	case legal == 1:
		return Forced
	case engineMove:
		return Best
	case lostAfter && !lostBefore:
		return Blunder
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	case loss <= BestLoss:
		return Best
	}
	return Good
}

// why says in words what made m an inaccuracy, a mistake or a blunder,
// from the mover's expected scores before (with the engine's move) and
// after it, in percent; "" for the other classes.
func why(m MoveReview, before, after float64) string {
	switch m.Class {
	case Inaccuracy, Mistake, Blunder:
	default:
		return ""
	}
	if lostFor(m.EvalAfter, m.Player) && !lostFor(m.EvalBefore, m.Player) {
		n, _ := engine.MateIn(forP1(m.EvalAfter, m.Player))
		return fmt.Sprintf("it walks into a forced loss (the opponent wins in %d moves at most, whatever is played); %s did not lose", -n, m.Best)
	}
	return fmt.Sprintf("the mover's expected score falls from %.0f%% to %.0f%%, %.1f points; %s keeps %.0f%%", before, after, m.Loss, m.Best, before)
}
