package review

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"

	"arbiter/engine/analysis"
	"arbiter/render"
	"arbiter/rules"
)

// Game is what the review page shows besides the analysis: the game at its
// start, the moves played from there, the players and the result as
// recorded.
type Game struct {
	Start   rules.Game
	Moves   []rules.Move
	Players [2]string
	// Result, when set, is how the game ended outside its rules (as in
	// render.Options).
	Result *rules.Outcome
}

// pageMove is one row of the page's move list.
type pageMove struct {
	analysis.MoveReview
	N             int    // the move's place in the game, from 1
	Before, After string // the evaluations in words
	Board         string // the board after the move
	Better        bool   // the engine's move differs and the class asks for it
}

// pagePlayer is one row of the page's players.
type pagePlayer struct {
	Name                             string
	Accuracy                         float64
	Inaccuracies, Mistakes, Blunders int
}

// pageData is what the template reads.
type pageData struct {
	Title   string
	Players [2]pagePlayer
	Graph   template.URL
	Start   string
	Moves   []pageMove
	Limits  string
}

// Page writes a static HTML review page of g with rep, its analysis: the
// players' accuracy and counts, the graph, every move with its evaluations,
// class and the better move, and the board at each ply (text boards, one
// shown at a time; the arrow keys or a click on a move step through them).
// The page needs nothing but itself.
func Page(w io.Writer, g Game, rep *analysis.Report) error {
	png, err := StandardGraph(rep)
	if err != nil {
		return err
	}
	if len(g.Moves) != len(rep.Moves) {
		return fmt.Errorf("review page: %d moves but an analysis of %d", len(g.Moves), len(rep.Moves))
	}
	ropt := render.Options{Players: g.Players}
	pos := g.Start.Clone()
	data := pageData{
		Title:  fmt.Sprintf("%s: %s vs %s", rep.Game, rep.Players[0].Name, rep.Players[1].Name),
		Graph:  template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png)),
		Start:  render.Text(pos, ropt),
		Limits: rep.Limits.String(),
	}
	for p, r := range rep.Players {
		data.Players[p] = pagePlayer{r.Name, r.Accuracy, r.Counts[analysis.Inaccuracy],
			r.Counts[analysis.Mistake], r.Counts[analysis.Blunder]}
	}
	for i, m := range g.Moves {
		pos.Play(m)
		o := ropt
		if i == len(g.Moves)-1 {
			o.Result = g.Result
		}
		r := rep.Moves[i]
		data.Moves = append(data.Moves, pageMove{
			MoveReview: r,
			N:          i + 1,
			Before:     analysis.EvalString(r.EvalBefore, false),
			After:      analysis.EvalString(r.EvalAfter, i == len(g.Moves)-1 && rep.Over),
			Board:      render.Text(pos, o),
			Better: r.Best != r.Move && r.Class != analysis.Best && r.Class != analysis.Forced &&
				r.Class != analysis.Good,
		})
	}
	tmpl, err := template.New("page").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("review page: %w", err)
	}
	if err := tmpl.Execute(w, data); err != nil {
		return fmt.Errorf("review page: %w", err)
	}
	return nil
}

const pageTemplate = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:sans-serif;margin:1em;max-width:1100px}
.wrap{display:flex;gap:2em;align-items:flex-start}
pre{background:#f4f4f4;padding:.6em;font-size:14px;line-height:1.2}
table{border-collapse:collapse;font-size:14px}
td,th{padding:2px 8px;text-align:left}
tr.move{cursor:pointer}
tr.current{background:#dde8ff}
.inaccuracy{color:#b08800}.mistake{color:#d06000}.blunder{color:#c00000;font-weight:bold}
.forced,.best{color:#555}
</style></head><body>
<h1>{{.Title}}</h1>
<table class="players">
<tr><th>player</th><th>accuracy</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>
{{range .Players}}<tr><td>{{.Name}}</td><td>{{printf "%.1f" .Accuracy}}</td><td>{{.Inaccuracies}}</td><td>{{.Mistakes}}</td><td>{{.Blunders}}</td></tr>
{{end}}</table>
<p><img src="{{.Graph}}" alt="evaluation graph" width="720"></p>
<p>Analysed at {{.Limits}} a position. Evaluations from the first player's side, in hundredths of a piece.
Use the arrow keys or click a move.</p>
<div class="wrap">
<div><pre id="board0" class="board">{{.Start}}</pre>
{{range $i, $m := .Moves}}<pre id="board{{$m.N}}" class="board" hidden>{{$m.Board}}</pre>
{{end}}</div>
<table>
<tr><th>ply</th><th>move</th><th>before</th><th>after</th><th>loss</th><th>class</th><th>better</th></tr>
{{range .Moves}}<tr class="move" data-ply="{{.N}}"><td>{{.Ply}}</td><td>{{.Move}}</td><td>{{.Before}}</td><td>{{.After}}</td><td>{{printf "%.1f" .Loss}}</td><td class="{{.Class}}">{{.Class}}</td><td>{{if .Better}}{{.Best}}{{end}}</td></tr>
{{end}}</table>
</div>
<script>
let cur = 0;
const last = {{len .Moves}};
function show(n) {
  n = Math.max(0, Math.min(last, n));
  document.getElementById('board' + cur).hidden = true;
  document.getElementById('board' + n).hidden = false;
  document.querySelectorAll('tr.move').forEach(r => r.classList.toggle('current', +r.dataset.ply === n));
  cur = n;
}
document.querySelectorAll('tr.move').forEach(r => r.addEventListener('click', () => show(+r.dataset.ply)));
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') show(cur + 1);
  if (e.key === 'ArrowLeft') show(cur - 1);
});
</script>
</body></html>
`
