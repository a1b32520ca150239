package bot

import (
	"testing"
	"time"
)

// TestLivenessDead: the watch learns the interval from the ACKs (ignoring
// the stamp Open makes just before the first ACK), says nothing until it
// knows it, and calls the connection dead once the ACK due is half an
// interval late.
func TestLivenessDead(t *testing.T) {
	l := &liveness{}
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var last time.Time
	ack := func(at time.Time) { // an ACK at at, seen by the next poll
		last = at
		l.dead(last, at)
	}
	const interval = 40 * time.Second
	ack(t0) // Open's stamp
	if l.dead(last, t0.Add(time.Hour)) {
		t.Fatal("dead before the interval is known")
	}
	ack(t0.Add(50 * time.Millisecond)) // the first ACK, at once
	if l.dead(last, t0.Add(time.Hour)) {
		t.Fatal("dead after one gap: the interval is not known yet")
	}
	ack(t0.Add(50*time.Millisecond + interval))
	if l.dead(last, last) || l.interval != interval {
		t.Fatalf("interval %v, want %v", l.interval, interval)
	}
	if l.dead(last, last.Add(interval+interval/2-time.Millisecond)) {
		t.Error("dead while the next ACK is less than half an interval late")
	}
	if !l.dead(last, last.Add(interval+interval/2+time.Millisecond)) {
		t.Error("alive with the next ACK more than half an interval late")
	}
	// A reconnection restarts the count: the time Open stamps is not a
	// gap, and the interval stays what it was.
	now := last.Add(2 * interval)
	l.restart(now)
	ack(now.Add(5 * interval))
	if l.interval != interval || l.dead(last, last) {
		t.Errorf("after a reconnection: interval %v, want %v", l.interval, interval)
	}
	if !l.dead(last, last.Add(interval+interval/2+time.Millisecond)) {
		t.Error("alive after a reconnection with the next ACK more than half an interval late")
	}
}
