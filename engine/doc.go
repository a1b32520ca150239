// Package engine plays Arbiter's games: one search for every game of the
// rules contract, the players that commands and matches use (Arbiter's
// engine at levels 1 to 5, the yardsticks random, greedy and alphabeta:N,
// and outside programs over the engine protocol), the engine protocol at
// both ends, matches with their Elo estimate, and the bench.
//
// # The search
//
// Searcher is generic over the concrete game type (for example
// *hique.Game), and Engine picks the instantiation once per search with a
// type switch, so the search never goes through the rules.Game interface.
// (Go compiles the method calls of an instantiation over pointer types
// through its dictionary: an indirect call per call, without the interface
// lookup; measured, it is as fast as the interface and the game's own
// work dominates.) Its techniques:
//
//   - iterative deepening, returning the best move of the last iteration
//     (or of the current one, once its first move is searched) when a limit
//     runs out;
//   - negamax alpha-beta with principal variation search (null windows after
//     the first move, re-searched on a fail high) and late move reductions
//     for quiet moves late in the order;
//   - a fixed-size transposition table keyed by the position hash, one entry
//     a slot, replaced by depth and age, holding the best move and a bound;
//   - move ordering: the hash move, then tactical moves (removals, attacks,
//     surrounds), then two killer moves a ply, then the history heuristic;
//   - a quiescence search over tactical moves with a stand-pat bound;
//   - mate-distance scores: a won game at ply p scores Mate-p, so the engine
//     takes the quickest win and the slowest loss; the bounds are pruned by
//     mate distance too.
//
// Invariants: the game handed to a search is cloned, never changed; a search
// allocates nothing per node; it checks the clock and the context every 256
// nodes and the node limit at every node; whenever the position has a legal
// move, the result holds one (the first legal move before any search).
package engine
