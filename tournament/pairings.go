package tournament

// Pairing is two entrants (indices into Config.Players) meeting in a
// round, First moving first.
type Pairing struct {
	Round         int
	First, Second int
}

// Schedule returns every pairing of a round robin or gauntlet of players
// entrants over cycles cycles (the second cycle with the sides turned),
// round by round, as `arbiter tournament` plays them with one game a
// pairing. Other formats pair from results and are not scheduled ahead.
func Schedule(format Format, players, cycles int) []Pairing {
	if format != RoundRobin && format != Gauntlet {
		return nil
	}
	s := newScheduler(Config{Format: format, Rounds: max(cycles, 1), Players: make([]Entrant, players)})
	var out []Pairing
	for _, p := range s.next(nil) {
		if p.b >= 0 {
			out = append(out, Pairing{Round: p.round, First: p.a, Second: p.b})
		}
	}
	return out
}
