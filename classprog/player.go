package classprog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbiter/engine"
	"arbiter/rules"
	"arbiter/sandbox"
)

// StartupTime is how long a program may take to ask its first question
// or print its first move.
const StartupTime = 10 * time.Second

// maxReasks is how often a program may ask again for a move it was given
// (its input may have been lost) before it loses for refusing a legal move.
const maxReasks = 2

// Player is a class program as a player: run under a pseudo-terminal,
// spoken to in its class convention (or its profile's style), refereed by
// Arbiter's rules. It runs one program a game and stops it at the game's
// end; a program that fails loses with a *engine.ForfeitError that quotes
// it, and its transcript stays available for the game's record.
type Player struct {
	spec    string
	command string
	profile *Style
	opt     engine.PlayerOptions

	exec  engine.Player // Upthrust without a profile: the engine protocol
	sess  *session
	trans *transcript
}

// NewPlayer reads a class spec without its "class:" prefix: COMMAND, or
// PROFILE:COMMAND where PROFILE is a profile file (see Style).
func NewPlayer(spec string, opt engine.PlayerOptions) (*Player, error) {
	spec = strings.TrimSpace(spec)
	p := &Player{spec: "class:" + spec, command: spec, opt: opt, trans: &transcript{}}
	if before, after, ok := strings.Cut(spec, ":"); ok {
		st, err := os.Stat(before)
		switch {
		case err == nil && st.Mode().IsRegular():
			prof, err := LoadProfile(before)
			if err != nil {
				return nil, err
			}
			p.profile, p.command = prof, strings.TrimSpace(after)
		case !strings.ContainsAny(before, " \t"):
			// The colon is in the program's own name: most likely a profile
			// meant by a name or a path that is not there.
			return nil, fmt.Errorf("player %q: no profile file %s: write class:COMMAND, or class:PROFILE:COMMAND with the path of a profile file", p.spec, before)
		}
	}
	if p.command == "" {
		return nil, fmt.Errorf("player %q: write class:COMMAND or class:PROFILE:COMMAND", p.spec)
	}
	return p, nil
}

// String returns the spec, "class:COMMAND".
func (p *Player) String() string { return p.spec }

// Transcript returns the dialogue with the program so far: "> " lines it
// printed, "< " lines it was sent.
func (p *Player) Transcript() string { return p.trans.String() }

// session is one run of the program for one game.
type session struct {
	proc   *proc
	styles []Style
	style  int // the style recognised, -1 before
	side   rules.Player
	turned bool
	asked  []bool // the questions answered, of the recognised style

	known   int          // moves of the game handed to the program (its own, told or pending)
	pending []rules.Move // the opponent's moves not told yet
	// The opponent's move being told, the position it was played in, the
	// next step of the answer, and how often the program asked again.
	cur    rules.Move
	curPos rules.Game
	step   int
	reasks int
	setup  bool // a move, a move prompt or the end of the questions has been seen
}

