// Starter bot (TypeScript).
//
// Read the referee's lines with readline(); write your answer with console.log(...);
// debug with console.error(...). See the game's rules for the protocol. The types are removed
// before the bot runs (nothing checks them), as on CodinGame.
declare function readline(): string;

while (true) {
  const line: string = readline();
  console.error("read: " + line);
  console.log("WAIT");
}
