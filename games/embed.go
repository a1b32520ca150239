// Package games holds the game descriptions Arbiter ships (one YAML file a
// game, in the format of docs/reference/game-format.md), embedded in the
// binary.
package games

import "embed"

// Files holds the shipped descriptions, *.yaml at its root.
//
//go:embed *.yaml
var Files embed.FS
