package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"arbiter/analyst"
	"arbiter/engine"
	"arbiter/engine/analysis"
	"arbiter/review"
	"arbiter/rules"
	"arbiter/store"
)

// Defaults of the analyses /analyse puts in the store's line.
const (
	defaultAnalysisQueue    = 8           // games waiting or being analysed
	defaultPersonShare      = 2           // of them put in line by one person
	defaultAnalysisMoveTime = time.Second // a position
	worstShown              = 3           // worst moves shown for each player
)

// analysisShares are the shares of the store's analysis line, from the
// configuration.
func (s *Service) analysisShares() store.AnalysisShares {
	limit, server, person := s.cfg.AnalysisQueue, s.cfg.AnalysisServerShare, s.cfg.AnalysisPersonShare
	if limit <= 0 {
		limit = defaultAnalysisQueue
	}
	if server <= 0 {
		server = max(1, limit/2)
	}
	if person <= 0 {
		person = defaultPersonShare
	}
	return store.AnalysisShares{Line: limit, Server: min(server, limit), Person: min(person, limit)}
}

// newAnalyst returns the analyst of the service's workers: it takes
// analyses from the store's line while they have no bot turn (s.gate).
// Its name in the line is the workers' with a suffix of its own, so that
// two processes given one name never hold each other's games.
func (s *Service) newAnalyst() *analyst.Analyst {
	name := fmt.Sprintf("%.55s.%08x", s.cfg.WorkerName, rand.Uint32())
	return analyst.New(s.store, analysisMaker{s}, &s.gate, analyst.Config{Worker: name, Searches: s.cfg.Workers, Lease: s.cfg.AnalysisLease}, s.log)
}

// workerLoad counts, at one instant, this process's workers with a bot
// turn and its analysis searches running (never both, by the gate).
func (s *Service) workerLoad() (bot, analysing int) { return s.gate.Load() }

// analysisMaker is the game flow as the analyst needs it.
type analysisMaker struct{ s *Service }

// Prepare makes the work of guild's archived game.
func (m analysisMaker) Prepare(ctx context.Context, guild, game string) (*analyst.Work, error) {
	g, err := m.s.store.LoadArchived(ctx, guild, game)
	if err != nil {
		return nil, err
	}
	w, _, err := m.s.analysisWork(g)
	return w, err
}

// Post posts a kept analysis in channel.
func (m analysisMaker) Post(ctx context.Context, channel, key, _, game string, a store.Analysis) error {
	msg := analysisPost(game, a)
	msg.Key = key
	return m.s.notify.Post(ctx, channel, msg)
}

// analysisPost is the message of a kept analysis of game: its summary
// with its graph attached.
func analysisPost(game string, a store.Analysis) Message {
	msg := Message{Text: a.Text}
	if len(a.Graph) > 0 {
		msg.Files = []File{{Name: fmt.Sprintf("analysis-%s.png", game), ContentType: "image/png", Data: a.Graph}}
	}
	return msg
}

// analysisWork makes the work of the analysis of the finished game g,
// and its title.
func (s *Service) analysisWork(g *store.Game) (*analyst.Work, string, error) {
	start := g.State.Clone()
	for start.Ply() > 0 {
		start.Undo()
	}
	names := [2]string{rawSeatTitle(g, rules.P1), rawSeatTitle(g, rules.P2)} // drawn in the graph and the page
	plan, err := analysis.NewPlan(start, g.State.History(), names, analysis.Options{Limits: s.analysisLimits()})
	if err != nil {
		return nil, "", err
	}
	title := fmt.Sprintf("%s #%s: %s against %s", s.title(g.Name), g.ID, seatTitle(g, rules.P1), seatTitle(g, rules.P2)) // in messages
	result := &rules.Outcome{Result: g.Result, Reason: g.Reason}
	if own := g.State.Outcome(); own.Result != rules.Ongoing {
		result = nil // ended by its rules: the game's own outcome, with its scores
	}
	rg := review.Game{Start: start, Moves: append([]rules.Move(nil), g.State.History()...), Players: names, Result: result}
	id := g.ID
	w := &analyst.Work{Plan: plan, Result: func(rep *analysis.Report) store.Analysis {
		a := store.Analysis{Text: analysisMessage(title, rep).Text}
		if png, err := review.StandardGraph(rep); err != nil {
			s.log.Warn("analysis graph not drawn", "game", id, "err", err)
		} else {
			a.Graph = png
		}
		var page bytes.Buffer
		if err := review.Page(&page, rg, rep); err != nil {
			s.log.Warn("analysis page not made", "game", id, "err", err)
		} else {
			a.Page = page.Bytes()
		}
		return a
	}}
	return w, title, nil
}

