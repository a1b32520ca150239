package tournament

import (
	"math"
	"sort"
)

// Standing is one player's line of the standings.
type Standing struct {
	Rank    int     `json:"rank"`
	Player  string  `json:"player"`
	Spec    string  `json:"spec"`
	Games   int     `json:"games"`
	Points  float64 `json:"points"` // wins, half the draws and byes' points
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Byes    int     `json:"byes"`    // Swiss and knockout byes, each worth the pairing's games
	Elo     float64 `json:"elo"`     // the maximum-likelihood fit, the players' mean at 0
	EloLow  float64 `json:"elo_low"` // its 95% interval
	EloHigh float64 `json:"elo_high"`
	// LOSNext is the likelihood of superiority over the next player down
	// the standings (0..1); 0 for the last.
	LOSNext float64 `json:"los_next"`
}

// score is a game's result from one player's side: 1, 1/2 or 0.
type score struct {
	a, b int     // players
	s    float64 // a's score
}

// Standings sums the results up: points, W/D/L, and Elo for every player
// fitted on all games together by maximum likelihood (see FitElo), ordered
// by points, then Elo, then entry order.
func Standings(players []Entrant, results []GameResult) []Standing {
	index := map[string]int{}
	st := make([]Standing, len(players))
	for i, p := range players {
		index[p.Name] = i
		st[i] = Standing{Player: p.Name, Spec: p.Spec}
	}
	var games []score
	for _, r := range results {
		a, okA := index[r.First]
		if r.Bye {
			if okA {
				st[a].Byes++
				st[a].Points += r.ByePoints
			}
			continue
		}
		b, okB := index[r.Second]
		if !okA || !okB {
			continue
		}
		s := r.firstScore()
		games = append(games, score{a, b, s})
		for _, x := range []struct {
			i int
			s float64
		}{{a, s}, {b, 1 - s}} {
			st[x.i].Games++
			st[x.i].Points += x.s
			switch x.s {
			case 1:
				st[x.i].Wins++
			case 0:
				st[x.i].Losses++
			default:
				st[x.i].Draws++
			}
		}
	}
	elo, cov := FitElo(len(players), games)
	for i := range st {
		half := 1.96 * math.Sqrt(cov[i][i])
		st[i].Elo = round1(elo[i])
		st[i].EloLow, st[i].EloHigh = round1(elo[i]-half), round1(elo[i]+half)
	}
	order := make([]int, len(st))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := st[order[x]], st[order[y]]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		return a.Elo > b.Elo
	})
	out := make([]Standing, len(st))
	for k, i := range order {
		out[k] = st[i]
		out[k].Rank = k + 1
		if k+1 < len(order) {
			j := order[k+1]
			sd := math.Sqrt(max(cov[i][i]+cov[j][j]-2*cov[i][j], 1e-9))
			out[k].LOSNext = math.Round(phi((elo[i]-elo[j])/sd)*1000) / 1000
		}
	}
	return out
}

// eloK turns Elo into the logistic's natural units.
const eloK = math.Ln10 / 400

// FitElo fits ratings to the games by maximum likelihood, as BayesElo and
// Ordo do: the chance that a scores against b is 1/(1+10^((rb-ra)/400)), a
// draw counting as half a win and half a loss; every player also has two
// virtual draws against a player rated 0 (BayesElo's prior), which keeps
// the fit finite for perfect scores and players with no games. It returns
// the ratings shifted to a mean of 0 and their covariance (the inverse of
// the information at the fit), from which the 95% intervals and the
// likelihood of superiority come. Newton's method on the log-likelihood,
// which is concave.
func FitElo(n int, games []score) ([]float64, [][]float64) {
	r := make([]float64, n)
	var h [][]float64
	for iter := 0; iter < 100; iter++ {
		grad := make([]float64, n)
		h = make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
		}
		for i := range n {
			p := logistic(eloK * r[i])
			grad[i] += 2 * eloK * (0.5 - p)
			h[i][i] += 2 * eloK * eloK * p * (1 - p)
		}
		for _, g := range games {
			p := logistic(eloK * (r[g.a] - r[g.b]))
			w := eloK * eloK * p * (1 - p)
			grad[g.a] += eloK * (g.s - p)
			grad[g.b] -= eloK * (g.s - p)
			h[g.a][g.a] += w
			h[g.b][g.b] += w
			h[g.a][g.b] -= w
			h[g.b][g.a] -= w
		}
		step := solve(h, grad)
		big := 0.0
		for i := range r {
			r[i] += step[i]
			big = max(big, math.Abs(step[i]))
		}
		if big < 1e-6 {
			break
		}
	}
	// The ratings are relative to the players' mean: their covariance is
	// that of r - mean(r), P·C·P with P = I - 11ᵀ/n (only the prior
	// fixes the pool's level, so C alone has a large common part).
	c := inverse(h)
	cov := make([][]float64, n)
	rowMean := make([]float64, n)
	all := 0.0
	for i := range n {
		for j := range n {
			rowMean[i] += c[i][j] / float64(n)
		}
		all += rowMean[i] / float64(n)
	}
	for i := range n {
		cov[i] = make([]float64, n)
		for j := range n {
			cov[i][j] = c[i][j] - rowMean[i] - rowMean[j] + all
		}
	}
	mean := 0.0
	for _, x := range r {
		mean += x
	}
	if n > 0 {
		mean /= float64(n)
	}
	for i := range r {
		r[i] -= mean
	}
	return r, cov
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// solve returns x with a·x = b (a symmetric positive definite), by Gaussian
// elimination with partial pivoting on copies.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		if m[c][c] == 0 {
			continue
		}
		for r := range n {
			if r == c {
				continue
			}
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range n {
		if m[i][i] != 0 {
			x[i] = m[i][n] / m[i][i]
		}
	}
	return x
}

// inverse returns a's inverse, a column at a time.
func inverse(a [][]float64) [][]float64 {
	n := len(a)
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = make([]float64, n)
	}
	for c := range n {
		e := make([]float64, n)
		e[c] = 1
		col := solve(a, e)
		for r := range n {
			inv[r][c] = col[r]
		}
	}
	return inv
}
