// Package tournament runs tournaments between players of one game:
// Arbiter's engine at its levels, the yardsticks, programs over the engine
// protocol and the class's own programs (package classprog), in round-robin,
// gauntlet, Swiss or knockout format.
//
// Each pairing plays Config.Games games, in pairs from the same opening with
// the sides swapped, Config.Concurrency games at once. Every player is made
// fresh for each game from its spec and a seed drawn from the tournament's
// seed and the game's id, so a game is the same whether it is played first
// or after a resume, and a program that failed is started fresh for the
// next game. A player that fails (crashes, hangs, overruns, prints garbage,
// plays an illegal move, disagrees with the rules) loses that game with the
// reason; Arbiter's rules decide every result.
//
// With an output directory, the tournament keeps there its settings
// (tournament.json), every finished game (results.json, rewritten
// atomically after each game), each game's record and GIF, the standings
// (standings.csv) and a cross table (crosstable.txt). Run with Resume, it
// reads them back and plays only the games not finished.
//
// Standings give points, W/D/L, and an Elo for every player fitted on all
// games together by maximum likelihood (FitElo) with its 95% interval, and
// the likelihood of superiority of each player over the next.
//
// Live standings and events (for a live wall) come through Config.OnEvent.
//
// Invariants a change must keep: Arbiter's rules decide every result, never
// a player's claim; a game depends only on the tournament's seed and the
// game's id, so a resumed tournament equals an uninterrupted one; the files
// of the output directory and their columns are a contract (add, never
// rename); results.json is rewritten atomically, so a crash loses at most
// the games being played.
package tournament
