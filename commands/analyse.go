package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/review"
	"arbiter/rules"
	"arbiter/store"
)

// Defaults of the analyses /analyse queues.
const (
	defaultAnalysisQueue    = 8           // games waiting or being analysed
	defaultPersonShare      = 2           // of them put in line by one person
	defaultAnalysisMoveTime = time.Second // a position
	analysisCached          = 64          // finished analyses kept
	analysisPoll            = 50 * time.Millisecond
	worstShown              = 3 // worst moves shown for each player
	analysisTableMB         = 8 // small: it is cleared before each position
)

// analyses is the queue of /analyse: games waiting to be analysed, whose
// positions the bot-turn workers search one at a time, each only while its
// worker is idle (waiting for a bot turn); and the finished analyses,
// kept per game. Safe for concurrent use.
type analyses struct {
	mu      sync.Mutex
	limit   int                       // the most games waiting or being analysed
	server  int                       // the most of them of one server
	person  int                       // the most of them put in line by one person
	queue   []*analysisJob            // oldest first
	results map[string]analysisResult // by game key
	order   []string                  // the keys of results, oldest first
	wake    chan struct{}
}

// analysisResult is a finished analysis as kept: the message posted (its
// graph attached) and the review page.
type analysisResult struct {
	msg  Message
	page []byte
}

// analysisJob is one game being analysed.
type analysisJob struct {
	key      string // guild/id
	guild    string
	asker    string   // the person who put it in line; "" for the wall
	channels []string // where the result is posted: each channel that asked, once; guarded by analyses.mu
	posted   int      // channels[:posted] are posted or being posted; guarded by analyses.mu
	gameID   string
	title    string
	review   review.Game // the game for its review page
	plan     *analysis.Plan
	verdicts []analysis.Verdict
	taken    []bool // positions handed to a worker
	done     int
	began    time.Time
}

func newAnalyses(limit, server, person int) *analyses {
	if limit <= 0 {
		limit = defaultAnalysisQueue
	}
	if server <= 0 {
		server = max(1, limit/2)
	}
	if person <= 0 {
		person = defaultPersonShare
	}
	return &analyses{limit: limit, server: min(server, limit), person: min(person, limit), results: map[string]analysisResult{}, wake: make(chan struct{}, 1)}
}

// Enqueue's answers when the queue is full, or the asker's server or
// the asker has their share of it in line.
var (
	errAnalysisBusy        = errors.New("analysis queue full")
	errAnalysisServerShare = errors.New("the server's share of the analysis queue is in line")
	errAnalysisPersonShare = errors.New("the person's share of the analysis queue is in line")
)

// enqueue puts a game in line (once: asking again gives its place) and
// returns its place, from 1. A game whose analysis is kept is not queued
// again: its result comes back instead (checked under the same lock as
// the queue, so an analysis that completes meanwhile is never redone).
func (a *analyses) enqueue(job *analysisJob) (int, bool, *analysisResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.results[job.key]; ok {
		return 0, false, &r, nil
	}
	if i := slices.IndexFunc(a.queue, func(j *analysisJob) bool { return j.key == job.key }); i >= 0 {
		for _, ch := range job.channels { // asked for in another channel, or after the wall asked
			if !slices.Contains(a.queue[i].channels, ch) {
				a.queue[i].channels = append(a.queue[i].channels, ch)
			}
		}
		return i + 1, false, nil, nil
	}
	if len(a.queue) >= a.limit {
		return len(a.queue), false, nil, errAnalysisBusy
	}
	ofServer, ofPerson := 0, 0
	for _, j := range a.queue {
		if j.guild == job.guild {
			ofServer++
		}
		if job.asker != "" && j.asker == job.asker {
			ofPerson++
		}
	}
	if ofServer >= a.server {
		return a.server, false, nil, errAnalysisServerShare
	}
	if job.asker != "" && ofPerson >= a.person {
		return a.person, false, nil, errAnalysisPersonShare
	}
	job.verdicts = make([]analysis.Verdict, job.plan.Positions())
	job.taken = make([]bool, job.plan.Positions())
	a.queue = append(a.queue, job)
	select {
	case a.wake <- struct{}{}:
	default:
	}
	return len(a.queue), true, nil, nil
}

// cached returns the posted result of a game's analysis, if kept.
func (a *analyses) cached(key string) (analysisResult, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.results[key]
	return r, ok
}

