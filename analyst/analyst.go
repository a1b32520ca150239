// Package analyst makes the analyses of finished games that people ask
// for (/analyse, the wall, a review page), taking them from the store's
// analysis line (store.Analyses): any process that runs bot-turn workers
// takes a game with a lease it renews, searches its positions with as
// many searches as it has workers, each only while none of its workers
// has a bot turn (Gate), keeps the result in the store and posts it once
// in each channel that asked. A process that dies leaves its game to the
// next that claims it after the lease, with the positions it recorded as
// searched.
package analyst

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/store"
)

// Defaults of Config.
const (
	DefaultLease = 15 * time.Second       // a game held without renewal
	DefaultPoll  = 500 * time.Millisecond // how often an idle analyst looks at the line
	tableMB      = 8                      // each search's table: small, it is cleared before each position
)

// Work is what an analyst needs to make one game's analysis.
type Work struct {
	// Plan is the game's positions and the limits of their searches.
	Plan *analysis.Plan
	// Result makes what is kept and posted from the finished report.
	Result func(rep *analysis.Report) store.Analysis
}

// Maker is what an analyst needs from the game flow.
type Maker interface {
	// Prepare makes the work of guild's finished game. An error wrapping
	// store.ErrUnavailable or a context's leaves the game in line, to be
	// taken up again; any other takes it out of line.
	Prepare(ctx context.Context, guild, game string) (*Work, error)
	// Post posts a kept analysis of guild's game in channel, idempotently
	// on key where the platform allows: a post repeated after a crash
	// makes one message.
	Post(ctx context.Context, channel, key string, guild, game string, a store.Analysis) error
}

// Config configures an Analyst.
type Config struct {
	// Worker is the analyst's name in the line (store.CheckID).
	Worker string
	// Searches is how many positions it searches at once (the process's
	// bot-turn workers); at least 1.
	Searches int
	// Lease is how long it holds a game without renewing it; default
	// DefaultLease. It renews every third of it.
	Lease time.Duration
	// Poll is how often it looks at the line when it found nothing;
	// default DefaultPoll.
	Poll time.Duration
}

// Analyst takes analyses from the line and makes them.
type Analyst struct {
	st      store.Analyses
	maker   Maker
	gate    *Gate
	cfg     Config
	log     *slog.Logger
	wake    chan struct{}
	engines []*engine.Engine // one per search, kept across games
}

// New returns an analyst over st, searching only while gate is open.
func New(st store.Analyses, maker Maker, gate *Gate, cfg Config, log *slog.Logger) *Analyst {
	cfg.Searches = max(cfg.Searches, 1)
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if log == nil {
		log = slog.Default()
	}
	return &Analyst{st: st, maker: maker, gate: gate, cfg: cfg, log: log, wake: make(chan struct{}, 1),
		engines: make([]*engine.Engine, cfg.Searches)}
}

// Wake tells the analyst that a game was put in line, so that it looks at
// once rather than at its next poll.
func (a *Analyst) Wake() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// Run takes games from the line and makes their analyses until ctx ends.
// A game whose searches ctx cut short is left in line, for this process
// (after a restart) or another to take up again.
func (a *Analyst) Run(ctx context.Context) {
	t := time.NewTicker(a.cfg.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		var job *store.AnalysisJob
		if a.gate.idle() { // with a bot turn here, leave the line to idle processes
			var err error
			job, err = a.st.ClaimAnalysis(ctx, a.cfg.Worker, a.cfg.Lease)
			if err != nil && !errors.Is(err, store.ErrNoJob) && ctx.Err() == nil {
				a.log.Warn("analyses not taken from the line", "worker", a.cfg.Worker, "err", err)
			}
		}
		if job == nil {
			select {
			case <-ctx.Done():
			case <-a.wake:
			case <-t.C:
			}
			continue
		}
		a.make(ctx, job)
	}
}

// progress is what a worker records of a game: the verdicts of the
// positions searched.
type progress struct {
	Verdicts []analysis.Verdict `json:"verdicts"`
	Done     []bool             `json:"done"`
}

