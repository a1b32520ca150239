package commands

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// The referee's promises when things go wrong (docs/explanation/reliability.md):
//   - fair time: no one loses on time while no process taking commands is
//     up; an outage's time is given back to every running clock, and each
//     affected channel is told once;
//   - exactly-once consequences: the rating and the announcements of a
//     state change are put in the store's outbox before the change is
//     saved, delivered after it with an idempotency key, and a sweep
//     delivers what a crash left (if the change was saved) or drops it;
//   - no process dies of one game: workers and the clock recover from
//     panics, and a job that fails 3 times is set aside (a dead letter)
//     with its game paused.

const (
	// maxAttempts is how many times a job may panic before it is set
	// aside; maxDeaths how many of its starts may end with no word (the
	// process died or hung: a fatal error, or a restart by hand) first.
	maxAttempts = 3
	maxDeaths   = 10
	// maxSkew is the host clock's distance from the store's that is
	// logged loudly.
	maxSkew = time.Second
	// outageMemory is how far back outages are looked at.
	outageMemory = 60 * 24 * time.Hour
)

// heartbeatStale is how long without a beat of a command-taking process
// counts as an outage: three missed clock ticks (3 s by default).
func (s *Service) heartbeatStale() time.Duration { return 3 * s.cfg.ClockTick }

// storeNow is the store's time as this host sees it: the host's clock
// corrected by the skew last measured against the store.
func (s *Service) storeNow() time.Time { return time.Now().Add(time.Duration(s.skew.Load())) }

// SyncClock measures this host's clock against the store's (the one time
// source of deadlines) and logs loudly when they are more than a second
// apart; the service's time follows the store's either way.
func (s *Service) SyncClock(ctx context.Context) error {
	before := time.Now()
	st, err := s.store.Time(ctx)
	if err != nil {
		return fmt.Errorf("sync clock: %w", err)
	}
	after := time.Now()
	mid := before.Add(after.Sub(before) / 2)
	skew := st.Sub(mid)
	old := time.Duration(s.skew.Swap(int64(skew)))
	if (skew > maxSkew || skew < -maxSkew) && (old-skew > maxSkew/2 || skew-old > maxSkew/2 || !s.skewLogged.Swap(true)) {
		s.log.Error("THIS HOST'S CLOCK IS OFF: deadlines follow the store's clock", "skew", skew.String(), "store", st, "host", mid)
	}
	return nil
}

// Beat records that this process, which takes players' commands, is up;
// when it is the first to see the end of an outage, it gives the outage's
// time back to every running game at once. RunClock calls it every tick
// when cfg.TakesCommands.
func (s *Service) Beat(ctx context.Context) {
	o, err := s.store.Heartbeat(ctx, s.heartbeatStale())
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("heartbeat failed", "err", err)
		}
		return
	}
	if o.IsZero() {
		return
	}
	s.log.Warn("Arbiter was offline; giving the time back to every running clock", "from", o.From, "to", o.To, "length", o.Length().String())
	if err := s.giveBackAll(ctx); err != nil && ctx.Err() == nil {
		s.log.Warn("giving an outage's time back failed; the clock does it game by game", "err", err)
	}
}

// alive reports whether a process taking players' commands is up (beat
// within the stale bound of the store's time). A store that never saw a
// beat (the game flow run alone, as in its tests) is not held back.
func (s *Service) alive(ctx context.Context) (bool, error) {
	now, last, err := s.store.LastBeat(ctx)
	if err != nil {
		return false, err
	}
	return last.IsZero() || now.Sub(last) <= s.heartbeatStale(), nil
}

// giveBackAll gives every running game with a deadline the time of the
// outages it has not been given yet (the clock does the same for any game
// this misses, before it acts on it).
func (s *Service) giveBackAll(ctx context.Context) error {
	now := s.now()
	outs, err := s.store.Outages(ctx, now.Add(-outageMemory))
	if err != nil {
		return err
	}
	games, err := s.store.Due(ctx, now.Add(400*24*time.Hour), store.MaxList)
	if err != nil {
		return err
	}
	for _, g := range games {
		if _, err := s.giveBack(ctx, g, outs); err != nil && !errors.Is(err, store.ErrConflict) {
			s.log.Warn("could not give an outage's time back", "channel", g.Channel, "err", err)
		}
	}
	return nil
}

