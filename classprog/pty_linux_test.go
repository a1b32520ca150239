package classprog

import (
	"sync"
	"testing"
	"time"
)

// TestOutputIsReportedBeforeTheProgramWaits: a program that prints a line
// and then waits for input is reported waiting only after its line, even
// when the line lies read from the terminal but not yet taken for a
// while. Were it reported waiting first, a referee would answer a move the
// program had already printed. The pause only widens the window in which
// that could happen; the order holds however long it is.
func TestOutputIsReportedBeforeTheProgramWaits(t *testing.T) {
	p, err := launch(`printf 'ready\n'; read answer`, &transcript{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	p.afterRead = func() { once.Do(func() { time.Sleep(300 * time.Millisecond) }) }
	p.run()
	defer p.stop()
	for e := range p.events {
		switch e.kind {
		case evLine:
			if e.text != "ready" {
				t.Fatalf("line %q, want %q", e.text, "ready")
			}
			return
		case evBlocked:
			t.Fatal("reported waiting for input before the line it printed")
		case evExit:
			t.Fatal("exited before its line was reported")
		}
	}
}
