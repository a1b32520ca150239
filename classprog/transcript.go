package classprog

import (
	"fmt"
	"strings"
	"sync"
)

// The host's limits on a program's output.
const (
	// maxLine bounds a line; a longer one is cut.
	maxLine = 4096
	// FloodLimit is the most bytes a program may print while it is to move
	// (or during its setup) before it loses for flooding.
	FloodLimit = 256 << 10
)

// event is something the program did: printed a line, showed an unfinished
// line (a prompt), blocked reading its terminal, or ended.
type event struct {
	kind eventKind
	text string
	gen  int // the input generation when seen (prompts and blocks go stale with new input)
}

type eventKind int

const (
	evLine eventKind = iota
	evPrompt
	evBlocked
	evExit
	evGarbage
	evFlood
)

// transcript keeps the dialogue, up to a bound: the first lines and the
// latest ones.
type transcript struct {
	mu   sync.Mutex
	head []string
	tail []string // a ring of the latest lines once head is full
	next int      // where the ring writes next
	cut  int      // lines dropped between head and tail
}

const maxTranscript = 1000 // lines kept at each end

func (t *transcript) add(dir, line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	line = dir + line
	switch {
	case len(t.head) < maxTranscript:
		t.head = append(t.head, line)
	case len(t.tail) < maxTranscript:
		t.tail = append(t.tail, line)
	default:
		t.tail[t.next] = line
		t.next = (t.next + 1) % maxTranscript
		t.cut++
	}
}

// lines returns the lines kept, in order, with a note where some were cut.
func (t *transcript) lines() []string {
	out := append([]string{}, t.head...)
	if t.cut > 0 {
		out = append(out, fmt.Sprintf("... (%d lines left out)", t.cut))
	}
	out = append(out, t.tail[t.next:]...)
	return append(out, t.tail[:t.next]...)
}

func (t *transcript) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.head) == 0 {
		return ""
	}
	return strings.Join(t.lines(), "\n") + "\n"
}

// last returns the last n lines the program printed, for reasons.
func (t *transcript) last(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	lines := t.lines()
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.HasPrefix(lines[i], "> ") && strings.TrimSpace(lines[i][2:]) != "" {
			out = append([]string{strings.TrimSpace(lines[i][2:])}, out...)
		}
	}
	return out
}

// unsupported says that class programs (run under a pseudo-terminal) need
// Linux, on a system goos where they cannot run, and what to do instead.
func unsupported(goos string) string {
	return "class programs that talk to a terminal run on Linux only, not on " + goos +
		" (Arbiter watches the program wait for input through Linux's /proc): run the match on a Linux machine" +
		" (a server, WSL or a container), or make the program speak the engine protocol and use exec:COMMAND or arbiter bridge"
}
