// The programs a browser check starts beside the page (the CLI, cargo), each in a process group of
// its own so that a time limit can stop it and whatever it started: class-cli.mjs, class-bench.mjs.

import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Failure } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/**
 * Runs `command args` (in the repository, unless `options` say otherwise) in a process group of
 * its own and resolves to { code, stdout, stderr, ms } (`code`: the exit code, or the signal that
 * ended it; `ms`: from its start to its end). `running` holds it while it runs, so that
 * `stopGroups(running)` can stop it.
 */
export function run(command, args, running, options = {}) {
  return new Promise((ok, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: REPO, detached: true, stdio: ["ignore", "pipe", "pipe"], ...options });
    running.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => {
      running.delete(child);
      fail(e);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      ok({ code: code ?? signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Stops what `run` started and is still running: Ctrl-C to its group (botplay then stops its
 * bots), and SIGKILL after 5 s. */
export async function stopGroups(running) {
  if (running.size === 0) return;
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGINT");
    } catch {}
  }
  await new Promise((ok) => setTimeout(ok, 5_000));
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }
}

/** The CLI: `given` (a path), or the executable that `cargo build -p botplay` (with `release`,
 * `--release`) builds and names. */
export async function botplayBinary(given, running, { release = false } = {}) {
  if (given) return given;
  const cargo = process.env.CARGO ?? "cargo";
  const build = ["build", ...(release ? ["--release"] : []), "-p", "botplay"];
  const built = await run(cargo, [...build, "--message-format=json-render-diagnostics"], running);
  if (built.code !== 0) throw new Failure(`cargo ${build.join(" ")} failed (${built.code}):\n${built.stderr}`);
  const executable = built.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .find((m) => m.reason === "compiler-artifact" && m.target?.name === "botplay" && m.executable)?.executable;
  if (!executable) throw new Failure(`cargo ${build.join(" ")} named no botplay executable`);
  return executable;
}
