// A link's QR code (src/app/qr_code.rs), with qrcode-generator (MIT, by Kazuhiko Arase; bundled
// by build.mjs into qr.js, which the page fetches the first time a QR code is asked for).
import qrcode from "qrcode-generator";

/**
 * Draws `text` as a QR code on `canvas`, black on white with a quiet zone of 4 modules, each
 * module a whole number of pixels, the whole at most `size` pixels square. Returns the number of
 * modules a side, or 0 when the text is too long for any QR code.
 */
globalThis.botplayQr = (text, canvas, size) => {
  const qr = qrcode(0, "L");
  qr.addData(text, "Byte");
  try {
    qr.make();
  } catch {
    return 0;
  }
  const modules = qr.getModuleCount();
  const quiet = 4;
  const cell = Math.max(1, Math.floor(size / (modules + 2 * quiet)));
  const side = (modules + 2 * quiet) * cell;
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, side, side);
  ctx.fillStyle = "#000";
  for (let row = 0; row < modules; row++) {
    for (let col = 0; col < modules; col++) {
      if (qr.isDark(row, col)) ctx.fillRect((col + quiet) * cell, (row + quiet) * cell, cell, cell);
    }
  }
  return modules;
};
