package tournament

// scheduler decides the next pairings from the results so far. The same
// results give the same pairings, so a resumed tournament finds its games.
type scheduler struct {
	cfg   Config
	round int // the last round handed out
	// knockout: the bracket's slots of the round to come (KnockoutSlots)
	// and the pairings of the round in progress.
	alive   []int
	current []pairing
}

func newScheduler(cfg Config) *scheduler {
	s := &scheduler{cfg: cfg}
	if cfg.Format == Knockout {
		s.alive = KnockoutSlots(len(cfg.Players))
	}
	return s
}

// next returns the next batch of pairings, or nil when the tournament is
// over.
func (s *scheduler) next(results []GameResult) []pairing {
	n := len(s.cfg.Players)
	switch s.cfg.Format {
	case RoundRobin, Gauntlet:
		if s.round > 0 {
			return nil
		}
		var out []pairing
		for c := 0; c < s.cfg.Rounds; c++ {
			var cycle []pairing
			if s.cfg.Format == RoundRobin {
				cycle = roundRobin(n, c*(n-1+n%2)+1)
			} else {
				for i := 1; i < n; i++ {
					cycle = append(cycle, pairing{round: c*(n-1) + i, a: 0, b: i})
				}
			}
			if c%2 == 1 { // the next cycle starts with the colours turned
				for i := range cycle {
					cycle[i].a, cycle[i].b = cycle[i].b, cycle[i].a
				}
			}
			out = append(out, cycle...)
		}
		s.round = 1
		return out
	case Swiss:
		if s.round >= s.cfg.Rounds {
			return nil
		}
		s.round++
		index := s.index()
		players := make([]SwissPlayer, n)
		for _, st := range Standings(s.cfg.Players, results) {
			i := index[st.Player]
			players[i].Points, players[i].Byes = st.Points, st.Byes
		}
		for _, r := range results {
			if !r.Bye {
				a, b := index[r.First], index[r.Second]
				players[a].Met = append(players[a].Met, b)
				players[b].Met = append(players[b].Met, a)
			}
		}
		// Each pairing plays both sides alike: no side to balance.
		var out []pairing
		for _, p := range PairSwiss(s.round, players) {
			out = append(out, pairing{round: p.Round, a: p.First, b: p.Second})
		}
		return out
	case Knockout:
		return s.knockout(results)
	}
	return nil
}

// index maps player names to their entry order.
func (s *scheduler) index() map[string]int {
	m := map[string]int{}
	for i, p := range s.cfg.Players {
		m[p.Name] = i
	}
	return m
}

// knockout returns the play-offs of the round in progress, or the next
// round, or nil once one player is left.
func (s *scheduler) knockout(results []GameResult) []pairing {
	if len(s.current) > 0 {
		index := s.index()
		var through []int
		var playoff []pairing
		for i, p := range s.current {
			if p.b < 0 {
				through = append(through, p.a)
				continue
			}
			var pa, pb float64
			for _, r := range results {
				if r.Round != p.round || r.Bye || key(index[r.First], index[r.Second]) != key(p.a, p.b) {
					continue
				}
				x := r.firstScore()
				if index[r.First] == p.a {
					pa, pb = pa+x, pb+1-x
				} else {
					pa, pb = pa+1-x, pb+x
				}
			}
			switch w := KnockoutTie(p.a, p.b, pa, pb, p.extra, 3); w {
			case -1:
				s.current[i].extra++
				playoff = append(playoff, s.current[i])
			default:
				through = append(through, w)
			}
		}
		if len(playoff) > 0 {
			return playoff
		}
		s.alive = through
		s.current = nil
	}
	if len(s.alive) < 2 {
		return nil
	}
	s.round++
	var out []pairing
	for _, p := range KnockoutRound(s.round, s.alive) {
		out = append(out, pairing{round: p.Round, a: p.First, b: p.Second})
	}
	s.current = out
	return out
}