// take hands out the next position not yet searched, oldest game first.
func (a *analyses) take() (*analysisJob, int, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, j := range a.queue {
		if i := slices.Index(j.taken, false); i >= 0 {
			j.taken[i] = true
			return j, i, true
		}
	}
	return nil, 0, false
}

// putBack returns a position whose search was cut short.
func (a *analyses) putBack(j *analysisJob, i int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	j.taken[i] = false
}

// finish records a position's verdict and reports whether it completed
// the game: its caller, the only one told so, posts it (next) and keeps
// it. Until then the game stays in line, so that asking for it again
// meanwhile queues nothing, and a channel that asks is posted to too.
func (a *analyses) finish(j *analysisJob, i int, v analysis.Verdict) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	j.verdicts[i] = v
	j.done++
	return j.done == len(j.verdicts)
}

// complete takes a game out of line, keeping its result when there is one
// (nil: the analysis failed) and forgetting the oldest results beyond
// analysisCached, in one step.
func (a *analyses) complete(j *analysisJob, r *analysisResult) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.completeLocked(j, r)
}

// next returns the next channel that asked for j's finished analysis and
// has not been posted to. When there is none, it completes j with r, in
// the same lock, so that no channel that asks is left without its post.
func (a *analyses) next(j *analysisJob, r *analysisResult) (channel string, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if j.posted < len(j.channels) {
		j.posted++
		return j.channels[j.posted-1], true
	}
	a.completeLocked(j, r)
	return "", false
}

// completeLocked is complete, with a.mu held.
func (a *analyses) completeLocked(j *analysisJob, r *analysisResult) {
	a.queue = slices.DeleteFunc(a.queue, func(x *analysisJob) bool { return x == j })
	if r == nil {
		return
	}
	if _, ok := a.results[j.key]; !ok {
		a.order = append(a.order, j.key)
	}
	a.results[j.key] = *r
	for len(a.order) > analysisCached {
		delete(a.results, a.order[0])
		a.order = a.order[1:]
	}
}

// idleGate lets analysis searches run only while no worker of the
// process has a bot turn: enter stops every search in progress (each is
// put back) before the worker thinks, and holds off new ones until the
// last busy worker leaves, so that a bot turn never shares the machine
// with this process's analyses.
type idleGate struct {
	mu       sync.Mutex
	busy     int // workers with a bot turn
	stopping int // workers in enter, waiting for the searches to stop
	searches map[*gateSearch]struct{}
}

// gateSearch is one search running under the gate.
type gateSearch struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// enter marks a worker busy with a bot turn, once every analysis search
// has stopped.
func (g *idleGate) enter() {
	g.mu.Lock()
	g.stopping++
	var wait []chan struct{}
	for sr := range g.searches {
		sr.cancel()
		wait = append(wait, sr.done)
	}
	g.mu.Unlock()
	for _, done := range wait {
		<-done
	}
	g.mu.Lock()
	g.stopping--
	g.busy++
	g.mu.Unlock()
}

// leave marks a worker idle again.
func (g *idleGate) leave() {
	g.mu.Lock()
	g.busy--
	g.mu.Unlock()
}

