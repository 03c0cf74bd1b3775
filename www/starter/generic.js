// Starter bot (JavaScript).
//
// Read the referee's lines with readline(); write your answer with console.log(...);
// debug with console.error(...). See the game's rules for the protocol.

while (true) {
  const line = readline();
  console.error("read: " + line);
  console.log("WAIT");
}
