package classprog

import (
	"io"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
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

// TestOutputOnItsWayIsCounted: output the program has just written counts
// as waiting at once, though the kernel hands it on to the terminal's
// other end a while later. Were it missed, a program that printed its
// prompt and then waited could be reported waiting with no prompt shown,
// and its prompt, arriving later, answered twice.
func TestOutputOnItsWayIsCounted(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	if master, err = pollable(master); err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	buf := make([]byte, 64)
	for i := range 200 {
		if _, err := tty.Write([]byte("prompt: ")); err != nil {
			t.Fatal(err)
		}
		if n := printedNotRead(master); n != len("prompt: ") {
			t.Fatalf("write %d: %d bytes counted right after the program wrote %d", i, n, len("prompt: "))
		}
		if _, err := io.ReadFull(master, buf[:len("prompt: ")]); err != nil {
			t.Fatal(err)
		}
	}
}
