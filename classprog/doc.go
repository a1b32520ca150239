// Package classprog plays the class's own programs as players: a program
// written for a course, which talks to a person at a terminal rather than
// over the engine protocol, is run under a pseudo-terminal, answered in its
// class's convention (or the style a profile file describes) and refereed by
// Arbiter's rules.
//
// Invariants a change must keep: Arbiter's rules decide every move's
// legality, never the program's own output; a program that crashes, hangs,
// overruns or prints garbage loses that game with a *engine.ForfeitError
// quoting it, and is stopped at the game's end; the host's limits on a
// program's output (transcript.go) bound the memory one program can take.
//
// Class programs run on Linux only (pty_linux.go watches a program wait
// for input through /proc); elsewhere a class program loses at its start
// with a reason saying so and what to use instead (engine protocol).
package classprog
