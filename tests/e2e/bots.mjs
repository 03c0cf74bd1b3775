// Bots the browser tests type into the editor, written once.

/** Ice and Fire: every unit walks to the enemy HQ; a level-1 unit is trained beside the HQ while
 * there is gold and a free cell. With `debug`, each turn logs "units: N" to the debug log; with
 * `reads`, "inputs read: N" (how many turns' inputs it has read); with `crashAt`, it throws on that
 * input ("a bug on input N"). */
export function iceAndFireWalker({ debug = false, reads = false, crashAt = 0 } = {}) {
  return `
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
let read = 0;
while (true) {
  const gold = parseInt(readline());
  read++;
  readline(); readline(); readline();
  for (let y = 0; y < 12; y++) readline();
  const buildings = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) buildings.push(readline().split(" ").map(Number));
  const units = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) units.push(readline().split(" ").map(Number));
${reads ? '  console.error("inputs read: " + read);\n' : ""}${crashAt ? `  if (read === ${crashAt}) throw new Error("a bug on input " + read);\n` : ""}  const mine = buildings.find(([o, t]) => o === 0 && t === 0);
  const theirs = buildings.find(([o, t]) => o === 1 && t === 0);
  const out = units.filter(([o]) => o === 0).map(([, id]) => "MOVE " + id + " " + theirs[2] + " " + theirs[3]);
  const beside = mine[2] === 0 ? [[1, 0], [0, 1]] : [[10, 11], [11, 10]];
  const free = beside.find(([x, y]) => !units.some((u) => u[3] === x && u[4] === y));
  if (gold >= 10 && free) out.push("TRAIN 1 " + free[0] + " " + free[1]);
${debug ? '  console.error("units: " + units.length);\n' : ""}  console.log(out.length ? out.join(";") : "WAIT");
}
`;
}
