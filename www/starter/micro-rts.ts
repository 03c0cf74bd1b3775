// microRTS — starter bot (TypeScript).
//
// The referee writes lines to your standard input; read them with readline().
// Answer with exactly ONE line per turn: orders separated by ";" (or WAIT).
//   TRAIN X Y tX tY TYPE   a castle (WORKER) or barracks (LIGHT, HEAVY, RANGED) trains at (tX, tY)
//   BUILD X Y tX tY TYPE   a worker builds a CASTLE or BARRACKS at (tX, tY)
//   MOVE X Y tX tY         a unit moves (at most its step: 1, or 2 for a LIGHT)
//   ATTACK X Y tX tY       attack an enemy entity within reach
//   HARVEST X Y tX tY      a worker takes 1 gold (mine) or 1 wood (forest) within reach
// (X, Y) is the entity giving the order; units have no ids. Distances count all 8 directions.
//
// Be strict, as the referee is: a malformed order ELIMINATES you. That includes a space after
// ";", lower-case type names, attacking a tile with no enemy on it now, harvesting a resource
// that is gone, or moving further than the unit's step. An order that is fine but cannot run
// (tile taken, not enough gold) just fails. Give each entity at most one order per turn:
// extra orders are queued and run on later turns with stale coordinates.
// console.error(...) writes to your debug log; it is shown beside each turn.
// The types are removed before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

// The entity types of a player's entities, and of neutral ones (owner -1), as numbered by the
// protocol.
enum Kind { Castle, Barracks, Worker, Light, Heavy, Ranged }
enum Neutral { Wall = 1, Mine = 2, Forest = 3 }

interface EntityType {
  maxHp: number;
  reach: number;
  attack: number;
  step: number;
  gold: number;
  wood: number;
}
interface Point {
  x: number;
  y: number;
}
interface Entity extends Point {
  owner: number; // -1 neutral, 0 you, 1 the enemy
  type: number;
  health: number;
}

// Once, at the start: the arena size and the six entity types.
const [width, height] = readline().split(" ").map(Number);
const types: EntityType[] = [];
for (let i = 0; i < 6; i++) {
  const [type, maxHp, reach, attack, step, gold, wood] = readline().split(" ").map(Number);
  types[type] = { maxHp, reach, attack, step, gold, wood };
}
const distance = (a: Point, b: Point): number => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));

while (true) {
  // Every turn: the entity count and both players' gold and wood ...
  let [count, gold, wood] = readline().split(" ").map(Number);
  // ... then one line per non-empty tile (walls too): x y owner type health,
  // owner -1 neutral (type 1 wall, 2 gold mine, 3 forest), 0 you, 1 the enemy.
  const all: Entity[] = [];
  const at = new Map<string, Entity>();
  for (let i = 0; i < count; i++) {
    const [x, y, owner, type, health] = readline().split(" ").map(Number);
    const e: Entity = { x, y, owner, type, health };
    all.push(e);
    at.set(x + "," + y, e);
  }
  const taken = new Set<string>(); // tiles our orders already target this turn
  const free = (x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < width && y < height && !at.has(x + "," + y) && !taken.has(x + "," + y);
  const around = (e: Point, r: number): Point[] => {
    const tiles: Point[] = [];
    for (let dx = -r; dx <= r; dx++)
      for (let dy = -r; dy <= r; dy++) if (dx || dy) tiles.push({ x: e.x + dx, y: e.y + dy });
    return tiles;
  };
  const nearest = <T extends Point>(e: Point, list: T[]): T | null =>
    list.reduce<T | null>((best, t) => (!best || distance(e, t) < distance(e, best) ? t : best), null);
  // One step (8 directions) onto a free tile that brings `e` closer to `goal`.
  const stepTowards = (e: Point, goal: Point): Point | undefined => {
    const options = around(e, 1).filter((t) => free(t.x, t.y) && distance(t, goal) < distance(e, goal));
    return options.sort((a, b) => distance(a, goal) - distance(b, goal))[0];
  };

  const mine = all.filter((e) => e.owner === 0);
  const enemies = all.filter((e) => e.owner === 1);
  const resources = all.filter((e) => e.owner === -1 && (e.type === Neutral.Mine || e.type === Neutral.Forest));
  const workers = mine.filter((e) => e.type === Kind.Worker);
  const orders: string[] = [];

  for (const e of mine) {
    const t = types[e.type];
    // Anything that can attack hits an enemy within reach.
    const target = t.attack > 0 && enemies.find((x) => distance(e, x) <= t.reach);
    if (target) {
      orders.push(`ATTACK ${e.x} ${e.y} ${target.x} ${target.y}`);
      continue;
    }
    if (e.type === Kind.Castle && workers.length < 4 && gold >= types[Kind.Worker].gold) {
      const spot = around(e, t.reach).find((p) => free(p.x, p.y));
      if (spot) {
        orders.push(`TRAIN ${e.x} ${e.y} ${spot.x} ${spot.y} WORKER`);
        taken.add(spot.x + "," + spot.y);
        gold -= types[Kind.Worker].gold;
      }
    } else if (e.type === Kind.Barracks) {
      const kind = gold >= types[Kind.Heavy].gold && wood >= types[Kind.Heavy].wood ? "HEAVY" : "LIGHT";
      const cost = types[kind === "HEAVY" ? Kind.Heavy : Kind.Light];
      const spot = around(e, t.reach).find((p) => free(p.x, p.y));
      if (spot && gold >= cost.gold && wood >= cost.wood) {
        orders.push(`TRAIN ${e.x} ${e.y} ${spot.x} ${spot.y} ${kind}`);
        taken.add(spot.x + "," + spot.y);
        gold -= cost.gold;
        wood -= cost.wood;
      }
    } else if (e.type === Kind.Worker) {
      // One worker builds a barracks once there is wood for it.
      const hasBarracks = mine.some((b) => b.type === Kind.Barracks);
      const site = around(e, 1).find((p) => free(p.x, p.y));
      if (!hasBarracks && wood >= types[Kind.Barracks].wood && site) {
        orders.push(`BUILD ${e.x} ${e.y} ${site.x} ${site.y} BARRACKS`);
        taken.add(site.x + "," + site.y);
        wood -= types[Kind.Barracks].wood;
        continue;
      }
      // Harvest what is scarcer if it is next to us, else anything next to us, else walk.
      const near = resources.filter((r) => distance(e, r) <= t.reach);
      const want = wood < gold ? Neutral.Forest : Neutral.Mine;
      const pick = near.find((r) => r.type === want) || near[0];
      if (pick) {
        orders.push(`HARVEST ${e.x} ${e.y} ${pick.x} ${pick.y}`);
      } else if (resources.length) {
        const to = stepTowards(e, nearest(e, resources)!);
        if (to) {
          orders.push(`MOVE ${e.x} ${e.y} ${to.x} ${to.y}`);
          taken.add(to.x + "," + to.y);
        }
      }
    } else if (t.step > 0 && enemies.length) {
      // Soldiers walk towards the nearest enemy.
      const to = stepTowards(e, nearest(e, enemies)!);
      if (to) {
        orders.push(`MOVE ${e.x} ${e.y} ${to.x} ${to.y}`);
        taken.add(to.x + "," + to.y);
      }
    }
  }

  console.error(`gold ${gold}, wood ${wood}, ${orders.length} orders`);
  // Exactly one line per turn.
  console.log(orders.length > 0 ? orders.join(";") : "WAIT");
}
