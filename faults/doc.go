// Package faults holds Arbiter's fault suite (in its tests): real
// processes of the game flow on a real redis-server, killed (SIGKILL),
// paused (SIGSTOP) and restarted at the worst moments, and the checks that
// nothing a player was told is lost, nothing happens twice, and no one
// loses on time because of an outage. `go test -short ./faults` runs a
// quick version for CI; `go test ./faults` the full one (a 60 s outage).
// See docs/explanation/reliability.md.
//
// Invariants a change must keep: the suite drives real processes and a real
// redis-server, never stand-ins; its checks are about what players were
// told (nothing lost, nothing twice, no loss on time from an outage), not
// about timings; the long runs stay behind testing.Short.
package faults
