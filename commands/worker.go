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
// configured override. Levels 1-4 stop at their position caps long
// before it (engine.Level).
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

// minThink is the least a bot thinks, so that it always finds a legal move.
const minThink = 20 * time.Millisecond

// thinkTime is the time a bot may think about a turn queued at queued (by
// the store's clock), when its game allows limit a move: what is left of
// the limit after the wait in the queue and the margin, so that a bot move
// is not later than its game's limit while the queue wait stays under
// the limit; at least minThink, so that it always finds a legal move.
func thinkTime(limit time.Duration, queued, now time.Time) time.Duration {
	waited := max(now.Sub(queued), 0) // a job "from the future": clocks disagree
	return max(limit-waited-botMargin, minThink)
}

// RunWorkers thinks about bot turns from the store's queue with
// cfg.Workers workers until ctx ends, then returns once every worker has
// finished or put back what it held.
func (s *Service) RunWorkers(ctx context.Context) {
	s.workersRun.Add(1)
	defer s.workersRun.Add(-1)
	var wg sync.WaitGroup
	wg.Go(func() { s.analyst.Run(ctx) })
	for i := range s.cfg.Workers {
		wg.Go(func() { s.runWorker(ctx, fmt.Sprintf("%s-%d", s.cfg.WorkerName, i+1), uint64(i)) })
	}
	wg.Wait()
}

// runWorker is one worker's loop. Each worker keeps one engine per level,
// so their transposition tables live across moves.
//
// Beside the workers, their analyst searches the positions of the
// analysis line, as many at once as there are workers, only while no
// worker has a bot turn: a claimed turn stops every analysis search at
// once (analyst.Gate) and is thought about without them.
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
		s.gate.Enter()
		s.inFlight.Add(1)
		s.guardedBotTurn(ctx, name, job, players, rng)
		s.inFlight.Add(-1)
		s.gate.Leave()
	}
}

// guardedBotTurn plays a bot turn, counting its attempts: a panic is
// recovered (the worker keeps going, with fresh engines), the turn is
// queued again at once, and at the third panic (or the tenth start whose
// process died or hung) it is set aside with its game paused.
func (s *Service) guardedBotTurn(ctx context.Context, worker string, job *store.Job, players map[int]engine.Player, rng *rand.Rand) {
	key := fmt.Sprintf("bot/%s/%s/%d", job.Channel, job.GameID, job.Version)
	attempts, err := s.store.Attempt(ctx, key)
	if err != nil {
		s.log.Warn("bot turn not started; it will be taken up again", "channel", job.Channel, "err", err)
		sleep(ctx, time.Second)
		return
	}
	setAside := func(attempts int, failure string) {
		if s.jobFailed(ctx, key, job.Channel, attempts, failure) {
			s.ack(ctx, job)
			return
		}
		// Try again at once rather than after the claim expires.
		if g, err := s.store.LoadForJob(ctx, job); err == nil {
			if _, err := s.store.EnqueueBotTurn(ctx, g); err == nil {
				s.ack(ctx, job)
			}
		}
	}
	if attempts > maxDeaths {
		setAside(maxAttempts, fmt.Sprintf("the worker's process died or hung on this turn %d times", attempts-1))
		return
	}
	if perr := recovered(func() { s.playBotTurn(ctx, worker, job, players, rng) }); perr != nil {
		clear(players) // an engine that panicked may be left inconsistent
		setAside(s.panicked(ctx, key), perr.Error())
		return
	}
	if err := s.store.Finished(context.WithoutCancel(ctx), key); err != nil {
		s.log.Warn("bot turn attempts not cleared", "job", key, "err", err)
	}
}

// ack removes a finished (or void) bot turn from the queue.
func (s *Service) ack(ctx context.Context, job *store.Job) {
	if err := s.store.AckBotTurn(context.WithoutCancel(ctx), job); err != nil {
		s.log.Warn("ack bot turn failed", "job", job.ID, "err", err)
	}
}

// playBotTurn thinks about one queued bot turn, saves the move if the game
// is still where the job found it, posts it, and acks the job. When ctx
// ends mid-think the job is left unacked, for this worker (after a
// restart) or another to take up again.
func (s *Service) playBotTurn(ctx context.Context, worker string, job *store.Job, players map[int]engine.Player, rng *rand.Rand) {
	ack := func() { s.ack(ctx, job) }
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
	if bot.Kind != store.Bot || flow(g).Paused || flow(g).Challenge {
		ack()
		return
	}
	limit := s.botMoveTime(g.Name)
	waited := s.now().Sub(job.Queued)
	budget := thinkTime(limit, job.Queued, s.now())
	s.cfg.Meter.BotTurn(g.Name, waited, max(0, waited-limit))
	player, ok := players[bot.Level]
	if !ok {
		player = engine.NewArbiter(s.reg, engine.Level(bot.Level), s.cfg.TableMB, rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64())))
		players[bot.Level] = player
	}
	thinkCtx, stopKeepAlive := context.WithCancel(ctx)
	go s.keepClaim(thinkCtx, worker, job, limit)
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
	if waited > limit {
		// The workers cannot keep up: say so rather than be late silently.
		notes = append(notes, fmt.Sprintf("(Arbiter's bot workers are behind: this turn waited %s in the queue, past the game's %s a move.)",
			spokenDuration(waited), spokenDuration(limit)))
	}
	// The move and its announcement are one change: the announcement goes
	// through the outbox, so a crash after the save still posts it once.
	err = s.commit(ctx, g, func(next *store.Game) *Message {
		msg := s.playedMessage(next, seat, "plays", shown, notes)
		return &msg
	})
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			ack() // the game moved on (a resignation, an abort): the move is void
			return
		}
		s.log.Warn("bot move not saved (or not known to be); it will be taken up again", "channel", g.Channel, "err", err)
		return
	}
	ack()
	s.cfg.Meter.Move(g.Name, true)
	if s.cfg.TakesCommands {
		s.keep(g) // the person's answer is a /move in this process
	}
}

// keepClaim tells the queue that worker still has job, until ctx ends, so
// that a long think is not taken over by another worker (see extendEvery).
func (s *Service) keepClaim(ctx context.Context, worker string, job *store.Job, limit time.Duration) {
	t := time.NewTicker(extendEvery(limit, job.Lease))
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

// extendEvery is how often a worker extends its claim on a turn with
// limit to think and the store's lease: four times a limit, and at least
// three times a lease (which lapses unless extended within it, and may be
// shorter than the limit when BOT_MOVE_TIME lengthens it); between 50 ms
// and 5 s.
func extendEvery(limit, lease time.Duration) time.Duration {
	every := limit / 4
	if lease > 0 {
		every = min(every, lease/3)
	}
	return min(max(every, 50*time.Millisecond), 5*time.Second)
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
