// Soak Overflow — starter bot (TypeScript).
//
// The referee writes lines to your standard input; read them with readline().
// Every turn, answer with exactly ONE line PER AGENT you still have (fewer lines = you lose).
// A line is "agentId;ACTION;ACTION...", at most one move and one combat action per agent:
//   MOVE x y       step one tile along the shortest path towards (x, y)
//   SHOOT id       soak agent id (needs cooldown 0; full power up to optimalRange, half up
//                  to twice that range; cover and hunkering reduce it)
//   THROW x y      splash bomb at (x, y), at most 4 tiles away: 30 wetness to everyone in the
//                  3x3 around it — your own agents too!
//   HUNKER_DOWN    take 25% less from shots this turn (WAIT means the same)
//   MESSAGE text   show text above the agent in the viewer
// Anything else (a typo, an empty line, an id that is not yours) loses the game at once.
// console.error(...) writes to your debug log; it is shown beside each turn.
// The types are removed before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

interface AgentClass {
  player: number;
  shootCooldown: number;
  optimalRange: number;
  soakingPower: number;
  splashBombs: number;
}
interface Agent extends AgentClass {
  id: number;
  x: number;
  y: number;
  cooldown: number;
  wetness: number;
}
type Point = { x: number; y: number };

// Once, at the start: my player id, every agent's class, and the grid.
const myId: number = parseInt(readline());
const agentDataCount = parseInt(readline());
const classes: Record<number, AgentClass> = {};
for (let i = 0; i < agentDataCount; i++) {
  const [id, player, shootCooldown, optimalRange, soakingPower, splashBombs] = readline().split(" ").map(Number);
  classes[id] = { player, shootCooldown, optimalRange, soakingPower, splashBombs };
}
const [width, height] = readline().split(" ").map(Number);
// One line per row: "x y tileType" for every x of that row (0 floor, 1 low cover, 2 high cover).
const tiles: number[][] = [];
for (let y = 0; y < height; y++) {
  const numbers = readline().split(" ").map(Number);
  const row: number[] = [];
  for (let i = 0; i < numbers.length; i += 3) row.push(numbers[i + 2]);
  tiles.push(row);
}

const distance = (a: Point, b: Point): number => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);

while (true) {
  // Every turn: the agents on the grid ...
  const agentCount = parseInt(readline());
  const agents: Agent[] = [];
  for (let i = 0; i < agentCount; i++) {
    const [id, x, y, cooldown, splashBombs, wetness] = readline().split(" ").map(Number);
    // The class first: its splashBombs is the starting count; this turn's count wins.
    agents.push({ ...classes[id], id, x, y, cooldown, splashBombs, wetness });
  }
  // ... and how many of them are mine (that many lines to write).
  const myAgentCount = parseInt(readline());
  const mine = agents.filter((a) => a.player === myId);
  const enemies = agents.filter((a) => a.player !== myId);

  for (const me of mine) {
    const actions: string[] = [];
    // The nearest enemy: walk towards it until it is within my optimal range.
    const target = enemies.reduce<Agent | null>((best, e) => (!best || distance(me, e) < distance(me, best) ? e : best), null);
    if (target && distance(me, target) > me.optimalRange) {
      actions.push(`MOVE ${target.x} ${target.y}`);
    }
    // Combat: a bomb on an enemy with none of my agents near it, else shoot the wettest enemy
    // in range, else hunker down.
    const bombable = enemies.find(
      (e) => me.splashBombs > 0 && distance(me, e) <= 4 && mine.every((m) => Math.max(Math.abs(m.x - e.x), Math.abs(m.y - e.y)) > 1),
    );
    const inRange = enemies.filter((e) => distance(me, e) <= 2 * me.optimalRange).sort((a, b) => b.wetness - a.wetness);
    if (bombable) {
      actions.push(`THROW ${bombable.x} ${bombable.y}`);
    } else if (me.cooldown === 0 && inRange.length > 0) {
      actions.push(`SHOOT ${inRange[0].id}`);
    } else {
      actions.push("HUNKER_DOWN");
    }
    console.error(`agent ${me.id} at ${me.x},${me.y} wetness ${me.wetness}: ${actions.join(", ")}`);
    // Exactly one line for this agent.
    console.log(`${me.id};${actions.join(";")}`);
  }
}
