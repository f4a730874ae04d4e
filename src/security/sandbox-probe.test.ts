import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { pathWithoutBubblewrap } from "../test-support/path-without-bubblewrap.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { usePerTest } from "../test-support/per-test.js";

const probeModule = fileURLToPath(new URL("./sandbox-probe.ts", import.meta.url));

/** Both ways of asking, each in a fresh process (the answer is kept per process), and how long the event loop was held. */
function askInChild(env: NodeJS.ProcessEnv): { started: unknown; blocking: unknown; loopTurnsWhileAsking: number } {
  const code = [
    `const probe = await import(${JSON.stringify(probeModule)});`,
    "let turns = 0; const ticker = setInterval(() => (turns += 1), 1);",
    "const started = await probe.startBubblewrapProbe();",
    "clearInterval(ticker);",
    "const { spawnSync } = await import('node:child_process');",
    `const blocking = JSON.parse(spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(`const p = await import(${JSON.stringify(probeModule)}); console.log(JSON.stringify(p.checkBubblewrap()));`)}], { encoding: 'utf8', env: process.env }).stdout);`,
    "console.log(JSON.stringify({ started, blocking, loopTurnsWhileAsking: turns }));",
  ].join("\n");
  return JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8", env })) as ReturnType<typeof askInChild>;
}

describe("bubblewrap's probe, asked without blocking the start", () => {
  const folder = usePerTest(
    "a folder",
    () => temporaryFolder("cairn-sandbox-probe-"),
    (made) => made.remove(),
  );

  it("gives the answer the blocking probe gives, while the event loop keeps turning", () => {
    const asked = askInChild(process.env);
    expect(asked.started).toEqual(asked.blocking);
    expect(asked.started).toHaveProperty("ok");
    // Starting a sandbox takes tens of milliseconds: timers ran meanwhile (the blocking probe held the loop for all of it).
    expect(asked.loopTurnsWhileAsking).toBeGreaterThan(0);
  });

  it("where bubblewrap is not installed, says so as the blocking probe does", async () => {
    const path = await pathWithoutBubblewrap(join(folder().path, "bin"));
    const asked = askInChild({ ...process.env, PATH: path });
    expect(asked.started).toEqual(asked.blocking);
    expect(asked.started).toMatchObject({ ok: false, message: expect.stringContaining("bubblewrap (bwrap), which is not installed") as unknown });
  });
});
