// Package games builds the registry of every game Arbiter knows.
//
// Invariants a change must keep: it is the one place that names every
// game, so that engine, render, store and commands take a registry and name
// no game themselves; a game added here must pass this package's tests,
// which hold every registered game to the rules.Game contract.
package games

import (
	"arbiter/rules"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// Registry returns a new registry of HiQUE, Upthrust, Hi-Ya! and Sixes.
func Registry() *rules.Registry {
	return rules.NewRegistry(
		hique.Definition(),
		upthrust.Definition(),
		hiya.Definition(),
		sixes.Definition(),
	)
}
