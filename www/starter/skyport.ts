// Skyport — starter bot (TypeScript).
//
// The server talks JSON, one object per line: read each with readline() and JSON.parse, and
// answer with console.log(JSON.stringify(...)) — one object per line. console.error(...) writes
// to your debug log.
//
// The conversation:
//   1. {"message":"info",...}           -> answer the handshake:
//      {"message":"connect","revision":1,"name":"NAME"}   (3-16 chars of a-z A-Z 0-9 - _ +)
//   2. {"message":"connect","status":true}
//   3. {"message":"gamestate","turn":0,"players":[{"name":...}],"map":{...}}
//                                        -> answer your two (different) weapons:
//      {"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}
//      (laser, mortar or droid; rubidium upgrades the laser, explosium the mortar, scrap the droid)
//   4. Every turn everyone gets {"message":"gamestate","turn":T,"players":[...],"map":{...}}.
//      The players are listed from the one whose turn it is. Your own player object is the only
//      one with "resources", so it is YOUR turn when players[0].resources exists.
//      Then write up to three actions (each line one action); with fewer than three, end the
//      turn with {"message":"endturn"}. A valid shot ends your turn's effects at once.
//        {"message":"action","type":"move","direction":"down"}
//        {"message":"action","type":"mine"}                      (on an R, E or C tile)
//        {"message":"action","type":"upgrade","weapon":"laser"}  (4, then 5 resources)
//        {"message":"action","type":"laser","direction":"right-up"}
//        {"message":"action","type":"mortar","coordinates":"1,-2"}  (relative j,k)
//        {"message":"action","type":"droid","sequence":["down","down","left-down"]}
//      Directions: up, down, left-up, left-down, right-up, right-down.
//   5. After each turn: {"message":"endturn"}, then every valid action with its "from".
//      Invalid actions are answered with {"error":"..."} (some fail silently).
//   6. At the end: {"message":"endactions","winner":NAME}.
//
// Positions are "j,k": J grows down-left, K down-right; map.data[j][k] is the tile:
// G grass, E explosium, R rubidium, C scrap (walkable); V void, S spawn, O rock (not walkable).
// The types are removed before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

type Direction = "up" | "down" | "left-down" | "right-down" | "left-up" | "right-up";
type Position = [number, number];
interface Player {
  name: string;
  health: number;
  position: string; // "j,k"
  resources?: Record<string, number>; // yours only
}
interface Message {
  message: string;
  turn?: number;
  players: Player[];
  map: { data: string[][] };
}
type Action =
  | { message: "action"; type: "move"; direction: Direction }
  | { message: "action"; type: "laser"; direction: Direction }
  | { message: "action"; type: "mortar"; coordinates: string }
  | { message: "action"; type: "mine" };

const DIRS: Record<Direction, Position> = {
  "up": [-1, -1], "down": [1, 1], "left-down": [1, 0],
  "right-down": [0, 1], "left-up": [0, -1], "right-up": [-1, 0],
};
const pos = (s: string): Position => s.split(",").map((n) => parseInt(n, 10)) as Position;
const dist = ([a, b]: Position, [c, d]: Position): number => Math.max(Math.abs(a - c), Math.abs(b - d), Math.abs(a - c - (b - d)));
const send = (obj: object): void => console.log(JSON.stringify(obj));

while (true) {
  const line: string | undefined = readline();
  if (line === undefined) break;
  const msg: Message = JSON.parse(line);
  if (msg.message === "info") {
    send({ message: "connect", revision: 1, name: "starter" });
  } else if (msg.message === "gamestate" && msg.turn === 0) {
    send({ message: "loadout", "primary-weapon": "laser", "secondary-weapon": "mortar" });
  } else if (msg.message === "gamestate" && msg.players[0].resources) {
    playTurn(msg);
  }
  // Everything else (connect status, endturn, other players' actions, errors): nothing to do.
}

function playTurn(state: Message): void {
  const data = state.map.data;
  const size = data.length;
  const me = state.players[0];
  const foes = state.players.slice(1).filter((p) => p.health > 0);
  const taken = new Set(state.players.map((p) => p.position));
  const tile = ([j, k]: Position): string => (j >= 0 && k >= 0 && j < size && k < size ? data[j][k] : "V");
  const walkable = (p: Position): boolean => "GERC".includes(tile(p)) && !taken.has(p.join(","));
  const directions = Object.entries(DIRS) as [Direction, Position][];
  let here = pos(me.position);
  const actions: Action[] = [];
  const target: Position | undefined = foes
    .map((f) => pos(f.position))
    .sort((a, b) => dist(here, a) - dist(here, b))[0];

  // A laser shot if a foe stands in a straight line within range (5) and no rock is in between.
  const laserAt = (from: Position): Direction | null => {
    for (const [name, [dj, dk]] of directions) {
      let p = from;
      for (let i = 0; i < 5; i++) {
        p = [p[0] + dj, p[1] + dk];
        if (tile(p) === "O" || p[0] < 0 || p[1] < 0 || p[0] >= size || p[1] >= size) break;
        if (foes.some((f) => f.position === p.join(",") && tile(p) !== "S")) return name;
      }
    }
    return null;
  };

  while (actions.length < 3) {
    const onSpawn = tile(here) === "S";
    const dir = onSpawn ? null : laserAt(here);
    if (dir) {
      actions.push({ message: "action", type: "laser", direction: dir });
      break; // a shot ends the turn
    }
    if (target && !onSpawn && dist(here, target) <= 2 && tile(target) !== "S") {
      const coordinates = `${target[0] - here[0]},${target[1] - here[1]}`;
      actions.push({ message: "action", type: "mortar", coordinates });
      break;
    }
    // Otherwise step towards the nearest foe (or off the spawn), or mine where we stand.
    const steps = directions
      .map(([name, [dj, dk]]): [Direction, Position] => [name, [here[0] + dj, here[1] + dk]])
      .filter(([, p]) => walkable(p))
      .sort((a, b) => (target ? dist(a[1], target) - dist(b[1], target) : 0));
    if (!onSpawn && "ERC".includes(tile(here)) && actions.length === 2) {
      actions.push({ message: "action", type: "mine" });
    } else if (steps.length > 0 && (!target || dist(steps[0][1], target) >= 2)) {
      actions.push({ message: "action", type: "move", direction: steps[0][0] });
      here = steps[0][1];
    } else {
      break;
    }
  }
  for (const a of actions) send(a);
  if (actions.length < 3) send({ message: "endturn" });
}
