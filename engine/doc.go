// Package engine plays Arbiter's games: one search for every game of the
// rules contract, the players that commands and matches use (Arbiter's
// engine at levels 1 to 5, the yardsticks random, greedy and alphabeta:N,
// and outside programs over the engine protocol), the engine protocol at
// both ends, matches with their Elo estimate, and the bench.
//
// # The search
//
// The engine names no game: Engine searches through the rules.Game
// interface, and the registry of games is given to whatever needs one
// (PlayerOptions.Registry, NewArbiter, MatchConfig.Registry). Searcher is
// generic over the game type, so a caller may instantiate it over a
// concrete type; BenchmarkDispatch compares the two
// (`go test -run '^$' -bench Dispatch -count 3 ./engine`, depth 6 from the
// start, median of 3): the concrete
// instantiation searched HiQUE and Hi-Ya! about 11% faster and Upthrust
// and Sixes within the noise, about a tenth of a ply a move: not worth a
// switch that names every game. Its techniques:
//
//   - iterative deepening, returning the best move of the last iteration
//     (or of the current one, once its first move is searched) when a limit
//     runs out;
//   - negamax alpha-beta with principal variation search (null windows after
//     the first move, re-searched on a fail high) and late move reductions
//     for quiet moves late in the order;
//   - aspiration windows from depth 5, widened on the side that fails;
//   - reverse futility pruning within 3 plies of the leaves, at a margin a
//     game may set (rules.Pruner), and internal iterative reduction: a node
//     of 4 plies or more without a move from the table is searched a ply
//     shallower;
//   - a fixed-size transposition table keyed by the position hash, one entry
//     a slot, replaced by depth and age, holding the best move and a bound;
//     a search with a move time uses only the part of it that it fills, 1 MiB
//     for each 20 ms, which misses the processor's caches less;
//   - move ordering: the hash move, then tactical moves (removals, attacks,
//     surrounds), then two killer moves a ply, then the history heuristic;
//   - at the root, in a calm game that finds no wins in one at its leaves
//     (Amazons, Hex, Othello), the moves in the order of the first ply's
//     scores from the second ply on, the best of the last iteration first;
//   - a quiescence search over tactical moves with a stand-pat bound; in a
//     game with none (rules.Calm) a leaf is its evaluation, with no move
//     generated, unless the game finds the player to move a win in one
//     (rules.Finisher);
//   - mate-distance scores: a won game at ply p scores Mate-p, so the engine
//     takes the quickest win and the slowest loss; the bounds are pruned by
//     mate distance too.
//
// Invariants: the game handed to a search is cloned, never changed; a search
// allocates nothing per node; it checks the clock and the context every 256
// nodes and the node limit at every node; whenever the position has a legal
// move, the result holds one (the first legal move before any search).
package engine
