package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// closeZombie is the close code for a connection whose heartbeats are no
// longer acknowledged: any code but 1000 and 1001 keeps the session, so
// that the next connection resumes it (events/gateway.mdx, "Heartbeat
// Interval" and "Resuming").
const closeZombie = 4000

// ErrGatewayStuck is what Run returns when discordgo's gateway connection
// stays locked past Config.GatewayStuckAfter: the session cannot recover
// in this process, and a restart identifies afresh.
var ErrGatewayStuck = errors.New("discord gateway stuck: discordgo holds its session lock (a RESUME refused with INVALID_SESSION inside Open deadlocks it); restart to identify afresh")

// liveness watches the gateway connection's heartbeat ACKs. discordgo
// waits five heartbeat intervals (about 200 s) for a missing ACK, then
// closes with 1000, which ends the session; Discord says to act when no
// ACK came between two heartbeats. The watch learns the interval from the
// ACKs themselves (discordgo does not expose HELLO's), and when the ACK
// due after the last one is half an interval late (half an interval after
// the unacknowledged heartbeat), closes with closeZombie and opens again:
// discordgo then RESUMEs on READY's resume_gateway_url, and Discord
// replays what was dispatched meanwhile, interactions included.
type liveness struct {
	// lastAck is the last ACK time seen; gaps the spacings seen between
	// ACKs; interval the longest of them, the heartbeat interval once
	// two have been seen (the first follows Open's own stamp at once).
	lastAck  time.Time
	gaps     int
	interval time.Duration
	// rebase: the next ACK time seen starts the count afresh (the stamp
	// Open makes on a new connection), without measuring a gap.
	rebase bool
}

// restart counts from now while a new connection is opened.
func (l *liveness) restart(now time.Time) {
	l.lastAck, l.rebase = now, true
}

// lastAckTime reads discordgo's LastHeartbeatAck, which it writes under
// the session's lock, without waiting for that lock: ok is false while
// someone else holds it.
func lastAckTime(s *discordgo.Session) (ack time.Time, ok bool) {
	if !s.TryRLock() {
		return time.Time{}, false
	}
	defer s.RUnlock()
	return s.LastHeartbeatAck, true
}

// poll is how often the watch looks: an eighth of the interval, between
// 5 ms and a second; 250 ms while the interval is unknown.
func (l *liveness) poll() time.Duration {
	if l.gaps < 2 {
		return 250 * time.Millisecond
	}
	return min(max(l.interval/8, 5*time.Millisecond), time.Second)
}

// dead reports whether the connection looks dead at now, given the last
// ACK time ack: the ACK that should have followed the last one is half an
// interval late.
func (l *liveness) dead(ack, now time.Time) bool {
	if !ack.Equal(l.lastAck) {
		if !l.lastAck.IsZero() && ack.After(l.lastAck) && !l.rebase {
			l.gaps++
			l.interval = max(l.interval, ack.Sub(l.lastAck))
		}
		l.lastAck, l.rebase = ack, false
	}
	return l.gaps >= 2 && now.Sub(l.lastAck) > l.interval+l.interval/2
}

// keepAlive runs the watch until ctx ends, and returns ErrGatewayStuck
// when discordgo's session lock has been held longer than
// Config.GatewayStuckAfter.
func (b *Bot) keepAlive(ctx context.Context) error {
	l := &liveness{}
	var (
		reconnecting sync.WaitGroup
		busy         = make(chan struct{}, 1) // a reconnect is under way
		free         = time.Now()             // the lock was last free
	)
	t := time.NewTimer(l.poll())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			done := make(chan struct{})
			go func() { reconnecting.Wait(); close(done) }()
			select {
			case <-done:
				return nil
			case <-time.After(b.cfg.GatewayStuckAfter):
				return ErrGatewayStuck
			}
		case <-t.C:
		}
		ack, ok := lastAckTime(b.s)
		now := time.Now()
		switch {
		case !ok && now.Sub(free) > b.cfg.GatewayStuckAfter:
			b.log.Error("gateway stuck; giving up on this session", "locked_for", now.Sub(free).Round(time.Millisecond))
			return ErrGatewayStuck // the reconnect under way, if any, is stuck too
		case !ok:
		case l.dead(ack, now):
			free = now
			select {
			case busy <- struct{}{}:
				b.log.Warn("gateway heartbeat not acknowledged; reconnecting to resume", "since", now.Sub(l.lastAck).Round(time.Millisecond), "interval", l.interval)
				reconnecting.Go(func() {
					defer func() { <-busy }()
					b.reconnect(ctx)
				})
			default:
			}
			l.restart(now)
		default:
			free = now
		}
		if ok {
			t.Reset(l.poll())
		} else {
			// Look often, so as not to miss the lock's short free spells
			// between discordgo's reconnect attempts.
			t.Reset(min(l.poll(), 50*time.Millisecond))
		}
	}
}

// reconnect closes the gateway connection with closeZombie and opens it
// again, which resumes the session, trying until it succeeds or ctx ends.
func (b *Bot) reconnect(ctx context.Context) {
	if err := b.s.CloseWithCode(closeZombie); err != nil {
		b.log.Warn("closing the dead gateway connection", "err", err)
	}
	wait := 500 * time.Millisecond
	for ctx.Err() == nil {
		err := b.s.Open()
		if err == nil || errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			b.log.Info("gateway reconnected")
			return
		}
		b.log.Warn("gateway reconnect failed; trying again", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}
