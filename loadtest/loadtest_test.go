package loadtest

import (
	"runtime"
	"testing"
	"time"
)

// TestSummaryLine checks the summary line's fields in their order: the
// fields scripts read stay as they were, and cpu/move comes last.
func TestSummaryLine(t *testing.T) {
	r := Result{Channels: 1000, Clients: 4, Moves: 80000, MovesPerSec: 10000, P50: 250 * time.Microsecond,
		P99: 1500 * time.Microsecond, Max: 9 * time.Millisecond, RoundTripsPerMove: 1, CommandsPerMove: 3.5,
		StoreBytesPerGame: -1, ProcessBytesPerGame: 2048, CPUPerMove: 123456 * time.Nanosecond}
	want := "loadtest: store=redis channels=1000 bots=0 clients=4 moves=80000 refused=0 moves/s=10000 p50=0.25ms " +
		"p99=1.50ms max=9.00ms bot-moves=0 bot-late-p99=0.00ms bot-late-max=0.00ms bot-over-limit+1s=0 " +
		"round-trips/move=1.00 commands/move=3.50 store-bytes/game=n/a process-bytes/game=2048 cpu/move=123µs"
	if got := r.Summary("redis"); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
	r.CPUPerMove = -1
	if got := r.Summary("redis"); got[len(got)-len("cpu/move=n/a"):] != "cpu/move=n/a" {
		t.Errorf("summary without CPU time: %s", got)
	}
}

// TestProcessCPU checks that getrusage gives this process's CPU time and
// that it grows with work.
func TestProcessCPU(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no getrusage")
	}
	before, ok := processCPU()
	if !ok || before <= 0 {
		t.Fatalf("processCPU = %v, %v: want the CPU time used so far", before, ok)
	}
	// Work until the clock the kernel keeps moves on (a few ms at most).
	x := uint64(1)
	for i := 0; ; i++ {
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if after, _ := processCPU(); after > before {
			break
		}
		if i == 1<<12 {
			t.Fatalf("processCPU did not grow after %d rounds of work (x=%d)", i, x)
		}
	}
}
