package commands

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/store"
)

// botMoveTime is the bot's whole time for a move in the game: the class's
// per-move limit (HiQUE 20 s, Upthrust 15 s, Hi-Ya! 5 s, Sixes 5 s), or the
// configured override. Lower levels use a share of it (engine.Level).
func (s *Service) botMoveTime(game string) time.Duration {
	if s.cfg.BotMoveTime > 0 {
		return s.cfg.BotMoveTime
	}
	if d, err := s.reg.Lookup(game); err == nil && d.MoveTime > 0 {
		return d.MoveTime
	}
	return 5 * time.Second
}

// botMargin is kept back from a bot's time for loading, saving and posting.
const botMargin = 150 * time.Millisecond

// thinkTime is the time a bot may think about a turn queued at queued,
// when its game allows limit a move: what is left of the limit after the
// wait in the queue and the margin, so that no bot move is later than its
// game's limit however many games wait at once; at least 20 ms, so that
// it always finds a legal move.
func thinkTime(limit time.Duration, queued, now time.Time) time.Duration {
	return max(limit-now.Sub(queued)-botMargin, 20*time.Millisecond)
}

// RunWorkers thinks about bot turns from the store's queue with
// cfg.Workers workers until ctx ends, then returns once every worker has
// finished or put back what it held.
func (s *Service) RunWorkers(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range s.cfg.Workers {
		wg.Go(func() { s.runWorker(ctx, fmt.Sprintf("%s-%d", s.cfg.WorkerName, i+1), uint64(i)) })
	}
	wg.Wait()
}

// runWorker is one worker's loop. Each worker keeps one engine per level,
// so their transposition tables live across moves.
func (s *Service) runWorker(ctx context.Context, name string, seed uint64) {
	players := map[int]engine.Player{}
	rng := rand.New(rand.NewPCG(seed, uint64(time.Now().UnixNano())))
	for ctx.Err() == nil {
		job, err := s.store.ClaimBotTurn(ctx, name, 2*time.Second)
		switch {
		case errors.Is(err, store.ErrNoJob):
			continue
		case err != nil:
			if ctx.Err() == nil {
				s.log.Warn("worker cannot claim bot turns", "worker", name, "err", err)
				sleep(ctx, time.Second)
			}
			continue
		}
		s.inFlight.Add(1)
		s.playBotTurn(ctx, name, job, players, rng)
		s.inFlight.Add(-1)
	}
}

// playBotTurn thinks about one queued bot turn, saves the move if the game
// is still where the job found it, posts it, and acks the job. When ctx
// ends mid-think the job is left unacked, for this worker (after a
// restart) or another to take up again.
func (s *Service) playBotTurn(ctx context.Context, worker string, job *store.Job, players map[int]engine.Player, rng *rand.Rand) {
	ack := func() {
		if err := s.store.AckBotTurn(context.WithoutCancel(ctx), job); err != nil {
			s.log.Warn("ack bot turn failed", "job", job.ID, "err", err)
		}
	}
	g, err := s.store.LoadForJob(ctx, job)
	if errors.Is(err, store.ErrStaleJob) {
		ack()
		return
	}
	var damaged *store.DamagedError
	if errors.As(err, &damaged) {
		s.log.Error("bot turn of a damaged game dropped", "channel", job.Channel, "err", err)
		ack()
		return
	}
	if err != nil {
		s.log.Warn("bot turn not loaded; it will be taken up again", "channel", job.Channel, "err", err)
		return
	}
	seat := g.State.ToMove()
	bot := g.Players[seat]
	if bot.Kind != store.Bot || g.Flow.Paused || g.Flow.Challenge {
		ack()
		return
	}
	budget := thinkTime(s.botMoveTime(g.Name), job.Queued, s.now())
	player, ok := players[bot.Level]
	if !ok {
		player = engine.NewArbiter(engine.Level(bot.Level), s.cfg.TableMB, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
		players[bot.Level] = player
	}
	thinkCtx, stopKeepAlive := context.WithCancel(ctx)
	go s.keepClaim(thinkCtx, worker, job)
	m, _, err := player.Choose(thinkCtx, g.State.Clone(), engine.Limits{MoveTime: budget})
	stopKeepAlive()
	if ctx.Err() != nil {
		return // shutting down: leave the job to be taken up again
	}
	if err != nil || m == rules.NoMove {
		s.log.Error("bot found no move", "channel", g.Channel, "err", err)
		ack()
		return
	}
	now := s.now()
	text, shown := moveTexts(g.State, m)
	g.State.Play(m)
	g.Moves = append(g.Moves, store.Move{Text: text, Seat: seat, At: now})
	notes := s.afterMove(g, now)
	if err := s.saveAndFollow(ctx, g); err != nil {
		if errors.Is(err, store.ErrConflict) {
			ack() // the game moved on (a resignation, an abort): the move is void
			return
		}
		s.log.Warn("bot move not saved; it will be thought again", "channel", g.Channel, "err", err)
		return
	}
	msg := s.moveMessage(g, moveHeader(g, seat, "plays", shown), notes)
	// The move is saved: announce it even when shutdown begins meanwhile.
	postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.notify.Post(postCtx, g.Channel, msg); err != nil {
		s.log.Error("posting the bot's move failed", "channel", g.Channel, "err", err)
	}
	ack()
}

// keepClaim tells the queue that worker still has job, until ctx ends, so
// that a long think is not taken over by another worker.
func (s *Service) keepClaim(ctx context.Context, worker string, job *store.Job) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.store.ExtendBotTurn(ctx, worker, job); err != nil && ctx.Err() == nil {
				s.log.Warn("extend bot turn failed", "job", job.ID, "err", err)
			}
		}
	}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
