// The arena's replays, kept in the browser's IndexedDB as each match ends, so that a reload
// loses none (local storage, where the arena's progress is kept, holds 5 MB; a class's replays
// are tens of MB). The page fetches this script when an arena first keeps or reads a replay
// (src/app/replay_store.rs). Three operations on one object store, written with IndexedDB's own
// API: a library (idb-keyval) would need a bundling step for 30 lines.
//
//   botplayKeepReplay(game, index, text) -> Promise<void>
//   botplayKeptReplays(game)             -> Promise<number[]>   the match indices kept
//   botplayKeptReplay(game, index)       -> Promise<string|null>
//   botplayForgetReplays(game)           -> Promise<void>
"use strict";
(() => {
  const DB = "botplay-arena-replays";
  const STORE = "replays";
  let opened = null;

  const request = (r) =>
    new Promise((ok, fail) => {
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });

  function db() {
    if (!opened) {
      const open = indexedDB.open(DB, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(STORE);
      opened = request(open).catch((error) => {
        opened = null;
        throw error;
      });
    }
    return opened;
  }

  async function store(mode) {
    return (await db()).transaction(STORE, mode).objectStore(STORE);
  }

  // Keys are [game, index]: one game's replays are one key range.
  const range = (game) => IDBKeyRange.bound([game, 0], [game, Infinity]);

  self.botplayKeepReplay = async (game, index, text) => {
    await request((await store("readwrite")).put(text, [game, index]));
  };
  self.botplayKeptReplays = async (game) =>
    (await request((await store("readonly")).getAllKeys(range(game)))).map((key) => key[1]);
  self.botplayKeptReplay = async (game, index) => (await request((await store("readonly")).get([game, index]))) ?? null;
  self.botplayForgetReplays = async (game) => {
    await request((await store("readwrite")).delete(range(game)));
  };
})();
