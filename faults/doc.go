// Package faults holds Arbiter's fault suite (in its tests): real
// processes of the game flow on a real redis-server, killed (SIGKILL),
// paused (SIGSTOP) and restarted at the worst moments, and the checks that
// nothing a player was told is lost, nothing happens twice, and no one
// loses on time because of an outage. `go test -short ./faults` runs a
// quick version for CI; `go test ./faults` the full one (a 60 s outage).
// See docs/reliability.md.
package faults
