package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
)

// closeZombie is the close code for a connection whose heartbeats are no
// longer acknowledged: any code but 1000 and 1001 keeps the session, so
// that the next connection resumes it (events/gateway.mdx, "Heartbeat
// Interval" and "Resuming").
const closeZombie = 4000

// liveness watches the gateway connection's heartbeat ACKs. discordgo
// v0.29 waits five heartbeat intervals (about 200 s) for a missing ACK,
// then closes with 1000, which ends the session; Discord says to act when
// no ACK came between two heartbeats. The watch learns the interval from
// the ACKs themselves (discordgo does not expose HELLO's), and when the
// ACK due after the last one is half an interval late, closes with
// closeZombie and opens again: discordgo then RESUMEs, and Discord
// replays what was dispatched meanwhile, interactions included.
type liveness struct {
	s *discordgo.Session
	// lastAck is the last ACK time seen; gaps the spacings seen between
	// ACKs; interval the longest of them, the heartbeat interval once
	// two have been seen (the first follows Open's own stamp at once).
	lastAck  time.Time
	gaps     int
	interval time.Duration
}

// lastAckTime reads discordgo's LastHeartbeatAck, which it writes under
// the session's lock.
func (l *liveness) lastAckTime() time.Time {
	l.s.RLock()
	defer l.s.RUnlock()
	return l.s.LastHeartbeatAck
}

// poll is how often the watch looks: an eighth of the interval, between
// 5 ms and a second; 250 ms while the interval is unknown.
func (l *liveness) poll() time.Duration {
	if l.gaps < 2 {
		return 250 * time.Millisecond
	}
	return min(max(l.interval/8, 5*time.Millisecond), time.Second)
}

// dead reports whether the connection looks dead at now: the ACK that
// should have followed the last one is half an interval late.
func (l *liveness) dead(now time.Time) bool {
	ack := l.lastAckTime()
	if !ack.Equal(l.lastAck) {
		if !l.lastAck.IsZero() && ack.After(l.lastAck) {
			l.gaps++
			l.interval = max(l.interval, ack.Sub(l.lastAck))
		}
		l.lastAck = ack
	}
	return l.gaps >= 2 && now.Sub(l.lastAck) > l.interval+l.interval/2
}

// keepAlive runs the watch until ctx ends; log names what it did.
func (b *Bot) keepAlive(ctx context.Context) {
	l := &liveness{s: b.s}
	t := time.NewTimer(l.poll())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if l.dead(time.Now()) {
			b.log.Warn("gateway heartbeat not acknowledged; reconnecting to resume", "since", time.Since(l.lastAck).Round(time.Millisecond), "interval", l.interval)
			b.reconnect(ctx)
			l.lastAck = l.lastAckTime()
		}
		t.Reset(l.poll())
	}
}

// reconnect closes the gateway connection with closeZombie and opens it
// again, which resumes the session, trying until it succeeds or ctx ends.
func (b *Bot) reconnect(ctx context.Context) {
	if err := b.s.CloseWithCode(closeZombie); err != nil {
		b.log.Warn("closing the dead gateway connection", "err", err)
	}
	wait := 500 * time.Millisecond
	for {
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
