package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"arbiter/rules"
)

// PNG draws g as a PNG image: the board with its coordinates on all four
// edges (Upthrust has the point values on the right), the last move's
// squares highlighted and the pieces it removed crossed out, and under the
// board the players, the last move and whose turn it is. An image is about
// 400 to 500 pixels a side and 13 to 20 KB (the tests hold every game under
// 100 KB at its start, middle and end).
func PNG(g rules.Game, opt Options) ([]byte, error) { return NewBoard(g, opt).PNG() }

// PNG is the package's PNG of the board's game.
func (b *Board) PNG() ([]byte, error) {
	s, opt := b.s, b.opt
	if b.err != nil {
		return nil, b.err
	}
	fonts, err := loadFonts()
	if err != nil {
		return nil, err
	}
	p := newPainter(s, opt, newFaces(fonts))
	p.alloc(0, 0, nil)
	p.paint()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, p.quantise(newQuantiser(p.colours(), 256))); err != nil {
		return nil, fmt.Errorf("render: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// Image colours shared by every game, as 0xRRGGBB (see hex).
const (
	colBackground = 0xF6F4EE
	colLabel      = 0x555046
	colCaption    = 0x22201C
	colFrom       = 0xB8C23A // the square a move left
	colTo         = 0xF0C42A // where it went
	colHit        = 0xD0241E // a cross on a piece removed
)

// hex returns the opaque colour 0xRRGGBB.
func hex(c uint32) color.RGBA { return rgb(uint8(c>>16), uint8(c>>8), uint8(c)) }

// rgb returns an opaque colour.
func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xFF} }

// Image geometry, in pixels.
const (
	labelMargin    = 26   // room for the coordinates on each side of the board
	captionSize    = 15   // caption font size
	captionLine    = 21   // caption line height
	captionPad     = 12   // room above and below the caption
	labelSize      = 13   // coordinate font size
	legendSize     = 15   // a piece drawn before a player's line
	highlightBlend = 0.55 // how strongly a highlight covers a square
)

// fonts are the parsed Go fonts; faces are made from them per image, since
// a face is not safe for concurrent use.
type fonts struct {
	regular, bold *opentype.Font
}

func loadFonts() (fonts, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("render: parse Go Regular: %w", err)
	}
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("render: parse Go Bold: %w", err)
	}
	return fonts{regular: r, bold: b}, nil
}

// faces makes font faces from the Go fonts once per size. A face is not
// safe for concurrent use, so faces belong to one image (or one GIF).
// The rasterizer for shapes goes with them, for the same reason.
type faces struct {
	fonts      fonts
	made       map[faceKey]font.Face
	rasterizer *vector.Rasterizer
}

func newFaces(f fonts) *faces {
	return &faces{fonts: f, made: map[faceKey]font.Face{}, rasterizer: vector.NewRasterizer(1, 1)}
}

// painter draws one scene onto an RGBA image.
type painter struct {
	s     *scene
	opt   Options
	faces *faces
	z     *vector.Rasterizer
	img   *image.RGBA
	// svg, when set, receives the drawing as SVG elements instead of img.
	svg *svgWriter

	width, height int // the drawing's size

	sq, gap        int // square side and lattice gap
	boardW, boardH int
	left, top      int // the board's top-left corner
	captionTop     int
	caption        []captionRow
}

// captionRow is one line under the board.
type captionRow struct {
	pieces []uint8 // drawn before the text
	text   string
	bold   bool
}

type faceKey struct {
	size float64
	bold bool
}