// Choose tells the program the opponent's moves when it asks for them,
// waits for its own move, and checks it against the rules.
func (p *Player) Choose(ctx context.Context, g rules.Game, lim engine.Limits) (rules.Move, engine.Info, error) {
	begun := time.Now()
	if p.exec == nil && p.profile == nil && len(Conventions()[g.Name()]) == 0 {
		p.exec = engine.NewExecPlayer(p.opt.Registry, p.command, p.opt.Stderr, p.opt.Grace).InBox(p.opt.Box())
	}
	if p.exec != nil {
		return p.exec.Choose(ctx, g, lim)
	}
	moveTime := lim.MoveTime
	if moveTime <= 0 {
		moveTime = engine.ClassMoveTime(p.opt.Registry, g.Name())
	}
	grace := p.opt.Grace
	if grace <= 0 {
		grace = engine.DefaultGrace
	}
	if p.sess == nil {
		if g.Ply() > 1 || (g.Ply() == 1 && g.ToMove() == rules.P1) {
			return p.fail(&engine.ForfeitError{Reason: "a class program plays from the start position: it cannot be told an opening"})
		}
		pr, err := start(p.command, p.trans, p.opt.Box())
		if err != nil {
			return p.fail(&engine.ForfeitError{Reason: "could not start: " + err.Error()})
		}
		styles := Conventions()[g.Name()]
		if p.profile != nil {
			styles = []Style{*p.profile}
		}
		p.sess = &session{proc: pr, styles: styles, style: -1, side: g.ToMove(), cur: rules.NoMove}
		if len(styles) == 1 {
			p.sess.pick(0, g)
		}
	}
	s := p.sess
	h := g.History()
	s.pending = append(s.pending, h[s.known:]...)
	s.known = len(h)
	s.proc.resetCount()
	cpu0 := s.proc.cpu()

	// The clock runs from the last input the program was given; before
	// its first move it also has the startup time.
	limit := moveTime + grace
	due := time.Now().Add(limit)
	if !s.setup {
		due = due.Add(StartupTime)
	}
	timer := time.NewTimer(time.Until(due))
	defer timer.Stop()
	for {
		var e event
		select {
		case <-ctx.Done():
			p.stop()
			return rules.NoMove, engine.Info{Move: rules.NoMove}, ctx.Err()
		case <-timer.C:
			return p.fail(&engine.ForfeitError{Reason: fmt.Sprintf("timed out: no move within %v (+%v grace)%s", moveTime, grace, p.quote())})
		case e = <-s.proc.events:
		}
		if e.kind == evExit {
			return p.fail(&engine.ForfeitError{Reason: s.proc.exitText() + " before its move" + p.quote()})
		}
		switch e.kind {
		case evFlood:
			return p.fail(&engine.ForfeitError{Reason: fmt.Sprintf("flooded its output (over %d bytes for one move)", FloodLimit)})
		case evGarbage:
			return p.fail(&engine.ForfeitError{Reason: "printed garbage: " + strconv.Quote(cut(e.text))})
		case evLine, evPrompt:
			if e.kind == evPrompt && e.gen != s.proc.generation() {
				continue // a prompt answered already
			}
			if text, ok := s.moveIn(e.text, g); ok {
				if len(s.pending) > 0 || s.cur != rules.NoMove && s.step < len(s.styles[s.style].ask) {
					return p.fail(&engine.ForfeitError{Reason: fmt.Sprintf("moved before it took its opponent's move, saying %q", cut(e.text))})
				}
				mv, err := g.ParseMove(text)
				if err != nil {
					return p.fail(&engine.ForfeitError{Reason: fmt.Sprintf("played an illegal move: it said %q (%s): %v", cut(e.text), text, err)})
				}
				s.known++
				s.setup = true
				s.cur, s.step, s.reasks = rules.NoMove, 0, 0
				info := engine.Info{Move: mv, Elapsed: time.Since(begun)}
				p.trans.add("= ", timing(g.FormatMove(mv), info.Elapsed, cpu0, s.proc.cpu(), &info))
				if r := s.proc.overCPU(); r != "" {
					return p.fail(&engine.ForfeitError{Reason: string(r)})
				}
				return mv, info, nil
			}
			answered, err := s.answer(e.text, false, g)
			if err != nil {
				return p.fail(err)
			}
			if answered && s.setup {
				timer.Reset(limit) // the program's time runs from its input
			}
		case evBlocked:
			if e.gen != s.proc.generation() {
				continue // blocked before its last input arrived
			}
			answered, err := s.answer("", true, g)
			if err != nil {
				return p.fail(err)
			}
			if answered && s.setup {
				timer.Reset(limit)
			}
		}
	}
}

// pick settles the style the program speaks.
func (s *session) pick(i int, g rules.Game) {
	s.style = i
	st := s.styles[i]
	s.asked = make([]bool, len(st.questions))
	s.turned = st.TurnedAs != "" && strings.EqualFold(g.PlayerName(s.side), st.TurnedAs)
}

// moveIn reads the program's move from a line, as text in the game's
// notation.
func (s *session) moveIn(text string, g rules.Game) (string, bool) {
	for i, st := range s.styles {
		if s.style >= 0 && i != s.style {
			continue
		}
		sub := st.move.FindStringSubmatch(text)
		if sub == nil {
			continue
		}
		if s.style < 0 {
			s.pick(i, g)
		}
		var from, to, move string
		for k, name := range st.move.SubexpNames() {
			switch name {
			case "from":
				from = sub[k]
			case "to":
				to = sub[k]
			case "move":
				move = sub[k]
			}
		}
		if move != "" {
			from, to = splitMove(move)
		}
		if s.turned {
			from, to = turn(from), turn(to)
		}
		return strings.TrimSpace(from + " " + to), true
	}
	return "", false
}

