// Every replay of an arena as one zip file (src/app/replay_zip.rs), with fflate (MIT, by Arjun
// Barrett; bundled by build.mjs into zip.js, which the page fetches the first time a zip is
// asked for). Files are deflated a few at a time, the page's thread given back between them.
import { Zip, ZipDeflate, strToU8 } from "fflate";

/** A zip (as a Blob) of `texts[i]` named `names[i]`; each slice of work lasts about 20 ms. */
globalThis.botplayZip = (names, texts) =>
  new Promise((resolve, reject) => {
    const parts = [];
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      parts.push(data);
      if (final) resolve(new Blob(parts, { type: "application/zip" }));
    });
    let next = 0;
    const slice = () => {
      const until = performance.now() + 20;
      try {
        while (next < names.length && performance.now() < until) {
          const file = new ZipDeflate(names[next], { level: 6 });
          zip.add(file);
          file.push(strToU8(texts[next]), true);
          next += 1;
        }
        if (next < names.length) setTimeout(slice, 0);
        else zip.end();
      } catch (error) {
        reject(error);
      }
    };
    slice();
  });