// newPainter lays the scene out; alloc then makes the image.
func newPainter(s *scene, opt Options, f *faces) *painter {
	p := &painter{s: s, opt: opt, faces: f, z: f.rasterizer}
	p.sq, p.gap = s.squarePx, s.gapPx
	if s.layout == lattice && s.openLattice {
		// Gaps at the even indexes (the points and borders on the board's
		// edge too), squares at the odd ones.
		p.boardW = s.cols/2*p.sq + (s.cols/2+1)*p.gap
		p.boardH = s.rows/2*p.sq + (s.rows/2+1)*p.gap
	} else if s.layout == lattice {
		// Squares at the odd coordinates, gaps at the even ones and a gap
		// of frame around the board.
		p.boardW = (s.cols+1)/2*p.sq + (s.cols+1)/2*p.gap + p.gap
		p.boardH = (s.rows+1)/2*p.sq + (s.rows+1)/2*p.gap + p.gap
	} else if s.layout == hexes {
		p.boardW, p.boardH = p.hexBoardSize()
	} else {
		p.boardW, p.boardH = s.cols*p.sq, s.rows*p.sq
	}
	for i, side := range s.status.sides {
		p.caption = append(p.caption, captionRow{pieces: side.pieces, text: sideLine(s, i, opt.Players)})
	}
	if s.imageKey != "" {
		p.caption = append(p.caption, captionRow{text: s.imageKey})
	}
	if key := marksKey(s, "olive", "yellow", "x"); key != "" {
		p.caption = append(p.caption, captionRow{text: key})
	}
	if last := lastLine(s); last != "" {
		p.caption = append(p.caption, captionRow{text: last})
	}
	p.caption = append(p.caption, captionRow{text: stateLine(s, opt.Players), bold: true})
	return p
}

// alloc makes the image at least width x height pixels, larger if the
// scene needs it (a GIF's frames must all be the same size). It draws on
// reuse instead of a new image when reuse has the size (paint covers every
// pixel).
func (p *painter) alloc(width, height int, reuse *image.RGBA) {
	w := max(width, p.naturalWidth())
	p.left = (w - p.boardW) / 2
	p.top = labelMargin
	p.captionTop = p.top + p.boardH + labelMargin
	h := max(height, p.naturalHeight())
	p.width, p.height = w, h
	if p.svg != nil {
		return
	}
	if r := image.Rect(0, 0, w, h); reuse != nil && reuse.Rect == r {
		p.img = reuse
	} else {
		p.img = image.NewRGBA(r)
	}
}

// naturalHeight is the height the board and the caption need.
func (p *painter) naturalHeight() int {
	return labelMargin + p.boardH + labelMargin + captionPad + len(p.caption)*captionLine + captionPad/2
}

// naturalWidth is the width the board and the caption need.
func (p *painter) naturalWidth() int {
	w := p.boardW + 2*labelMargin
	if hasNotes(p.s) {
		w += labelMargin
	}
	for _, l := range p.caption {
		tw := font.MeasureString(p.face(captionSize, l.bold), l.text).Ceil()
		if len(l.pieces) > 0 {
			tw += len(l.pieces)*(legendSize+4) + 4
		}
		w = max(w, tw+2*captionPad)
	}
	return w
}

func hasNotes(s *scene) bool {
	for _, n := range s.rowNotes {
		if n != "" {
			return true
		}
	}
	return false
}

// face returns a face of the given size.
func (p *painter) face(size float64, bold bool) font.Face { return p.faces.face(size, bold) }

// face returns a face of the given size, made on first use.
func (fs *faces) face(size float64, bold bool) font.Face {
	k := faceKey{size, bold}
	if f, ok := fs.made[k]; ok {
		return f
	}
	src := fs.fonts.regular
	if bold {
		src = fs.fonts.bold
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		// NewFace fails only for a bad size; the sizes here are constants
		// and products of them, so fall back to a face that cannot fail.
		f, _ = opentype.NewFace(src, &opentype.FaceOptions{Size: 12, DPI: 72})
	}
	fs.made[k] = f
	return f
}

// cellRect returns the pixel rectangle of display cell c, r.
func (p *painter) cellRect(c, r int) image.Rectangle {
	if p.s.layout == hexes {
		return p.hexCellRect(c, r)
	}
	if p.s.layout != lattice {
		x, y := p.left+c*p.sq, p.top+r*p.sq
		return image.Rect(x, y, x+p.sq, y+p.sq)
	}
	span := func(i int) (int, int) {
		if p.s.openLattice {
			start := i / 2 * (p.sq + p.gap)
			if i%2 == 0 {
				return start, start + p.gap
			}
			return start + p.gap, start + p.gap + p.sq
		}
		start := p.gap + i/2*(p.sq+p.gap)
		if i%2 == 0 {
			return start, start + p.sq
		}
		return start + p.sq, start + p.sq + p.gap
	}
	x0, x1 := span(c)
	y0, y1 := span(r)
	return image.Rect(p.left+x0, p.top+y0, p.left+x1, p.top+y1)
}