// make makes job's analysis, keeps it and posts it, renewing the lease
// meanwhile; a lost lease stops it.
func (a *Analyst) make(ctx context.Context, job *store.AnalysisJob) {
	key := store.AnalysisKey(job.Guild, job.Game)
	log := a.log.With("game", key, "worker", a.cfg.Worker)
	log.Info("analysis taken from the line", "deliveries", job.Deliveries, "kept", job.Kept)
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var prog *progress // guarded by mu; nil while not searching
	var renewing sync.WaitGroup
	defer renewing.Wait()
	defer cancel()
	renewing.Go(func() {
		t := time.NewTicker(a.cfg.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-jctx.Done():
				return
			case <-t.C:
			}
			var data []byte
			mu.Lock()
			if prog != nil {
				data, _ = json.Marshal(prog)
			}
			mu.Unlock()
			err := a.st.ExtendAnalysis(jctx, job, data)
			if errors.Is(err, store.ErrStaleJob) {
				log.Warn("analysis lease lost: another worker has the game", "err", err)
				cancel()
				return
			}
			if err != nil && jctx.Err() == nil {
				log.Warn("analysis lease not renewed", "err", err)
			}
		}
	})

	var result store.Analysis
	if job.Kept {
		kept, err := a.st.KeptAnalysis(jctx, job.Guild, job.Game)
		if err != nil { // forgotten (past store.KeptAnalyses): nothing to post
			a.failed(ctx, log, job, "kept analysis not read", err)
			return
		}
		result = kept
	} else {
		work, err := a.maker.Prepare(jctx, job.Guild, job.Game)
		if err != nil {
			a.failed(ctx, log, job, "analysis not prepared", err)
			return
		}
		p := resume(job.Progress, work.Plan.Positions())
		began := time.Now()
		mu.Lock()
		prog = p
		mu.Unlock()
		if !a.search(jctx, work.Plan, p, &mu) {
			return // cut short: left in line
		}
		// Every position is searched: what is recorded stays as it is, and
		// this worker alone searches again those whose verdicts disagree.
		mu.Lock()
		prog = &progress{Verdicts: slices.Clone(p.Verdicts), Done: p.Done}
		mu.Unlock()
		if !a.recheck(jctx, work.Plan, p.Verdicts) {
			return // cut short: left in line
		}
		rep, err := work.Plan.Report(p.Verdicts, time.Since(began))
		if err != nil {
			a.failed(ctx, log, job, "analysis not assembled", err)
			return
		}
		result = work.Result(rep)
		if err := a.st.KeepAnalysis(jctx, job, result); err != nil {
			log.Warn("analysis not kept; it will be taken up again", "err", err)
			return
		}
	}
	// The posts go out even if ctx ends now: they are quick, and each is
	// recorded once made.
	pctx := context.WithoutCancel(ctx)
	posted := ""
	for {
		if jctx.Err() != nil && ctx.Err() == nil {
			return // the lease was lost: the new holder posts
		}
		ch, ok, err := a.st.NextAnalysisPost(pctx, job, posted)
		if err != nil {
			log.Warn("analysis posts not recorded; they are taken up again", "err", err)
			return
		}
		if !ok {
			log.Info("analysis made and posted")
			return
		}
		if err := a.maker.Post(pctx, ch, "analysis/"+key+"/"+ch, job.Guild, job.Game, result); err != nil {
			log.Warn("analysis not posted", "channel", ch, "err", err)
		}
		posted = ch
	}
}

// failed takes job out of line after err, unless err says the store or
// the process is what failed (then it is taken up again).
func (a *Analyst) failed(ctx context.Context, log *slog.Logger, job *store.AnalysisJob, what string, err error) {
	if ctx.Err() != nil || errors.Is(err, store.ErrUnavailable) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		log.Warn(what+"; it will be taken up again", "err", err)
		return
	}
	log.Error(what, "err", err)
	if err := a.st.DropAnalysis(context.WithoutCancel(ctx), job); err != nil {
		log.Warn("failed analysis not taken out of line", "err", err)
	}
}

// resume returns the progress recorded, when it fits a game of n
// positions, else a fresh one.
func resume(recorded []byte, n int) *progress {
	var p progress
	if recorded != nil && json.Unmarshal(recorded, &p) == nil && len(p.Verdicts) == n && len(p.Done) == n {
		return &p
	}
	return &progress{Verdicts: make([]analysis.Verdict, n), Done: make([]bool, n)}
}

// engine returns search i's engine, made at its first use.
func (a *Analyst) engine(i int) *engine.Engine {
	if a.engines[i] == nil {
		a.engines[i] = engine.NewEngine(tableMB)
	}
	return a.engines[i]
}

// search searches every position of plan not done in p, with
// cfg.Searches searches, each only while the gate is open; it reports
// whether all are done (false: ctx ended first).
func (a *Analyst) search(ctx context.Context, plan *analysis.Plan, p *progress, mu *sync.Mutex) bool {
	taken := make([]bool, len(p.Done)) // guarded by mu
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		for i := range p.Done {
			if !p.Done[i] && !taken[i] {
				taken[i] = true
				return i
			}
		}
		return -1
	}
	var wg sync.WaitGroup
	for s := range a.cfg.Searches {
		eng := a.engine(s)
		wg.Go(func() {
			t := time.NewTicker(a.cfg.Poll / 10)
			defer t.Stop()
			for i := take(); i >= 0 && ctx.Err() == nil; {
				sctx, sr, ok := a.gate.start(ctx)
				if !ok { // a bot turn: wait for the gate
					select {
					case <-ctx.Done():
					case <-t.C:
					}
					continue
				}
				v := plan.Search(sctx, eng, i)
				cut := sctx.Err() != nil
				a.gate.end(sr)
				if cut {
					continue // searched again once the gate opens
				}
				mu.Lock()
				p.Verdicts[i], p.Done[i] = v, true
				mu.Unlock()
				i = take()
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for _, d := range p.Done {
		if !d {
			return false
		}
	}
	return true
}

// recheck runs plan.Recheck on verdicts under the gate: a bot turn cuts
// it short, and it runs again once the gate opens (verdicts it corrected
// stay corrected). It reports whether it ran to its end (false: ctx ended
// first).
func (a *Analyst) recheck(ctx context.Context, plan *analysis.Plan, verdicts []analysis.Verdict) bool {
	t := time.NewTicker(a.cfg.Poll / 10)
	defer t.Stop()
	for ctx.Err() == nil {
		sctx, sr, ok := a.gate.start(ctx)
		if !ok {
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			continue
		}
		plan.Recheck(sctx, a.engine(0), verdicts)
		cut := sctx.Err() != nil
		a.gate.end(sr)
		if !cut {
			return true
		}
	}
	return false
}