// start begins a search under the gate, unless a worker is busy.
func (g *idleGate) start(parent context.Context) (context.Context, *gateSearch, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy > 0 || g.stopping > 0 {
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(parent)
	sr := &gateSearch{cancel: cancel, done: make(chan struct{})}
	if g.searches == nil {
		g.searches = map[*gateSearch]struct{}{}
	}
	g.searches[sr] = struct{}{}
	return ctx, sr, true
}

// end closes a search start began.
func (g *idleGate) end(sr *gateSearch) {
	g.mu.Lock()
	defer g.mu.Unlock()
	sr.cancel()
	close(sr.done)
	delete(g.searches, sr)
}

// workerLoad counts, at one instant, this process's workers with a bot
// turn and its analysis searches running (never both, by the gate).
func (s *Service) workerLoad() (bot, analysing int) {
	g := &s.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy, len(g.searches)
}

// analyseWhileIdle searches queued analysis positions, one at a time,
// while no worker has a bot turn (s.gate), until ctx ends. Each worker has
// one beside it.
func (s *Service) analyseWhileIdle(ctx context.Context) {
	var eng *engine.Engine
	t := time.NewTicker(analysisPoll)
	defer t.Stop()
	for ctx.Err() == nil {
		job, i, ok := s.analyses.take()
		if !ok {
			select {
			case <-ctx.Done():
			case <-s.analyses.wake:
			case <-t.C:
			}
			continue
		}
		sctx, sr, ok := s.gate.start(ctx)
		if !ok {
			s.analyses.putBack(job, i)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			continue
		}
		if eng == nil {
			eng = engine.NewEngine(min(s.cfg.TableMB, analysisTableMB))
		}
		v := job.plan.Search(sctx, eng, i)
		cut := sctx.Err() != nil
		s.gate.end(sr)
		if cut {
			s.analyses.putBack(job, i)
			continue
		}
		if s.analyses.finish(job, i, v) {
			// Every position is searched: this worker alone holds the
			// verdicts now, and searches again those that disagree.
			job.plan.Recheck(ctx, eng, job.verdicts)
			s.postAnalysis(context.WithoutCancel(ctx), job)
		}
	}
}

// postAnalysis posts a finished analysis in each channel that asked for
// it and keeps it.
func (s *Service) postAnalysis(ctx context.Context, job *analysisJob) {
	rep, err := job.plan.Report(job.verdicts, time.Since(job.began))
	if err != nil {
		s.log.Error("analysis not assembled", "game", job.gameID, "err", err)
		s.analyses.complete(job, nil)
		return
	}
	msg := analysisMessage(job, rep)
	png, err := review.StandardGraph(rep)
	if err != nil {
		s.log.Warn("analysis graph not drawn", "game", job.gameID, "err", err)
	} else {
		msg.Files = []File{{Name: fmt.Sprintf("analysis-%s.png", job.gameID), ContentType: "image/png", Data: png}}
	}
	var page bytes.Buffer
	if err := review.Page(&page, job.review, rep); err != nil {
		s.log.Warn("analysis page not made", "game", job.gameID, "err", err)
	}
	kept := &analysisResult{msg: msg, page: page.Bytes()}
	for ch, ok := s.analyses.next(job, kept); ok; ch, ok = s.analyses.next(job, kept) {
		post := msg
		post.Key = "analysis/" + job.key + "/" + ch
		if err := s.notify.Post(ctx, ch, post); err != nil {
			s.log.Warn("analysis not posted", "game", job.gameID, "channel", ch, "err", err)
		}
	}
}

// analysisMessage is the summary of an analysis: each player's accuracy
// and counts, and their worst moves with the engine's better move.
func analysisMessage(job *analysisJob, rep *analysis.Report) Message {
	var b strings.Builder
	fmt.Fprintf(&b, "**Analysis of %s**\n", job.title)
	for p, pr := range rep.Players {
		b.WriteString("- " + EscapeMarkdown(pr.Line()) + "\n") // it names the player as written
		for _, m := range rep.Worst(rules.Player(p), worstShown) {
			fmt.Fprintf(&b, "  - move %d, %s: %s (%s → %s): %s\n", m.Ply, m.Move, m.Class,
				analysis.EvalString(m.EvalBefore, false), analysis.EvalString(m.EvalAfter, false), EscapeMarkdown(m.Why))
		}
	}
	fmt.Fprintf(&b, "(Evaluations from the first player's side, in hundredths of a piece; each position searched at %s.)", rep.Limits)
	return Message{Text: clip(b.String(), 1900)}
}

// analyse is /analyse [game:id], or the button under /history: it queues
// the engine's analysis of a finished game, to be posted in the channel
// when done; a game analysed before is posted again at once. A game going
// on, or a tournament game whose round is not over, is refused.
func (s *Service) analyse(ctx context.Context, inv Invocation) Reply {
	g, refusal, ok := s.analysisGame(ctx, inv)
	if !ok {
		return refusal
	}
	// Another channel's game may be private to that channel: as with
	// /history, its analysis is shown to the one who asked only, and never
	// posted here.
	elsewhere := g.Channel != inv.Channel
	if r, ok := s.analyses.cached(g.Guild + "/" + g.ID); ok {
		return Reply{Message: r.msg, Private: elsewhere}
	}
	if g.Status != store.Finished {
		return refuse("game #%s is still going on: its analysis comes when it ends", g.ID)
	}
	if open, err := s.tournamentRoundOpen(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	} else if open {
		return refuse("game #%s is a tournament game whose round is still being played: its analysis comes when the round is over", g.ID)
	}
	if s.workersRun.Load() == 0 {
		return refuse("analyses are made by the bot-turn workers of the process that answers commands, and this one runs none (they run in `arbiter worker`): ask the server's admin")
	}
	postTo, when := inv.Channel, "It will be posted here."
	if elsewhere {
		postTo = "" // kept only
		when = fmt.Sprintf("It is not posted here, the game being another channel's: ask again with /analyse game:%s once it is done, and it is shown to you alone.", g.ID)
	}
	job, err := s.analysisJob(g, postTo)
	if err != nil {
		return refuse("game #%s cannot be analysed: %v", g.ID, err)
	}
	job.asker = inv.User.ID
	place, added, kept, err := s.analyses.enqueue(job)
	switch {
	case kept != nil:
		return Reply{Message: kept.msg, Private: elsewhere}
	case errors.Is(err, errAnalysisBusy):
		return refuse("busy: %d analyses are in line, the most Arbiter keeps; try again in a few minutes", place)
	case errors.Is(err, errAnalysisServerShare):
		return refuse("busy: this server has %d analyses in line, its share of the queue; try again when one is posted", place)
	case errors.Is(err, errAnalysisPersonShare):
		return refuse("you have %d analyses in line, the most one person may; ask again when one is posted", place)
	case !added:
		return refuse("game #%s is already in line for analysis: position %d in line. %s", g.ID, place, when)
	}
	return Reply{Message: Message{Text: fmt.Sprintf("Analysing %s when Arbiter's bot is idle (bot games come first): position %d in line. %s", job.title, place, when)}, Private: elsewhere}
}

// analysisJob makes the analysis of the finished game g, to be posted in
// channel ("" for none: only kept).
func (s *Service) analysisJob(g *store.Game, channel string) (*analysisJob, error) {
	start := g.State.Clone()
	for start.Ply() > 0 {
		start.Undo()
	}
	names := [2]string{rawSeatTitle(g, rules.P1), rawSeatTitle(g, rules.P2)} // drawn in the graph and the page
	plan, err := analysis.NewPlan(start, g.State.History(), names, analysis.Options{Limits: s.analysisLimits()})
	if err != nil {
		return nil, err
	}
	title := fmt.Sprintf("%s #%s: %s against %s", s.title(g.Name), g.ID, seatTitle(g, rules.P1), seatTitle(g, rules.P2)) // in messages
	result := &rules.Outcome{Result: g.Result, Reason: g.Reason}
	if own := g.State.Outcome(); own.Result != rules.Ongoing {
		result = nil // ended by its rules: the game's own outcome, with its scores
	}
	var channels []string
	if channel != "" {
		channels = []string{channel}
	}
	return &analysisJob{key: g.Guild + "/" + g.ID, guild: g.Guild, channels: channels, gameID: g.ID, title: title, plan: plan, began: time.Now(),
		review: review.Game{Start: start, Moves: append([]rules.Move(nil), g.State.History()...), Players: names, Result: result}}, nil
}

// ErrAnalysisQueued is the answer of AnalysisGraph and AnalysisPage
// while a game's analysis is in line or being made.
var ErrAnalysisQueued = errors.New("the analysis is in line or being made")

// AnalysisGraph returns the evaluation graph (PNG) of the game id of
// guild from the analyses kept. A finished game not analysed yet (and not
// of a tournament round still being played) is put in line, to be kept
// without a post, and ErrAnalysisQueued returned; store.ErrNotFound means
// no such finished game, or one that may not be analysed yet.
func (s *Service) AnalysisGraph(ctx context.Context, guild, id string) ([]byte, error) {
	r, err := s.analysisResult(ctx, guild, id)
	if err != nil {
		return nil, err
	}
	if len(r.msg.Files) == 0 {
		return nil, fmt.Errorf("analysis of %s: no graph: %w", id, store.ErrNotFound)
	}
	return r.msg.Files[0].Data, nil
}

// AnalysisPage returns the review page (HTML, review.Page) of the game id
// of guild, as AnalysisGraph does its graph.
func (s *Service) AnalysisPage(ctx context.Context, guild, id string) ([]byte, error) {
	r, err := s.analysisResult(ctx, guild, id)
	if err != nil {
		return nil, err
	}
	if len(r.page) == 0 {
		return nil, fmt.Errorf("analysis of %s: no page: %w", id, store.ErrNotFound)
	}
	return r.page, nil
}

// analysisResult returns the kept analysis of the game id of guild, or
// puts it in line (see AnalysisGraph).
func (s *Service) analysisResult(ctx context.Context, guild, id string) (analysisResult, error) {
	if r, ok := s.analyses.cached(guild + "/" + id); ok {
		return r, nil
	}
	g, err := s.store.LoadArchived(ctx, guild, id)
	if err != nil {
		return analysisResult{}, err
	}
	if open, err := s.tournamentRoundOpen(ctx, g); err != nil {
		return analysisResult{}, err
	} else if open || g.Status != store.Finished {
		return analysisResult{}, fmt.Errorf("game %s: its round is still being played: %w", id, store.ErrNotFound)
	}
	if s.workersRun.Load() == 0 {
		return analysisResult{}, errors.New("analyses are made by the bot-turn workers, and this process runs none")
	}
	job, err := s.analysisJob(g, "")
	if err != nil {
		return analysisResult{}, err
	}
	if _, _, kept, err := s.analyses.enqueue(job); err != nil {
		return analysisResult{}, fmt.Errorf("game %s: %w", id, err)
	} else if kept != nil {
		return *kept, nil
	}
	return analysisResult{}, ErrAnalysisQueued
}

// analysisGame finds the game /analyse is about: the button's game, the
// archived game named by the game option, the game in this channel, or
// the last one archived from it.
func (s *Service) analysisGame(ctx context.Context, inv Invocation) (*store.Game, Reply, bool) {
	id := strings.TrimPrefix(strings.TrimSpace(inv.Options["game"]), "#")
	if inv.Game != "" {
		id = inv.Game
	}
	if id != "" {
		g, err := s.store.LoadArchived(ctx, inv.Guild, id)
		if errors.Is(err, store.ErrNotFound) {
			// A game going on is not archived yet: say so, if it is this one.
			if cur, cerr := s.store.Load(ctx, inv.Channel); cerr == nil && cur.ID == id {
				return cur, Reply{}, true
			}
			return nil, refuse("there is no finished game %s in this server; /games lists them", clip(id, 30)), false
		}
		if err != nil {
			return nil, s.storeRefusal(inv, err), false
		}
		return g, Reply{}, true
	}
	g, err := s.store.Load(ctx, inv.Channel)
	if err == nil {
		return g, Reply{}, true
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, s.storeRefusal(inv, err), false
	}
	list, _, err := s.store.Archived(ctx, inv.Guild, 0, store.MaxList)
	if err != nil {
		return nil, s.storeRefusal(inv, err), false
	}
	for _, sum := range list {
		if sum.Channel == inv.Channel {
			g, err := s.store.LoadArchived(ctx, inv.Guild, sum.ID)
			if err != nil {
				return nil, s.storeRefusal(inv, err), false
			}
			return g, Reply{}, true
		}
	}
	return nil, refuse("no game was played in this channel lately; name one with /analyse game:ID (/games lists them)"), false
}

// tournamentRoundOpen reports whether g is a game of a tournament whose
// round is not over yet.
func (s *Service) tournamentRoundOpen(ctx context.Context, g *store.Game) (bool, error) {
	parent, err := s.store.ChannelSetting(ctx, g.Channel, tournamentOfKey)
	if err != nil || parent == "" {
		return false, err
	}
	raw, err := s.store.ChannelSetting(ctx, parent, tournamentKey)
	if err != nil || raw == "" {
		return false, err
	}
	var t tourney
	if err := json.Unmarshal([]byte(raw), &t); err != nil {
		return false, fmt.Errorf("tournament record of %s: %w", parent, err)
	}
	for _, tg := range t.Games {
		if tg.ID == g.ID || (tg.Channel == g.Channel && tg.Result == "") {
			return !t.roundOver(tg.Round), nil
		}
	}
	return false, nil
}

// analysisLimits are the limits of each position's search.
func (s *Service) analysisLimits() engine.Limits {
	if s.cfg.AnalysisLimits != (engine.Limits{}) {
		return s.cfg.AnalysisLimits
	}
	return engine.Limits{MoveTime: defaultAnalysisMoveTime}
}