// centre returns the centre of a rectangle.
func centre(r image.Rectangle) (float32, float32) {
	return float32(r.Min.X+r.Max.X) / 2, float32(r.Min.Y+r.Max.Y) / 2
}

// paint draws the whole image.
func (p *painter) paint() {
	s := p.s
	p.rect(image.Rect(0, 0, p.width, p.height), hex(colBackground))
	board := image.Rect(p.left, p.top, p.left+p.boardW, p.top+p.boardH)
	switch s.layout {
	case hexes:
		p.paintHexes()
	case lattice:
		p.rect(board, s.palette.frame)
	case points:
		p.paintPoints(board)
	default:
		p.rect(board.Inset(-2), s.palette.frame)
	}
	for r := 0; r < s.rows && s.layout != hexes && s.layout != points; r++ {
		for c := 0; c < s.cols; c++ {
			p.paintCell(c, r, s.at(c, r))
		}
	}
	if s.layout == grid {
		p.gridLines(board)
	}
	for r := 0; r < s.rows; r++ {
		for c := 0; c < s.cols; c++ {
			cl := s.at(c, r)
			cx, cy := centre(p.cellRect(c, r))
			switch {
			case cl.piece != 0 && s.pieces[cl.piece].shape == bar:
				p.rect(p.cellRect(c, r), s.pieces[cl.piece].fill)
			case cl.piece != 0:
				p.piece(s.pieces[cl.piece], cx, cy, float32(p.sq))
			}
			if cl.mark == hitMark {
				p.cross(cx, cy, float32(p.sq)*0.22)
			}
		}
	}
	if s.layout == hexes {
		p.hexLabels()
	} else {
		p.labels()
	}
	p.paintCaption()
}

// paintCell draws a cell's ground and its highlight.
func (p *painter) paintCell(c, r int, cl *cell) {
	rect := p.cellRect(c, r)
	if cl.kind != square {
		// Lattice points and borders are the frame; a highlighted point
		// gets a square of highlight around it, over the squares' corners.
		if cl.mark == fromMark || cl.mark == toMark {
			col := hex(colTo)
			if cl.mark == fromMark {
				col = hex(colFrom)
			}
			cx, cy := centre(rect)
			h := float32(p.sq) * 0.34
			p.polygon(col, cx-h, cy-h, cx+h, cy-h, cx+h, cy+h, cx-h, cy+h)
		}
		return
	}
	p.rect(rect, p.ground(c, r, cl))
}

// ground returns the colour of a square's ground with its highlight.
func (p *painter) ground(c, r int, cl *cell) color.RGBA {
	s := p.s
	ground := s.palette.board
	if s.palette.boardAlt != (color.RGBA{}) && (c+r)%2 == 1 {
		ground = s.palette.boardAlt
	}
	if cl.zone && s.palette.zone != (color.RGBA{}) {
		ground = s.palette.zone
	}
	switch cl.mark {
	case fromMark:
		ground = blend(ground, hex(colFrom), highlightBlend)
	case toMark:
		ground = blend(ground, hex(colTo), highlightBlend)
	}
	return ground
}

// gridLines draws the lines between a grid's squares and the dividing rules.
func (p *painter) gridLines(board image.Rectangle) {
	s := p.s
	for c := 1; c < s.cols; c++ {
		x := p.left + c*p.sq
		p.rect(image.Rect(x, board.Min.Y, x+1, board.Max.Y), s.palette.frame)
	}
	for r := 1; r < s.rows; r++ {
		y := p.top + r*p.sq
		p.rect(image.Rect(board.Min.X, y, board.Max.X, y+1), s.palette.frame)
	}
	if b := s.blockSide; b > 0 { // blocks that turn: their edges heavier
		for c := b; c < s.cols; c += b {
			x := p.left + c*p.sq
			p.rect(image.Rect(x-2, board.Min.Y, x+3, board.Max.Y), s.palette.frame)
		}
		for r := b; r < s.rows; r += b {
			y := p.top + r*p.sq
			p.rect(image.Rect(board.Min.X, y-2, board.Max.X, y+3), s.palette.frame)
		}
	}
	for r, below := range s.ruleBelow {
		if below {
			y := p.top + (r+1)*p.sq
			p.rect(image.Rect(board.Min.X-2, y-2, board.Max.X+2, y+2), s.palette.frame)
		}
	}
}

