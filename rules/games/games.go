// Package games builds the registry of every game Arbiter knows.
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
