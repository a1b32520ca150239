package tournament

import (
	"strings"

	"arbiter/classprog"
	"arbiter/engine"
)

// Specs describes the player specs NewPlayer reads, for help texts.
const Specs = engine.Specs + ", class:COMMAND, class:PROFILE:COMMAND"

// NewPlayer returns the player a spec names: the specs of engine.NewPlayer,
// and class:COMMAND or class:PROFILE:COMMAND, a class program run under a
// pseudo-terminal (see package classprog). The game of a class program is
// the one it is asked to play.
func NewPlayer(spec string, opt engine.PlayerOptions) (engine.Player, error) {
	if kind, rest, ok := strings.Cut(strings.TrimSpace(spec), ":"); ok && strings.EqualFold(kind, "class") {
		return classprog.NewPlayer(rest, opt)
	}
	return engine.NewPlayer(spec, opt)
}

// FromStart reports whether a spec's player must play game from the start
// position (a class program in its class convention): it cannot be told an
// opening.
func FromStart(spec, game string) bool {
	if kind, rest, ok := strings.Cut(strings.TrimSpace(spec), ":"); ok && strings.EqualFold(kind, "class") {
		return classprog.FromStart(rest, game)
	}
	return false
}
