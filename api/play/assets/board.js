// Pure helpers of the play page: reading server-sent events and finding
// the legal moves among the board's cells. Moves are {text, from, to},
// cells indexes in display order; -1 is no cell.

// parseEvents splits the text of a server-sent event stream into complete
// events and the rest still to come.
export function parseEvents(text) {
  const events = [];
  const blocks = text.split("\n\n");
  const rest = blocks.pop();
  for (const block of blocks) {
    let name = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) name = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length) events.push({ name, data: data.join("\n") });
  }
  return { events, rest };
}

// sourcesOf is the set of cells moves start from.
export function sourcesOf(moves) {
  return new Set(moves.filter((m) => m.from >= 0).map((m) => m.from));
}

// targetsFrom is the set of cells the moves from cell i go to (i = -1:
// the drops, moves with no start).
export function targetsFrom(moves, i) {
  return new Set(moves.filter((m) => m.from === i && m.to >= 0).map((m) => m.to));
}

// moveAt lists the moves from cell from (-1: moves with no start) to cell to.
export function moveAt(moves, from, to) {
  return moves.filter((m) => m.from === from && m.to === to);
}

// choicesFor orders moves to offer as buttons by their text.
export function choicesFor(moves) {
  return [...moves].sort((a, b) => a.text.localeCompare(b.text));
}