// answer answers a question or a prompt for the opponent's move in text,
// or, when blocked, whatever the program waits for. It reports whether it
// wrote anything.
func (s *session) answer(text string, blocked bool, g rules.Game) (bool, error) {
	if !s.setup {
		for i, st := range s.styles {
			if s.style >= 0 && i != s.style {
				continue
			}
			for q, pr := range st.questions {
				if blocked || !pr.re.MatchString(text) {
					continue
				}
				if s.style < 0 {
					s.pick(i, g)
				}
				if s.asked[q] {
					if s.reasks++; s.reasks > maxReasks {
						return false, &engine.ForfeitError{Reason: fmt.Sprintf("refused the answer %q, saying %q",
							fill(pr.answer, g, s.side, rules.NoMove, false), cut(text))}
					}
				}
				s.asked[q] = true
				return true, s.proc.write(fill(pr.answer, g, s.side, rules.NoMove, false))
			}
		}
	}
	if s.style < 0 {
		return false, nil // no style recognised yet: chatter
	}
	st := s.styles[s.style]
	step := -1
	for k, pr := range st.ask {
		if !blocked && pr.re.MatchString(text) {
			step = k
			break
		}
	}
	if step < 0 && !blocked {
		return false, nil // chatter
	}
	if blocked && !s.setup && len(st.questions) > 0 && !slices.Contains(s.asked, true) {
		// Blocked before any question showed: the first question's prompt
		// never came.
		s.asked[0] = true
		return true, s.proc.write(fill(st.questions[0].answer, g, s.side, rules.NoMove, false))
	}
	s.setup = true
	switch {
	case s.cur != rules.NoMove && s.step < len(st.ask) && (step < 0 || step >= s.step):
		// The next step of the move being told.
		if step >= 0 {
			s.step = step
		}
	case s.cur != rules.NoMove:
		// Asked again for a move it was told: it did not take it.
		if s.reasks++; s.reasks > maxReasks {
			return false, &engine.ForfeitError{Reason: fmt.Sprintf("refused the legal move %s, saying %q",
				s.curPos.FormatMove(s.cur), cut(strings.Join(s.proc.transcript.last(2), " / ")))}
		}
		s.step = max(step, 0)
	case len(s.pending) > 0:
		s.curPos = g.Clone()
		for range s.pending {
			s.curPos.Undo()
		}
		s.cur, s.pending = s.pending[0], s.pending[1:]
		s.step, s.reasks = max(step, 0), 0
	default:
		return false, &engine.ForfeitError{Reason: fmt.Sprintf("asked for its opponent's move on its own turn, saying %q", cut(text))}
	}
	err := s.proc.write(fill(st.ask[s.step].answer, s.curPos, s.side, s.cur, s.turned))
	s.step++
	return true, err
}

// fail stops the program and returns err as Choose's answer; the reason
// quotes the program's last words. A program that hit a limit of its box
// loses for that.
func (p *Player) fail(err error) (rules.Move, engine.Info, error) {
	var limit sandbox.Reason
	if p.sess != nil {
		pr := p.sess.proc
		p.stop()
		limit = pr.limitHit()
	}
	var fe *engine.ForfeitError
	if limit != "" && errors.As(err, &fe) && !strings.HasPrefix(fe.Reason, string(limit)) {
		fe.Reason = string(limit) + " (" + fe.Reason + ")"
	}
	return rules.NoMove, engine.Info{Move: rules.NoMove}, err
}

// timing writes a move's line of the transcript: its wall time and, when
// known, the processor time the program used for it (cpu0 before, cpu1
// after), which it also sets in info.
func timing(move string, wall, cpu0, cpu1 time.Duration, info *engine.Info) string {
	line := fmt.Sprintf("move %s: %v wall", move, wall.Round(time.Millisecond))
	if cpu0 >= 0 && cpu1 >= 0 {
		info.CPU = max(0, cpu1-cpu0)
		line += fmt.Sprintf(", %v processor", info.CPU.Round(time.Millisecond))
	}
	return line
}

// quote returns the program's last lines for a reason, or "".
func (p *Player) quote() string {
	last := p.trans.last(2)
	if len(last) == 0 {
		return ""
	}
	return fmt.Sprintf("; its last words: %q", cut(strings.Join(last, " / ")))
}

// End stops the program (and the engine-protocol program of Upthrust).
func (p *Player) End(g rules.Game) {
	if p.exec != nil {
		p.exec.End(g)
		return
	}
	p.stop()
}

func (p *Player) stop() {
	if p.sess != nil {
		p.sess.proc.stop()
		p.sess = nil
	}
}

// cut shortens text for a reason.
func cut(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// FromStart reports whether the program of a class spec (without its
// "class:" prefix) must play game from the start position: a program
// spoken to in a class convention or a profile cannot be told an opening;
// an Upthrust program speaks the engine protocol and can.
func FromStart(spec, game string) bool {
	if before, _, ok := strings.Cut(spec, ":"); ok {
		if st, err := os.Stat(before); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return len(Conventions()[game]) > 0
}