// giveBack pushes g's deadline and reminder back by the part of each
// outage that fell in g's current turn and that g was not given yet, and
// tells its channel once (with the save). It reports whether it did.
func (s *Service) giveBack(ctx context.Context, g *store.Game, outs []store.Outage) (bool, error) {
	if g.Status != store.Active || g.Deadline.IsZero() || flow(g).Paused {
		return false, nil
	}
	var give time.Duration
	last := flow(g).Outage
	for _, o := range outs {
		if o.ID() <= flow(g).Outage || !o.To.After(flow(g).TurnFrom) {
			continue // given before, or over before this turn began
		}
		from := o.From
		if from.Before(flow(g).TurnFrom) {
			from = flow(g).TurnFrom
		}
		if !from.Before(g.Deadline) {
			continue // the deadline had passed before the outage began
		}
		give += o.To.Sub(from)
		last = max(last, o.ID())
	}
	if give <= 0 {
		return false, nil
	}
	g.Deadline = g.Deadline.Add(give)
	if !g.RemindAt.IsZero() {
		g.RemindAt = g.RemindAt.Add(give)
	}
	flow(g).Outage = last
	err := s.commit(ctx, g, func(*store.Game) *Message {
		return &Message{Text: fmt.Sprintf("Arbiter was offline for %s; every clock in this channel was given that time back (the move is now due %s).",
			spokenDuration(give), s.when(g.Deadline))}
	})
	return err == nil, err
}

// spokenDuration writes d for people: "3 h 12 min", "45 s".
func spokenDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	var parts []string
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "min"}} {
		if n := d / u.unit; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, u.name))
			d -= n * u.unit
		}
	}
	return strings.Join(parts, " ")
}

// consequence is what must follow a saved state change, kept in the
// store's outbox until done.
type consequence struct {
	Rate bool     `json:"rate,omitempty"` // rate the finished game
	Post *Message `json:"post,omitempty"` // post this to the game's channel
	// Tournament records a finished game in its tournament (tournament.go).
	Tournament bool `json:"tournament,omitempty"`
}

// fingerprint tells one state change of a game from a rival one saved at
// the same version.
func fingerprint(g *store.Game) string {
	return fmt.Sprintf("%s|%d|%s|%d|%d|%d|%t|%d", g.Status, g.Result, g.Reason, len(g.Moves), g.Deadline.UnixMilli(),
		flow(g).Reminders, flow(g).Paused, flow(g).Outage)
}

// nonce turns an outbox key into an idempotency key that fits Discord's
// 25-character nonce.
func nonce(key string) string {
	sum := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:25]
}

// errOutcomeUnknown wraps a store error after which a write may or may
// not have been applied.
type errOutcomeUnknown struct{ err error }

func (e *errOutcomeUnknown) Error() string { return "the outcome is unknown: " + e.err.Error() }
func (e *errOutcomeUnknown) Unwrap() error { return e.err }

// commit saves g (a compare-and-set on its version) and then, exactly once,
// does what follows: the rating of a finished rated game, the message post
// makes from g as saved (when post is not nil), the queueing of a bot's
// turn. The rating and the message go through the outbox; a crash after
// the save leaves them to the sweep.
func (s *Service) commit(ctx context.Context, g *store.Game, post func(next *store.Game) *Message) error {
	c := consequence{Rate: g.Status == store.Finished && flow(g).Rated && g.Result != rules.Ongoing, Tournament: g.Status == store.Finished}
	if post != nil {
		next := *g
		next.Version++
		c.Post = post(&next)
	}
	if !c.Rate && c.Post == nil && g.Status != store.Finished {
		if err := s.store.Save(ctx, g); err != nil {
			return s.saveError(err)
		}
		s.follow(ctx, g)
		return nil
	}
	payload, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("outbox of channel %s: %w", g.Channel, err)
	}
	e := store.OutboxEntry{
		Key: fmt.Sprintf("%s/%s/%d", g.Channel, g.ID, g.Version+1), Channel: g.Channel, Guild: g.Guild, Game: g.ID,
		Version: g.Version + 1, Check: fingerprint(g), Payload: payload, Due: s.now().Add(s.cfg.OutboxGrace),
	}
	if err := s.store.OutboxPut(ctx, e); err != nil {
		return err // nothing was changed
	}
	if err := s.store.Save(ctx, g); err != nil {
		if errors.Is(err, store.ErrConflict) {
			_ = s.store.OutboxDone(ctx, e.Key) // the sweep would drop it too
		}
		return s.saveError(err)
	}
	// The change is saved: its consequences go out even when shutdown
	// begins meanwhile.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.deliver(dctx, g, e.Key, c); err != nil {
		s.retryLater(dctx, e, err) // known saved: the sweep delivers it whatever comes next
	}
	s.follow(ctx, g)
	return nil
}