// labels draws the coordinates on the four edges and the row notes.
func (p *painter) labels() {
	s := p.s
	notes := hasNotes(s)
	for c := 0; c < s.cols; c++ {
		cx, _ := centre(p.cellRect(c, 0))
		p.text(labelSize, false, s.labelsAbove()[c], cx, float32(p.top-labelMargin/2), hex(colLabel))
		p.text(labelSize, false, s.colLabels[c], cx, float32(p.top+p.boardH+labelMargin/2), hex(colLabel))
	}
	for r := 0; r < s.rows; r++ {
		_, cy := centre(p.cellRect(0, r))
		p.text(labelSize, false, s.rowLabels[r], float32(p.left-labelMargin/2), cy, hex(colLabel))
		right := float32(p.left + p.boardW + labelMargin/2)
		p.text(labelSize, false, s.rowLabels[r], right, cy, hex(colLabel))
		if notes && s.rowNotes[r] != "" {
			p.text(labelSize, true, s.rowNotes[r], right+labelMargin, cy, hex(colCaption))
		}
	}
}

// paintCaption draws the lines under the board.
func (p *painter) paintCaption() {
	y := p.captionTop + captionPad
	for _, l := range p.caption {
		x := float32(captionPad)
		cy := float32(y) + captionLine/2
		for _, k := range l.pieces {
			p.piece(p.s.pieces[k], x+legendSize/2, cy, legendSize/0.9)
			x += legendSize + 4
		}
		if len(l.pieces) > 0 {
			x += 4
		}
		face := p.face(captionSize, l.bold)
		p.textFrom(face, captionSize, l.bold, l.text, x, float32(int(cy)+capHeight(face)/2), hex(colCaption), false)
		y += captionLine
	}
}

// text draws s centred on cx, cy in a face of the given size.
func (p *painter) text(size float64, bold bool, s string, cx, cy float32, col color.RGBA) {
	face := p.face(size, bold)
	p.textFrom(face, size, bold, s, cx, cy+float32(capHeight(face))/2, col, true)
}

