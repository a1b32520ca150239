package described_test

import "testing"

// TestHomeCountsPiecesOnTheirOwnBackRow: on a 3×4 board, A (moving north)
// holds a1 and b1 of its back row and b2 off it; B (moving south) holds c4
// of its back row and a3. At home 10 and advance 1, A to move: 10 × (2 − 1)
// for the back rows, and 1 × (1 − 1) for the rows advanced.
func TestHomeCountsPiecesOnTheirOwnBackRow(t *testing.T) {
	g := game(t, `board: {columns: 3, rows: 4, rows-numbered: from-bottom}
pieces: [{name: pawn, text: [A, B]}]
start:
  - {player: 1, at: [[1, 1], [2, 1], [2, 2]]}
  - {player: 2, at: [[3, 4], [1, 3]]}
moves:
  - {kind: step, directions: forward}
end:
  - {when: reach, row: far, result: win}
evaluation: {material: {pawn: 0}, home: 10, advance: 1}
`)
	if got := g.Evaluate(); got != 10 {
		t.Fatalf("Evaluate = %d, want 10", got)
	}
}
