// A Code of Ice & Fire — starter bot (TypeScript).
//
// The referee writes lines to your standard input; read them with readline().
// Answer with exactly ONE line per turn: commands separated by ";" (or WAIT).
//   MOVE id x y      move a unit one cell towards (x, y)
//   TRAIN level x y  train a unit (level 1 costs 10 gold) on or next to your territory
//   BUILD MINE x y   (later leagues) build a mine on a mine spot you own
// console.error(...) writes to your debug log; it is shown beside each turn.
// The types are removed before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

interface Point {
  x: number;
  y: number;
}
interface Building extends Point {
  owner: number; // 0 you, 1 your opponent
  type: number; // 0 HQ, 1 MINE, 2 TOWER
}
interface Unit extends Point {
  owner: number;
  id: number;
  level: number;
}

// Once, at the start: the mine spots.
const mineSpotCount: number = parseInt(readline());
for (let i = 0; i < mineSpotCount; i++) {
  readline(); // "x y" of a mine spot (not used by this bot)
}

const SIZE = 12;
const near = (x: number, y: number): [number, number][] => [[x, y - 1], [x + 1, y], [x, y + 1], [x - 1, y]];
const inside = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < SIZE && y < SIZE;
const distance = (a: Point, b: Point): number => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);

while (true) {
  // Every turn: gold and income (yours, then your opponent's) ...
  let gold = parseInt(readline());
  const income = parseInt(readline());
  readline(); // opponent's gold
  readline(); // opponent's income
  // ... the map, one row per line: # void, . neutral, O/o yours (active/inactive), X/x theirs ...
  const map: string[] = [];
  for (let y = 0; y < SIZE; y++) map.push(readline());
  // ... the buildings: owner (0 = you, 1 = opponent), type (0 HQ, 1 MINE, 2 TOWER), x, y ...
  const buildings: Building[] = [];
  const buildingCount = parseInt(readline());
  for (let i = 0; i < buildingCount; i++) {
    const [owner, type, x, y] = readline().split(" ").map(Number);
    buildings.push({ owner, type, x, y });
  }
  // ... and the units: owner, id, level, x, y.
  const units: Unit[] = [];
  const unitCount = parseInt(readline());
  for (let i = 0; i < unitCount; i++) {
    const [owner, id, level, x, y] = readline().split(" ").map(Number);
    units.push({ owner, id, level, x, y });
  }

  const enemyHq = buildings.find((b) => b.owner === 1 && b.type === 0)!;
  const busy = new Set([...buildings, ...units].map((t) => t.x + "," + t.y));
  const commands: string[] = [];

  // 1. Every unit walks towards the enemy HQ (the referee finds the way).
  for (const unit of units.filter((u) => u.owner === 0)) {
    commands.push(`MOVE ${unit.id} ${enemyHq.x} ${enemyHq.y}`);
  }

  // 2. Train level-1 units on free cells next to our active territory, closest to the enemy
  //    HQ first, while we can pay for them and keep a positive income (each costs 1 per turn).
  const spots: Point[] = [];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const cell = map[y][x];
      if (cell === "#" || cell === "O" || busy.has(x + "," + y)) continue;
      const touchesUs = near(x, y).some(([nx, ny]) => inside(nx, ny) && map[ny][nx] === "O");
      if (touchesUs) spots.push({ x, y });
    }
  }
  spots.sort((a, b) => distance(a, enemyHq) - distance(b, enemyHq));
  let upkeep = 0;
  for (const spot of spots) {
    if (gold < 10 || income - upkeep < 0) break;
    commands.push(`TRAIN 1 ${spot.x} ${spot.y}`);
    gold -= 10;
    upkeep += 1;
  }

  console.error(`gold ${gold}, income ${income}, ${commands.length} commands`);
  // Exactly one line per turn.
  console.log(commands.length > 0 ? commands.join(";") : "WAIT");
}
