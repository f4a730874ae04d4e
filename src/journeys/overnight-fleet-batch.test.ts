/**
 * Journey: a team lead runs a batch of tasks overnight on a fleet. Two real
 * `cairn worker` processes on a real Redis, each job in the default sandbox
 * with the lead's deny rule; one worker is killed mid-job; the batch still
 * ends with every job done exactly once, the refused and escaping commands
 * held, and patches the lead applies to a fresh clone (bin/cairn: run
 * `npm run build` first).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { hasRedisServer } from "../fleet/test-support/redis-server.js";
import { useFleetSandbox, writeThenComplete } from "../fleet/test-support/fleet-harness.js";
import type { Scenario } from "../llm/scripted/scenario.js";

const fleetSandbox = useFleetSandbox();

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const write = (path: string, content: string): string => `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`;
const complete = (result: string): string => `<attempt_completion>\n<result>\n${result}\n</result>\n</attempt_completion>`;

describe.skipIf(!hasRedisServer || !checkBubblewrap().ok)("journey: an overnight batch on the fleet", () => {
  it("every job ends exactly once in the sandbox under the lead's rules, a killed worker's job is taken over, and the patches apply to a fresh clone", async () => {
    const fleet = await fleetSandbox({ files: { "README.md": "# app\n", "src/app.js": "export const answer = 41;\n" } });
    const escape = join(fleet.root, "escaped.txt");
    // Job 1: tries a denied command and a write outside the workspace (the sandbox holds it), then does its work.
    const careless: Scenario = {
      turns: [{ text: command("rm README.md") }, { text: command(`echo out > ${escape}`) }, { text: write("src/app.js", "export const answer = 42;") }, { text: complete("Fixed the answer") }],
    };
    // Job 2: its worker dies while the second answer streams.
    const interrupted: Scenario = {
      turns: [{ text: write("CHANGELOG.md", "- answer fixed") }, { text: "never finished", stallAfterChunks: 2 }, { text: write("NOTES.md", "after the takeover") }, { text: complete("Changelog and notes written") }],
    };
    const servers = [await fleet.serve(careless), await fleet.serve(interrupted), await fleet.serve(writeThenComplete("docs.md", "documented"))];
    const tasks = join(fleet.root, "tasks.jsonl");
    const names = ["fix-answer", "changelog", "docs"];
    const lines = servers.map((server, index) => JSON.stringify({ repo: fleet.repo, task: `job ${names[index]}`, name: names[index], baseUrl: server.url, permissions: { deny: ["Bash(rm:*)"] } }));
    await writeFile(tasks, `${lines.join("\n")}\n`);

    const doomed = await fleet.startWorker("doomed");
    const added = await fleet.cli(["queue", "add", "--file", tasks]);
    expect(added.status, added.stderr).toBe(0);
    await servers[1]!.waitForChunks(1, 2);
    doomed.child.kill("SIGKILL");
    await doomed.exit;
    await fleet.startWorker("survivor");

    const reports = await fleet.waitFor(
      "the whole batch to end",
      async () => {
        const found = await fleet.results();
        return found.length === 3 && found.every((report) => report.status !== "waiting" && report.status !== "running") ? found : undefined;
      },
      150_000,
    );
    const byName = new Map(reports.map((report) => [report.name, report]));
    for (const name of names) expect(byName.get(name)?.status, byName.get(name)?.error).toBe("completed");

    // The deny rule held, and the sandbox kept the write outside the workspace from landing.
    const fix = byName.get("fix-answer")!;
    expect(fix.patch).not.toMatch(/deleted file mode|--- a\/README\.md/);
    expect(existsSync(escape)).toBe(false);
    const sawRefusal = JSON.stringify(servers[0]!.requests[1]?.body);
    expect(sawRefusal).toMatch(/Bash\(rm:\*\)/);
    expect(JSON.stringify(servers[0]!.requests[2]?.body)).toMatch(/Read-only file system|read-only/i);

    // The killed worker's job: taken over once, no completed step repeated.
    const changelog = byName.get("changelog")!;
    expect(changelog.attempts).toBe(2);
    expect(changelog.worker).toBe("survivor");
    expect(servers[1]!.requests).toHaveLength(4);
    expect(servers[2]!.requests).toHaveLength(2);

    // The lead applies every patch to a fresh clone and gets the work.
    const clone = join(fleet.root, "review");
    execFileSync("git", ["clone", "-q", fleet.repo, clone]);
    for (const name of names) {
      const patchFile = join(fleet.root, `${name}.patch`);
      await writeFile(patchFile, byName.get(name)!.patch);
      execFileSync("git", ["apply", patchFile], { cwd: clone });
    }
    expect(await readFile(join(clone, "src", "app.js"), "utf8")).toBe("export const answer = 42;\n");
    expect(await readFile(join(clone, "README.md"), "utf8")).toBe("# app\n");
    expect(await readFile(join(clone, "CHANGELOG.md"), "utf8")).toBe("- answer fixed\n");
    expect(await readFile(join(clone, "NOTES.md"), "utf8")).toBe("after the takeover\n");
    expect(await readFile(join(clone, "docs.md"), "utf8")).toBe("documented\n");
  }, 200_000);
});