// analysisMessage is the summary of an analysis: each player's accuracy
// and counts, and their worst moves with the engine's better move.
func analysisMessage(title string, rep *analysis.Report) Message {
	var b strings.Builder
	fmt.Fprintf(&b, "**Analysis of %s**\n", title)
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

// analyse is /analyse [game:id], or the button under /history: it puts
// the engine's analysis of a finished game in the store's line, to be
// made by any process's idle workers and posted in the channel when done;
// a game analysed before is posted again at once. A game going on, or a
// tournament game whose round is not over, is refused.
func (s *Service) analyse(ctx context.Context, inv Invocation) Reply {
	g, refusal, ok := s.analysisGame(ctx, inv)
	if !ok {
		return refusal
	}
	// Another channel's game may be private to that channel: as with
	// /history, its analysis is shown to the one who asked only, and never
	// posted here.
	elsewhere := g.Channel != inv.Channel
	if a, err := s.store.KeptAnalysis(ctx, g.Guild, g.ID); err == nil {
		return Reply{Message: analysisPost(g.ID, a), Private: elsewhere}
	} else if !errors.Is(err, store.ErrNotFound) {
		return s.storeRefusal(inv, err)
	}
	if g.Status != store.Finished {
		return refuse("game #%s is still going on: its analysis comes when it ends", g.ID)
	}
	if open, err := s.tournamentRoundOpen(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	} else if open {
		return refuse("game #%s is a tournament game whose round is still being played: its analysis comes when the round is over", g.ID)
	}
	postTo, when := inv.Channel, "It will be posted here."
	if elsewhere {
		postTo = "" // kept only
		when = fmt.Sprintf("It is not posted here, the game being another channel's: ask again with /analyse game:%s once it is done, and it is shown to you alone.", g.ID)
	}
	_, title, err := s.analysisWork(g)
	if err != nil {
		return refuse("game #%s cannot be analysed: %v", g.ID, err)
	}
	shares := s.analysisShares()
	place, added, err := s.store.AskAnalysis(ctx, store.AnalysisAsk{Guild: g.Guild, Game: g.ID, Asker: inv.User.ID, Channel: postTo}, shares)
	switch {
	case errors.Is(err, store.ErrAnalysisKept):
		a, err := s.store.KeptAnalysis(ctx, g.Guild, g.ID)
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		return Reply{Message: analysisPost(g.ID, a), Private: elsewhere}
	case errors.Is(err, store.ErrLineFull):
		return refuse("busy: %d analyses are in line, the most Arbiter keeps; try again in a few minutes", place)
	case errors.Is(err, store.ErrServerShare):
		return refuse("busy: this server has %d analyses in line, its share of the queue; try again when one is posted", place)
	case errors.Is(err, store.ErrPersonShare):
		return refuse("you have %d analyses in line, the most one person may; ask again when one is posted", place)
	case err != nil:
		return s.storeRefusal(inv, err)
	case !added:
		return refuse("game #%s is already in line for analysis: position %d in line. %s", g.ID, place, when)
	}
	s.wakeAnalyst()
	return Reply{Message: Message{Text: fmt.Sprintf("Analysing %s when Arbiter's bot is idle (bot games come first): position %d in line. %s", title, place, when)}, Private: elsewhere}
}

// wakeAnalyst tells this process's analyst, if its workers run, that a
// game was put in line.
func (s *Service) wakeAnalyst() {
	if s.workersRun.Load() > 0 {
		s.analyst.Wake()
	}
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
	a, err := s.analysisResult(ctx, guild, id)
	if err != nil {
		return nil, err
	}
	if len(a.Graph) == 0 {
		return nil, fmt.Errorf("analysis of %s: no graph: %w", id, store.ErrNotFound)
	}
	return a.Graph, nil
}

// AnalysisPage returns the review page (HTML, review.Page) of the game id
// of guild, as AnalysisGraph does its graph.
func (s *Service) AnalysisPage(ctx context.Context, guild, id string) ([]byte, error) {
	a, err := s.analysisResult(ctx, guild, id)
	if err != nil {
		return nil, err
	}
	if len(a.Page) == 0 {
		return nil, fmt.Errorf("analysis of %s: no page: %w", id, store.ErrNotFound)
	}
	return a.Page, nil
}

// analysisResult returns the kept analysis of the game id of guild, or
// puts it in line (see AnalysisGraph).
func (s *Service) analysisResult(ctx context.Context, guild, id string) (store.Analysis, error) {
	if a, err := s.store.KeptAnalysis(ctx, guild, id); !errors.Is(err, store.ErrNotFound) {
		return a, err
	}
	g, err := s.store.LoadArchived(ctx, guild, id)
	if err != nil {
		return store.Analysis{}, err
	}
	if open, err := s.tournamentRoundOpen(ctx, g); err != nil {
		return store.Analysis{}, err
	} else if open || g.Status != store.Finished {
		return store.Analysis{}, fmt.Errorf("game %s: its round is still being played: %w", id, store.ErrNotFound)
	}
	if _, _, err := s.analysisWork(g); err != nil {
		return store.Analysis{}, err
	}
	_, _, err = s.store.AskAnalysis(ctx, store.AnalysisAsk{Guild: guild, Game: id}, s.analysisShares())
	if errors.Is(err, store.ErrAnalysisKept) {
		return s.store.KeptAnalysis(ctx, guild, id)
	}
	if err != nil {
		return store.Analysis{}, fmt.Errorf("game %s: %w", id, err)
	}
	s.wakeAnalyst()
	return store.Analysis{}, ErrAnalysisQueued
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
