/**
 * #30 command preview, through the real CLI against the scripted server: at a
 * command's approval the user answers "preview"; the command runs in the
 * sandbox on a copy-on-write view of the workspace, the user sees what it
 * would create, change and delete, and applies it (exactly that lands) or
 * discards it (nothing changed). In the sandbox commands run unasked, so the
 * user here keeps ask rules for the ones they want to see first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const bubblewrap = checkBubblewrap();
if (!bubblewrap.ok) console.warn(`SKIPPED the command preview tests: bubblewrap is not usable: ${bubblewrap.message}`);

const cli = useCliFixture();

const command = (text: string, timeout?: number): string =>
  `<execute_command>\n<command>${text}</command>\n<requires_approval>true</requires_approval>${timeout === undefined ? "" : `\n<timeout>${timeout}</timeout>`}\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

async function run(turns: string[], answers: string[], networkRules: string[] = []): Promise<{ status: number | null; stderr: string; sent: (index: number) => string }> {
  await writeFile(
    join(cli.sandbox.configDir, "cairn", "config.json"),
    JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false, permissions: { ask: ["Bash(rm:*)", "Bash(sed:*)", "Bash(npm install:*)", "Bash(sleep:*)", "Bash(curl:*)"], allow: networkRules } }),
  );
  await cli.startServer({ turns: turns.map((text) => ({ text })) });
  const result = await cli.run(["run", "--provider", "anthropic", "--api-key", "sk-test-0123456789", "--base-url", cli.server!.url, "--sandbox", "workspace-write", "tidy up"], {
    stdin: `${answers.join("\n")}\n`,
  });
  return { status: result.status, stderr: result.stderr, sent: (index) => JSON.stringify(cli.server!.requests[index]?.body) };
}

describe.skipIf(!bubblewrap.ok)("command preview: see what a command would change before anything lands", () => {
  it("`rm -rf build` previewed and applied removes the folder; `sed -i` previewed and discarded leaves the file as it was", async () => {
    const workspace = cli.sandbox.workspace;
    await mkdir(join(workspace, "build", "sub"), { recursive: true });
    await writeFile(join(workspace, "build", "out.js"), "compiled\n");
    await writeFile(join(workspace, "build", "sub", "map.js"), "map\n");
    await writeFile(join(workspace, "notes.txt"), "hello world\nsecond line\n");
    const result = await run([command("rm -rf build"), command("sed -i s/hello/goodbye/ notes.txt"), complete], ["preview", "y", "preview", "n", "y"]);
    expect(result.status, result.stderr).toBe(0);
    // What the user saw before anything landed.
    expect(result.stderr).toContain("It would create 0, change 0 and delete 2 files:");
    expect(result.stderr).toContain("deleted build/out.js");
    expect(result.stderr).toContain("deleted build/sub/map.js");
    expect(result.stderr).toMatch(/-hello world\n\+goodbye world/);
    // On disk: the applied preview removed the folder, the discarded one changed nothing.
    expect(existsSync(join(workspace, "build"))).toBe(false);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("hello world\nsecond line\n");
    expect(result.sent(1)).toContain("the user applied its changes");
    expect(result.sent(2)).toContain("discarded its changes: nothing changed in the workspace");
  });

  it("`npm install` of a local tarball, previewed: discarded leaves no node_modules; applied installs exactly what was shown", async () => {
    const workspace = cli.sandbox.workspace;
    await writeFile(join(workspace, "package.json"), `${JSON.stringify({ name: "app", version: "1.0.0", private: true }, null, 2)}\n`);
    const library = join(cli.sandbox.root, "left-pad");
    await mkdir(library, { recursive: true });
    await writeFile(join(library, "package.json"), JSON.stringify({ name: "left-pad", version: "1.0.0", main: "index.js" }));
    await writeFile(join(library, "index.js"), "module.exports = (text, width) => String(text).padStart(width);\n");
    execFileSync("npm", ["pack", "--pack-destination", workspace], { cwd: library, stdio: "ignore" });
    const install = "npm install --offline --no-audit --no-fund --cache /tmp/npm-cache ./left-pad-1.0.0.tgz";
    const result = await run([command(install), command(install), complete], ["preview", "n", "preview", "y", "y"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("created node_modules/left-pad/index.js");
    expect(result.stderr).toContain("changed package.json");
    expect(result.stderr).toMatch(/\+\s+"left-pad": "file:left-pad-1\.0\.0\.tgz"/);
    expect(result.sent(1)).toContain("discarded its changes");
    // Applied: the package is installed and recorded, as the preview showed.
    expect(await readFile(join(workspace, "node_modules", "left-pad", "index.js"), "utf8")).toContain("padStart");
    expect(JSON.parse(await readFile(join(workspace, "package.json"), "utf8")).dependencies).toEqual({ "left-pad": "file:left-pad-1.0.0.tgz" });
    expect(lstatSync(join(workspace, "package-lock.json")).isFile()).toBe(true);
  });

  it("a command that outlives the preview's time limit, or gets the network, says why it cannot be previewed and is asked again", async () => {
    const result = await run([command("sleep 30; touch late.txt", 1), command("curl -sS http://127.0.0.1:9/ > fetched.txt"), complete], ["preview", "n", "preview", "n", "y"], ["Network(curl:*)"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("It cannot be previewed: it did not finish within 1 s in the preview (a long-running command). Run it for real?");
    expect(result.stderr).toContain("It cannot be previewed: it gets the network, and what it sends or fetches cannot be taken back by discarding a preview. Run it for real?");
    expect(existsSync(join(cli.sandbox.workspace, "late.txt"))).toBe(false);
    expect(existsSync(join(cli.sandbox.workspace, "fetched.txt"))).toBe(false);
  });
});
