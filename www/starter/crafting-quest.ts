// Crafting Quest 3 — starter bot (TypeScript).
//
// Every message is ONE line of JSON. Read lines with readline(), write with console.log(...),
// debug with console.error(...) (shown beside each turn).
//
// At the start of your turn you receive your player state:
//   {"type":"turn","round":1,"rounds":70,"player":0,"size":50,"home":[5,5],"gold":200,
//    "blueprints":{"sword":1,...},"units":[UNIT, ...], ...}
// A UNIT: {"id":0,"x":3,"y":3,"energy":200,"life":200,"resources":{"iron":10},"objects":[...],
//          "weight":10,"move_cost":120,"dig":null,"sight":SIGHT, ...}
// A SIGHT is the 11 x 11 square around the unit: {"x":0,"y":0,"rows":["..i..", ...],
//   "piles":[...],"towers":[...],"units":[...]}; "x","y" is the top-left cell of "rows", one
//   character per cell: '#' rock, '.' grass, a letter for the resource buried there (w wood,
//   s stone, l leather, b bronze, i iron, t titanium, g gold), '*' several.
//
// Then you send requests, one per line, and read the answer to each at once:
//   {"unit":0,"type":"move","to":[4,4]}              20 energy + 10 per carried weight
//   {"unit":0,"type":"dig"}                          10: the answer's unit.dig has the quantities
//   {"unit":0,"type":"pickup","resources":{"iron":40}}  5: 1 point per 10 units dug up
//   {"unit":0,"type":"drop","resources":{"iron":40}}    free
//   {"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}  iron 10, stone 4, wood 4
//   {"unit":0,"type":"equip","item":{"kind":"sword","level":1}}
//   {"unit":0,"type":"attack","target":{"player":1,"unit":13},"energy":120}
//   {"unit":0,"type":"prepare","energy":40,"threshold":40}   retaliation settings
//   ... and placeTower, placeTrap, research, view, state (see the rules).
// Answer: {"type":"result","result":"NoError","reason":"...","gold":200,"unit":UNIT, ...}
// Finally end your turn with {"type":"end"} (not answered). At most 1000 requests, 1000 ms.
// The types are removed before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

type Resources = Record<string, number>;
interface Sight {
  x: number;
  y: number;
  rows: string[];
}
interface Unit {
  id: number;
  x: number;
  y: number;
  energy: number;
  resources: Resources;
  move_cost: number;
  dig: { resources: Resources } | null;
  sight: Sight;
}
interface Turn {
  round: number;
  score: number;
  units: Unit[];
}
interface Answer {
  result: string;
  unit: Unit;
}
type Ask =
  | { unit: number; type: "dig" }
  | { unit: number; type: "move"; to: [number, number] }
  | { unit: number; type: "pickup" | "drop"; resources: Resources };

const LETTERS = "wslbitg";
const WANDER: [number, number][] = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];

// Sends one request and returns the answer.
function ask(request: Ask): Answer {
  console.log(JSON.stringify(request));
  return JSON.parse(readline());
}

// The character of cell (x, y) in a sight, or undefined outside it.
function cellAt(sight: Sight, x: number, y: number): string | undefined {
  const row = sight.rows[y - sight.y];
  return row === undefined ? undefined : row[x - sight.x];
}

const buried = (c: string | undefined): boolean => c !== undefined && (LETTERS.includes(c) || c === "*");

// Digs the unit's cell, picks up everything buried there and drops it again (the points are
// scored when resources come out of the ground; carrying them makes every step dearer).
function gather(unit: Unit): Unit {
  if (!buried(cellAt(unit.sight, unit.x, unit.y)) || unit.energy < 15) return unit;
  unit = ask({ unit: unit.id, type: "dig" }).unit;
  const found = unit.dig ? unit.dig.resources : {};
  if (Object.keys(found).length === 0) return unit;
  unit = ask({ unit: unit.id, type: "pickup", resources: found }).unit;
  if (Object.keys(unit.resources).length > 0) {
    unit = ask({ unit: unit.id, type: "drop", resources: unit.resources }).unit;
  }
  return unit;
}

// The nearest cell in sight with something buried (not the unit's own cell).
function nearestResource(unit: Unit): { x: number; y: number; d: number } | null {
  let best: { x: number; y: number; d: number } | null = null;
  unit.sight.rows.forEach((row, dy) => {
    [...row].forEach((c, dx) => {
      const x = unit.sight.x + dx;
      const y = unit.sight.y + dy;
      const d = Math.max(Math.abs(x - unit.x), Math.abs(y - unit.y));
      if (d > 0 && buried(c) && (best === null || d < best.d)) best = { x, y, d };
    });
  });
  return best;
}

while (true) {
  const state: Turn = JSON.parse(readline());
  let requests = 0;
  for (let unit of state.units) {
    unit = gather(unit);
    // Walk towards resources (or anywhere) while energy lasts, gathering on the way.
    for (let steps = 0; steps < 4 && unit.energy >= unit.move_cost + 15; steps++) {
      const target = nearestResource(unit);
      // Nothing in sight: wander, each unit its own way, changing every round.
      const [wx, wy] = WANDER[(unit.id + state.round) % WANDER.length];
      const dx = target ? Math.sign(target.x - unit.x) : wx;
      const dy = target ? Math.sign(target.y - unit.y) : wy;
      if (dx === 0 && dy === 0) break;
      const answer = ask({ unit: unit.id, type: "move", to: [unit.x + dx, unit.y + dy] });
      requests++;
      if (answer.result !== "NoError") break; // rock, a tower, the edge of the map...
      unit = gather(answer.unit);
    }
  }
  console.error(`round ${state.round}: score ${state.score}, ${requests} moves`);
  console.log(JSON.stringify({ type: "end" }));
}