// saveError marks a store error after which the save's fate is unknown.
func (s *Service) saveError(err error) error {
	if errors.Is(err, store.ErrUnavailable) {
		return &errOutcomeUnknown{err}
	}
	return err
}

// deliver does c for g, then removes its outbox entry. Each part may be
// repeated: the rating is applied once per game, a post carries its key.
func (s *Service) deliver(ctx context.Context, g *store.Game, key string, c consequence) error {
	if c.Rate {
		if err := s.rate(ctx, g); err != nil {
			return err
		}
	}
	if c.Post != nil {
		msg := *c.Post
		msg.Key = nonce(key)
		if err := s.notify.Post(ctx, g.Channel, msg); err != nil {
			return fmt.Errorf("post to channel %s: %w", g.Channel, err)
		}
	}
	if c.Tournament {
		// Starting the next round takes many store calls and posts: it has
		// the tournament lock's time, not the delivery's, so that a busy
		// machine does not leave a round half started for a referee.
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tourneyLockTTL)
		err := s.tournamentGameOver(tctx, g)
		cancel()
		if err != nil {
			return err
		}
	}
	return s.store.OutboxDone(ctx, key)
}

// Sweep finishes what crashes left half done: every due outbox entry whose
// state change was saved is delivered, every other one dropped; a finished
// game left in its channel is archived. The clock runs it at every tick.
func (s *Service) Sweep(ctx context.Context) error {
	entries, err := s.store.OutboxDue(ctx, s.now(), store.MaxList)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	for _, e := range entries {
		// An entry tried before was found saved then: the game may have
		// moved on since, which must not drop what is owed.
		g, ok, err := s.confirmed(ctx, e)
		if e.Tries == 0 {
			g, ok, err = s.committed(ctx, e)
		}
		if err != nil {
			s.log.Warn("sweep: cannot tell whether a change was saved; later", "key", e.Key, "err", err)
			continue
		}
		if !ok {
			s.log.Info("sweep: the change was not saved; its consequences are dropped", "key", e.Key)
			if err := s.store.OutboxDone(ctx, e.Key); err != nil {
				return fmt.Errorf("sweep: %w", err)
			}
			continue
		}
		var c consequence
		if err := json.Unmarshal(e.Payload, &c); err != nil {
			s.log.Error("sweep: damaged outbox entry dropped", "key", e.Key, "err", err)
			_ = s.store.OutboxDone(ctx, e.Key)
			continue
		}
		if err := s.deliver(ctx, g, e.Key, c); err != nil {
			s.retryLater(ctx, e, err)
		}
	}
	return nil
}

// maxDeliveryTries is how many failed deliveries of one outbox entry the
// sweep makes (backing off to an hour apart: about two days) before it
// gives the entry up, loudly.
const maxDeliveryTries = 50

// retryLater puts a failed delivery back with a doubling delay (from twice
// the outbox grace to an hour), or gives it up after maxDeliveryTries.
func (s *Service) retryLater(ctx context.Context, e store.OutboxEntry, cause error) {
	e.Tries++
	if e.Tries >= maxDeliveryTries {
		s.log.Error("sweep: delivery given up after many tries", "key", e.Key, "tries", e.Tries, "err", cause)
		_ = s.store.OutboxDone(ctx, e.Key)
		return
	}
	wait := min(s.cfg.OutboxGrace<<min(e.Tries, 12), time.Hour)
	e.Due = s.now().Add(wait)
	s.log.Warn("sweep: delivery failed; again later", "key", e.Key, "in", wait.String(), "err", cause)
	if err := s.store.OutboxPut(ctx, e); err != nil {
		s.log.Warn("sweep: could not reschedule a delivery; the next sweep retries it", "key", e.Key, "err", err)
	}
}