// textFrom draws s with its baseline at y, starting at x or, when centred,
// centred on x.
func (p *painter) textFrom(face font.Face, size float64, bold bool, s string, x, y float32, col color.RGBA, centred bool) {
	width := font.MeasureString(face, s)
	if p.svg != nil {
		p.svg.text(size, bold, s, x, y, float32(width)/64, col, centred)
		return
	}
	dot := fixed.Int26_6(x * 64)
	if centred {
		dot -= width / 2
	}
	d := font.Drawer{Dst: p.img, Src: image.NewUniform(col), Face: face, Dot: fixed.Point26_6{X: dot, Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// rect paints a rectangle in one colour.
func (p *painter) rect(r image.Rectangle, col color.RGBA) {
	if p.svg != nil {
		p.svg.rect(r, col)
		return
	}
	fill(p.img, r, col)
}

// capHeight returns the height of capital letters in whole pixels.
func capHeight(face font.Face) int {
	m := face.Metrics()
	if m.CapHeight > 0 {
		return m.CapHeight.Round()
	}
	return (m.Ascent * 7 / 10).Round()
}

// piece draws a piece centred on cx, cy in a square of side unit.
func (p *painter) piece(ps pieceStyle, cx, cy, unit float32) {
	r := unit * float32(ps.size) / 2
	outline := max(1.5, unit/30)
	switch ps.shape {
	case disc:
		p.disc(ps.stroke, cx, cy, r)
		p.disc(ps.fill, cx, cy, r-outline)
	case box:
		p.polygon(ps.stroke, cx-r, cy-r, cx+r, cy-r, cx+r, cy+r, cx-r, cy+r)
		r -= outline
		p.polygon(ps.fill, cx-r, cy-r, cx+r, cy-r, cx+r, cy+r, cx-r, cy+r)
	case diamond:
		p.polygon(ps.stroke, cx, cy-r, cx+r, cy, cx, cy+r, cx-r, cy)
		r -= outline * 1.4
		p.polygon(ps.fill, cx, cy-r, cx+r, cy, cx, cy+r, cx-r, cy)
	}
	if ps.letter != "" && unit >= 24 {
		size := math.Round(float64(unit) * ps.size * 0.5)
		p.text(size, true, ps.letter, cx, cy, ps.ink)
	}
}

// cross draws a red cross of half-size h: a removed piece.
func (p *painter) cross(cx, cy, h float32) {
	t := h * 0.28 // half the bar's thickness, along each axis
	p.polygon(hex(colHit), cx-h-t, cy-h+t, cx-h+t, cy-h-t, cx+h+t, cy+h-t, cx+h-t, cy+h+t)
	p.polygon(hex(colHit), cx+h-t, cy-h-t, cx+h+t, cy-h+t, cx-h+t, cy+h+t, cx-h-t, cy+h-t)
}

// disc fills a circle, anti-aliased.
func (p *painter) disc(col color.RGBA, cx, cy, r float32) {
	if r <= 0 {
		return
	}
	if p.svg != nil {
		p.svg.disc(col, cx, cy, r)
		return
	}
	x0, y0, w, h := p.begin(cx-r, cy-r, cx+r, cy+r)
	ox, oy := cx-float32(x0), cy-float32(y0)
	const k = 0.5522847 // control distance for a quarter circle
	z := p.z
	z.MoveTo(ox+r, oy)
	z.CubeTo(ox+r, oy+k*r, ox+k*r, oy+r, ox, oy+r)
	z.CubeTo(ox-k*r, oy+r, ox-r, oy+k*r, ox-r, oy)
	z.CubeTo(ox-r, oy-k*r, ox-k*r, oy-r, ox, oy-r)
	z.CubeTo(ox+k*r, oy-r, ox+r, oy-k*r, ox+r, oy)
	z.ClosePath()
	p.end(col, x0, y0, w, h)
}

// polygon fills the polygon through the points given as x, y pairs.
func (p *painter) polygon(col color.RGBA, pts ...float32) {
	if p.svg != nil {
		p.svg.polygon(col, pts)
		return
	}
	minX, minY, maxX, maxY := pts[0], pts[1], pts[0], pts[1]
	for i := 0; i+1 < len(pts); i += 2 {
		minX, maxX = min(minX, pts[i]), max(maxX, pts[i])
		minY, maxY = min(minY, pts[i+1]), max(maxY, pts[i+1])
	}
	x0, y0, w, h := p.begin(minX, minY, maxX, maxY)
	z := p.z
	z.MoveTo(pts[0]-float32(x0), pts[1]-float32(y0))
	for i := 2; i+1 < len(pts); i += 2 {
		z.LineTo(pts[i]-float32(x0), pts[i+1]-float32(y0))
	}
	z.ClosePath()
	p.end(col, x0, y0, w, h)
}

// begin readies the rasterizer for a shape within the given bounds and
// returns the pixel box it covers.
func (p *painter) begin(minX, minY, maxX, maxY float32) (x0, y0, w, h int) {
	x0, y0 = int(math.Floor(float64(minX)))-1, int(math.Floor(float64(minY)))-1
	w = int(math.Ceil(float64(maxX))) + 2 - x0
	h = int(math.Ceil(float64(maxY))) + 2 - y0
	p.z.Reset(w, h)
	return x0, y0, w, h
}

// end draws the shape in the rasterizer at x0, y0.
func (p *painter) end(col color.RGBA, x0, y0, w, h int) {
	p.z.Draw(p.img, image.Rect(x0, y0, x0+w, y0+h), image.NewUniform(col), image.Point{})
}

// fill paints a rectangle in one colour.
func fill(img draw.Image, r image.Rectangle, col color.RGBA) {
	draw.Draw(img, r, image.NewUniform(col), image.Point{}, draw.Src)
}

// blend mixes b into a by t (0..1).
func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xFF}
}

// colours lists the painter's solid colours, the ones a palette must hold
// exactly.
func (p *painter) colours() []color.RGBA {
	s := p.s
	cols := []color.RGBA{hex(colBackground), hex(colLabel), hex(colCaption), hex(colFrom), hex(colTo), hex(colHit),
		s.palette.board, s.palette.frame}
	for _, ground := range []color.RGBA{s.palette.board, s.palette.boardAlt, s.palette.zone} {
		if ground != (color.RGBA{}) {
			cols = append(cols, ground, blend(ground, hex(colFrom), highlightBlend), blend(ground, hex(colTo), highlightBlend))
		}
	}
	for _, ps := range s.pieces[1:] {
		cols = append(cols, ps.fill, ps.stroke, ps.ink)
	}
	return cols
}
