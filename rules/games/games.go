// Package games builds the registry of every game Arbiter knows: the four
// written in Go and the described ones (the files Arbiter ships, and an
// instructor's own from a directory).
//
// Invariants a change must keep: it is the one place that names every
// game, so that engine, render, store and commands take a registry and name
// no game themselves; a game added here must pass this package's tests,
// which hold every registered game to the rules.Game contract.
package games

import (
	"errors"
	"fmt"

	shipped "arbiter/games"
	"arbiter/rules"
	"arbiter/rules/described"
	"arbiter/rules/hique"
	"arbiter/rules/hiya"
	"arbiter/rules/sixes"
	"arbiter/rules/upthrust"
)

// builtIn returns the games written in Go.
func builtIn() []rules.Definition {
	return []rules.Definition{
		hique.Definition(),
		upthrust.Definition(),
		hiya.Definition(),
		sixes.Definition(),
	}
}

// Shipped returns the described games Arbiter ships, one for each file of
// games/*.yaml (Breakthrough, Othello, Connect Four, Gomoku, Tic-tac-toe,
// ...). The files are embedded and tested, so an
// error here is a defect of the build; it panics.
func Shipped() []*described.Spec {
	specs, errs := described.LoadFS(shipped.Files)
	if len(errs) > 0 {
		panic(fmt.Sprintf("games: a shipped game description is broken: %v", errors.Join(errs...)))
	}
	return specs
}

// Registry returns a new registry of HiQUE, Upthrust, Hi-Ya!, Sixes and
// the shipped described games.
func Registry() *rules.Registry {
	r, _ := WithDir("")
	return r
}

// WithDir returns the registry of Registry plus the described games in
// dir (files ending in .yaml; "" for none). A file that fails to load
// (one that does not read as a description, is too long, or is no regular
// file), or whose game's name is taken, is left out and its error, naming
// the folder and the file, returned; the other games still load.
func WithDir(dir string) (*rules.Registry, []error) {
	defs := builtIn()
	for _, s := range Shipped() {
		defs = append(defs, s.Definition())
	}
	if dir == "" {
		return rules.NewRegistry(defs...), nil
	}
	specs, errs := described.LoadDir(dir) // each error "DIR/FILE:LINE:COL: what"
	for _, s := range specs {
		if taken(defs, s.Name) {
			errs = append(errs, fmt.Errorf("%s: %w: %s is a game already; rename it", s.File, described.ErrNameTaken, s.Name))
			continue
		}
		defs = append(defs, s.Definition())
	}
	return rules.NewRegistry(defs...), errs
}

func taken(defs []rules.Definition, name string) bool {
	for _, d := range defs {
		if d.Name == name {
			return true
		}
	}
	return false
}
