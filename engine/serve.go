package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
)

// Serve plays one game as the program side of the engine protocol (see
// docs/reference/engine-protocol.md): it reads the host's commands from in, answers
// on out, and chooses its moves with p. game, when not empty, is the only
// game it accepts. Diagnostics go to log. It returns nil after "quit" or at
// the end of in, and an error when the host breaks the protocol (a game it
// does not know, a move that is not legal) or ctx is done.
func Serve(ctx context.Context, in io.Reader, out io.Writer, log io.Writer, reg *rules.Registry, game string, p Player) error {
	// The reader stops at the end of in or, once Serve returns, at its
	// next line.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 256), 1<<16)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()

	w := bufio.NewWriter(out)
	st := serveState{game: game, reg: reg, player: p, opts: rules.Options{}, moveTime: 5 * time.Second}
	if game != "" {
		if def, err := reg.Lookup(game); err == nil {
			st.game = def.Name
			if def.MoveTime > 0 {
				st.moveTime = def.MoveTime
			}
		}
	}
	defer func() {
		if st.g != nil {
			p.End(st.g)
		}
	}()
	for {
		var line string
		var open bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, open = <-lines:
		}
		if !open {
			if err := <-readErr; err != nil {
				return fmt.Errorf("read the host's commands: %w", err)
			}
			return nil
		}
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		rest = strings.TrimSpace(rest)
		reply, err := st.handle(ctx, word, rest)
		if err != nil {
			return fmt.Errorf("host said %q: %w", line, err)
		}
		if reply == "quit" {
			return nil
		}
		if reply == "?" {
			fmt.Fprintf(log, "arbiter engine: ignoring %q\n", line)
			continue
		}
		if reply != "" {
			if _, err := w.WriteString(reply); err != nil {
				return fmt.Errorf("answer the host: %w", err)
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("answer the host: %w", err)
			}
		}
	}
}

// serveState is what the program side knows of its game.
type serveState struct {
	game     string
	reg      *rules.Registry
	player   Player
	opts     rules.Options
	moveTime time.Duration
	g        rules.Game
}

// handle carries out one host command and returns the reply text ("" for
// none, "quit" to stop, "?" for an unknown command).
func (st *serveState) handle(ctx context.Context, word, rest string) (string, error) {
	switch word {
	case "":
		return "", nil
	case "game":
		def, err := st.reg.Lookup(rest)
		if err != nil {
			return "", err
		}
		if st.game != "" && def.Name != st.game {
			return "", fmt.Errorf("this engine plays %s, not %s", st.game, def.Name)
		}
		st.game, st.g = def.Name, nil
		if def.MoveTime > 0 {
			st.moveTime = def.MoveTime
		}
	case "options":
		opts, err := rules.ParseOptions(rest)
		if err != nil {
			return "", err
		}
		st.opts, st.g = opts, nil
	case "side":
		if rest != "1" && rest != "2" {
			return "", fmt.Errorf("side must be 1 or 2")
		}
	case "time":
		ms, err := strconv.Atoi(rest)
		if err != nil || ms < 1 {
			return "", fmt.Errorf("time must be a whole number of milliseconds, at least 1")
		}
		st.moveTime = time.Duration(ms) * time.Millisecond
	case "isready":
		if err := st.ensureGame(); err != nil {
			return "", err
		}
		return "ready\n", nil
	case "played":
		if err := st.ensureGame(); err != nil {
			return "", err
		}
		m, err := st.g.ParseMove(rest)
		if err != nil {
			return "", err
		}
		st.g.Play(m)
	case "go":
		if err := st.ensureGame(); err != nil {
			return "", err
		}
		m, info, err := st.player.Choose(ctx, st.g, Limits{MoveTime: st.moveTime})
		if err != nil {
			return "", err
		}
		text := st.g.FormatMove(m)
		st.g.Play(m)
		return fmt.Sprintf("info depth %d score %d nodes %d time %d pv %s\nmove %s\n",
			info.Depth, info.Score, info.Nodes, info.Elapsed.Milliseconds(), formatLine(st.g, info.PV), text), nil
	case "result":
		if st.g != nil {
			st.player.End(st.g)
		}
	case "quit":
		return "quit", nil
	default:
		return "?", nil
	}
	return "", nil
}

// ensureGame starts the game once the host has said which.
func (st *serveState) ensureGame() error {
	if st.g != nil {
		return nil
	}
	if st.game == "" {
		return fmt.Errorf("no game yet: the host must say \"game NAME\" first")
	}
	g, err := st.reg.New(st.game, st.opts)
	if err != nil {
		return err
	}
	st.g = g
	return nil
}

// formatLine writes a principal variation whose first move has just been
// played in g, each move in the position it is played in, separated by
// " / " (moves may hold spaces).
func formatLine(g rules.Game, pv []rules.Move) string {
	if len(pv) == 0 {
		return "-"
	}
	c := g.Clone()
	c.Undo()
	var parts []string
	var list rules.MoveList
	for _, m := range pv {
		c.Moves(&list)
		if !list.Contains(m) {
			break
		}
		parts = append(parts, c.FormatMove(m))
		c.Play(m)
	}
	return strings.Join(parts, " / ")
}