// confirmed returns the game of an entry known to be saved: the archived
// game when it finished (a rating needs it), else the channel's game as
// far as a post needs it.
func (s *Service) confirmed(ctx context.Context, e store.OutboxEntry) (*store.Game, bool, error) {
	if e.Tries == 0 {
		return nil, false, nil
	}
	if a, err := s.store.LoadArchived(ctx, e.Guild, e.Game); err == nil && a.Version == e.Version {
		return a, true, nil
	}
	if g, err := s.store.Load(ctx, e.Channel); err == nil && g.ID == e.Game && g.Version == e.Version {
		return g, true, nil // a finished game not archived yet is still there as saved
	}
	return &store.Game{Channel: e.Channel, Guild: e.Guild, ID: e.Game, Version: e.Version}, true, nil
}

// committed reports whether the state change of e was saved, and returns
// the game as it saved it. A finished game still in its channel (its
// archiving was interrupted) is archived on the way.
func (s *Service) committed(ctx context.Context, e store.OutboxEntry) (*store.Game, bool, error) {
	g, err := s.store.Load(ctx, e.Channel)
	switch {
	case err == nil && g.ID == e.Game:
		if g.Version != e.Version || fingerprint(g) != e.Check {
			return nil, false, nil
		}
		if g.Status == store.Finished {
			if err := s.store.Archive(ctx, g); err != nil {
				return nil, false, err
			}
		}
		return g, true, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		var damaged *store.DamagedError
		if errors.As(err, &damaged) {
			return nil, false, nil
		}
		return nil, false, err
	}
	a, err := s.store.LoadArchived(ctx, e.Guild, e.Game)
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return a, a.Version == e.Version && fingerprint(a) == e.Check, nil
}

// jobFailed is called when the job called key failed (a panic, or a start
// that never finished) for the attempts-th time. From the maxAttempts-th on
// the job is set aside: a dead letter with the failure and the game's
// record, the game paused and its channel told. It reports whether the
// job was set aside.
func (s *Service) jobFailed(ctx context.Context, key, channel string, attempts int, failure string) bool {
	if attempts < maxAttempts {
		s.log.Error("job failed; it will be tried again", "job", key, "attempt", attempts, "failure", failure)
		return false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	record := ""
	g, err := s.store.Load(ctx, channel)
	if err == nil {
		record = string(rules.Encode(g.State))
	}
	s.log.Error("job failed again and again; set aside, game paused", "job", key, "attempts", attempts, "failure", failure)
	if err := s.store.AddDeadLetter(ctx, store.DeadLetter{Key: key, Channel: channel, Failure: failure, Record: record, At: s.now()}); err != nil {
		s.log.Error("dead letter not kept", "job", key, "err", err)
	}
	_ = s.store.Finished(ctx, panicKey(key))
	if err != nil || g == nil || g.Status != store.Active || flow(g).Paused {
		return true
	}
	now := s.now()
	flow(g).Paused = true
	flow(g).PausedLeft = max(g.Deadline.Sub(now), 0)
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
	err = s.commit(ctx, g, func(*store.Game) *Message {
		return &Message{Text: "Arbiter failed on this game's position " + fmt.Sprint(attempts) +
			" times (a bug; it is kept for the developers). The game is paused: a referee can `/referee resume` it or `/referee adjudicate` it."}
	})
	if err != nil {
		s.log.Error("game of a set-aside job not paused", "channel", channel, "err", err)
	}
	return true
}

// panicKey counts the panics of the job called key, apart from its starts.
func panicKey(key string) string { return key + "!panic" }

// panicked counts a panic of the job called key and returns how many it
// has had (at least one).
func (s *Service) panicked(ctx context.Context, key string) int {
	n, err := s.store.Attempt(context.WithoutCancel(ctx), panicKey(key))
	if err != nil {
		return 1
	}
	return n
}

// recovered runs f, turning a panic into an error with its stack.
func recovered(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	f()
	return nil
}

// FirstDelivery reports whether the interaction called id arrives for the
// first time within window, across every process on the store (a key with
// an expiry). A replayed request must not be answered twice. When the
// store cannot say, it reports true: a rare replay answered twice is a
// smaller harm than a real command refused.
func (s *Service) FirstDelivery(ctx context.Context, id string, window time.Duration) bool {
	sum := sha256.Sum256([]byte(id))
	name := "ix-" + base64.RawURLEncoding.EncodeToString(sum[:18])
	_, err := s.store.TryLock(ctx, name, window)
	if errors.Is(err, store.ErrLocked) {
		return false
	}
	if err != nil {
		s.log.Warn("cannot tell whether an interaction was seen before; answering it", "id", id, "err", err)
	}
	return true
}
