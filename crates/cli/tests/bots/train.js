// A CodinGame-style JavaScript bot: global readline(), console.log for output.
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  const gold = parseInt(readline());
  for (let i = 0; i < 3; i++) readline();
  const rows = [];
  for (let i = 0; i < 12; i++) rows.push(readline());
  const buildings = parseInt(readline());
  for (let i = 0; i < buildings; i++) readline();
  const units = parseInt(readline());
  for (let i = 0; i < units; i++) readline();
  const red = rows[0][0] === 'O';
  // Train next to the HQ when affordable: (1,1) for red, (10,10) for blue.
  console.log(gold >= 10 ? (red ? 'TRAIN 1 1 1' : 'TRAIN 1 10 10') : 'WAIT');
}
