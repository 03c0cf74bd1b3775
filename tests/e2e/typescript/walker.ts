// Ice and Fire: every unit walks to the enemy HQ, a unit trained beside the HQ when there is gold.
// An enum, a class with parameter properties, interfaces, generics, `as` and `!`. The TypeScript
// bot of the page's checks (tests/e2e/typescript.mjs) and the CLI's (crates/cli/tests/integration/typescript.rs).
declare function readline(): string;

enum Owner { Me, Them }
enum BuildingType { Hq = 0, Mine = 1, Tower = 2 }
interface Point { x: number; y: number }

class Unit implements Point {
  constructor(public readonly owner: Owner, public id: number, private level: number, public x: number, public y: number) {}
  towards(p: Point): string { return `MOVE ${this.id} ${p.x} ${p.y}`; }
}

const numbers = (line: string): number[] => line.split(" ").map(Number);
const spots: number = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  const gold = parseInt(readline());
  readline(); readline(); readline();
  for (let y = 0; y < 12; y++) readline();
  const buildings: Array<{ owner: Owner; type: BuildingType } & Point> = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) {
    const [owner, type, x, y] = numbers(readline());
    buildings.push({ owner: owner as Owner, type, x, y });
  }
  const units: Unit[] = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) {
    const [owner, id, level, x, y] = numbers(readline());
    units.push(new Unit(owner, id, level, x, y));
  }
  const hq = <T extends { owner: Owner; type: BuildingType }>(list: T[], owner: Owner): T =>
    list.find((b) => b.owner === owner && b.type === BuildingType.Hq)!;
  const mine = hq(buildings, Owner.Me);
  const theirs = hq(buildings, Owner.Them);
  const out: string[] = units.filter((u) => u.owner === Owner.Me).map((u) => u.towards(theirs));
  const beside: [number, number][] = mine.x === 0 ? [[1, 0], [0, 1]] : [[10, 11], [11, 10]];
  const free = beside.find(([x, y]) => !units.some((u) => u.x === x && u.y === y));
  if (gold >= 10 && free) out.push(`TRAIN 1 ${free[0]} ${free[1]}`);
  console.error(`${Owner[Owner.Me]}: ${units.length} units`);
  console.log(out.length ? out.join(";") : "WAIT");
}
