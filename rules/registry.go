package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Definition describes a game to the registry: its names, its players, its
// options and how to start it.
type Definition struct {
	Name     string        // registry name, as in commands: "hique"
	Title    string        // as people write it: "HiQUE"
	Players  [2]string     // player 1 and player 2 in the game's words: "Black", "White"
	Options  []OptionSpec  // the Variants of the rules file
	MoveTime time.Duration // the class's per-move limit, the engine's default
	Summary  string        // the rules in a few lines, for players
	NoDraws  bool          // the rules end every game with a winner (Hi-Ya!)
	// New starts a game from the start position. opts is complete and
	// checked (see Resolve); New still validates what specs cannot (for
	// example combinations) and returns a clear error.
	New func(opts Options) (Game, error)
}

// NewFunc adapts a game's constructor, which returns its concrete type, to
// Definition.New: on an error it returns a nil Game, never a Game holding a
// nil pointer.
func NewFunc[G Game](newGame func(Options) (G, error)) func(Options) (Game, error) {
	return func(opts Options) (Game, error) {
		g, err := newGame(opts)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
}

// Registry finds games by name. Build one with NewRegistry; rules/games
// has the registry of all four games.
type Registry struct {
	defs []Definition
}

// NewRegistry returns a registry of the given games.
func NewRegistry(defs ...Definition) *Registry {
	return &Registry{defs: slices.Clone(defs)}
}

// Names returns the registered game names in registration order.
func (r *Registry) Names() []string {
	names := make([]string, len(r.defs))
	for i, d := range r.defs {
		names[i] = d.Name
	}
	return names
}

// Definitions returns the registered games in registration order.
func (r *Registry) Definitions() []Definition { return slices.Clone(r.defs) }

// Lookup returns the game called name (case does not matter). The error
// lists the games there are.
func (r *Registry) Lookup(name string) (Definition, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, d := range r.defs {
		if d.Name == n || strings.ToLower(d.Title) == n {
			return d, nil
		}
	}
	return Definition{}, fmt.Errorf("unknown game %q: the games are %s", name, strings.Join(r.Names(), ", "))
}

// New starts the game called name with the given options (missing ones
// take their defaults).
func (r *Registry) New(name string, opts Options) (Game, error) {
	d, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	full, err := Resolve(d.Name, d.Options, opts)
	if err != nil {
		return nil, err
	}
	g, err := d.New(full)
	if err != nil {
		return nil, fmt.Errorf("new %s: %w", d.Name, err)
	}
	return g, nil
}

// Replay starts the game called name with opts and plays the moves given
// in text, checking each; the error names the move that failed and why.
func (r *Registry) Replay(name string, opts Options, moves []string) (Game, error) {
	g, err := r.New(name, opts)
	if err != nil {
		return nil, err
	}
	for i, text := range moves {
		m, err := g.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, text, err)
		}
		g.Play(m)
	}
	return g, nil
}
