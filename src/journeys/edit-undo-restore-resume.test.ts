/**
 * Journey: edit, undo, restore, resume, continue (docs/journeys.md, "The
 * terminal user"). bin/cairn in tmux against the scripted model: run
 * `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs } from "../cli/test-support/cli-fixture.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { commandTurn, completeTurn, flat, quitWithCtrlC, replaceTurn, typeLine, useJourneyTerminal, writeFileTurn } from "./test-support/terminal-journey.js";

const cli = useJourneyTerminal({
  prepare: async (sandbox) => {
    const workspace = sandbox.workspace;
    await writeFile(join(workspace, "greeting.txt"), "hello\n");
    await writeFile(join(workspace, "version.txt"), "1\n");
    // Each bump also stamps the release in a folder the first bump makes: new files a command leaves, found by the checkpoint's scan.
    await writeFile(
      join(workspace, "bump.js"),
      'const fs = require("fs");\nconst next = Number(fs.readFileSync("version.txt", "utf8")) + 1;\nfs.writeFileSync("version.txt", `${next}\\n`);\nfs.mkdirSync("release/stamps", { recursive: true });\nfs.writeFileSync(`release/stamps/v${next}.txt`, "stamped\\n");\n',
    );
    await writeFile(join(workspace, "package.json"), JSON.stringify({ name: "greeter", private: true, scripts: { bump: "node bump.js" } }, null, 2));
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", ...args], { cwd: workspace, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
  },
});

if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'edit, undo, restore, resume, continue' is skipped (install the tmux package)");

describe.skipIf(!tmuxAvailable())("journey: edit, undo, restore, resume, continue", () => {
  it("a task edits with approvals, /undo and /restore take changes back, and the task resumes in a new cairn and completes", { timeout: 120_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    const read = (name: string) => readFile(join(workspace, name), "utf8");
    const server = await cli.startServer({
      turns: [
        completeTurn("three files here"),
        writeFileTurn("notes.md", "# Notes\nfirst draft", "I'll start the notes.\n"),
        replaceTurn("greeting.txt", "hello", "hello, world", "Now the greeting.\n"),
        commandTurn("npm run bump", "Bumping the version.\n"),
        commandTurn("npm run bump", "Once more.\n"),
        completeTurn("greeting updated and version bumped twice"),
        replaceTurn("notes.md", "first draft", "first draft\n-- signed, cairn", "Signing the notes.\n"),
        completeTurn("notes signed"),
      ],
    });
    const provider = anthropicArgs(server);

    // Yesterday's task, and the user's choice of approvals over the sandbox.
    expect((await cli.run(["run", ...provider, "--yes", "list the files"])).status).toBe(0);
    expect((await cli.run(["sandbox", "disable"])).status).toBe(0);

    const ui = await cli.openCairn([...provider, "update the greeting and bump the version"]);
    await ui.waitFor(/notes\.md[\s\S]*Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/greeting\.txt[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    expect(await ui.capture()).toMatch(/\+hello, world/);
    await ui.sendKeys("1");
    const asked = flat(await ui.waitFor(/Run this command\?[\s\S]*always allow/, { timeoutMs: 60_000 }));
    expect(asked).toMatch(/2\. Yes, and always allow Bash\(npm run:\*\)/);
    await ui.sendKeys("2");
    // The second bump is not asked: the rule counts at once, and it is saved in the user's config.
    const done = await ui.waitFor(/version bumped twice[\s\S]*Done\?/, { timeoutMs: 60_000 });
    expect(done).not.toMatch(/Run this command\?/);
    expect(await read("version.txt")).toBe("3\n");
    expect(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")).toContain("Bash(npm run:*)");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback|What should cairn do/, { timeoutMs: 30_000 });
    // A checkpoint before the first step, then one after each step that changed the files. A step's
    // checkpoint is made beside the next request (the stream waits for none), so its line may come
    // after the answer that followed it: the transcript is read until the fifth is there.
    const checkpointsIn = (text: string): string[] => [...text.matchAll(/Checkpoint ([0-9a-f]{12})/g)].map((match) => match[1]!);
    let transcript = await ui.captureAll();
    for (const deadline = Date.now() + 15_000; checkpointsIn(transcript).length < 5 && Date.now() < deadline; transcript = await ui.captureAll()) await new Promise((resolve) => setTimeout(resolve, 200));
    // The menu's choice is no message of the user's: nothing says "› always".
    expect(transcript).not.toMatch(/› always/);
    const checkpoints = checkpointsIn(transcript);
    expect(checkpoints, transcript).toHaveLength(5);

    // /undo takes back the last step: the second bump.
    await typeLine(ui, "/undo");
    const undone = flat(await ui.waitFor(/Undid[\s\S]*(Give feedback|What should cairn do)/, { timeoutMs: 30_000 }));
    expect(undone).toMatch(/wrote back version\.txt/);
    expect(await read("version.txt")).toBe("2\n");
    expect(await read("release/stamps/v2.txt")).toBe("stamped\n");
    await expect(read("release/stamps/v3.txt")).rejects.toThrow();

    // /restore the first step's checkpoint: only the notes are written.
    await typeLine(ui, `/restore ${checkpoints[1]} files`);
    await ui.waitFor(/Restored checkpoint/, { timeoutMs: 30_000 });
    expect(await read("version.txt")).toBe("1\n");
    expect(await read("greeting.txt")).toBe("hello\n");
    expect(await read("notes.md")).toBe("# Notes\nfirst draft\n");
    await expect(read("release/stamps/v2.txt")).rejects.toThrow();

    await typeLine(ui, "/exit");
    expect(await ui.waitForExit({ timeoutMs: 30_000 })).toBe(0);
    await ui.kill();

    // The next day: cairn again, /resume opens this task with its transcript.
    const again = await cli.openCairn(provider);
    await again.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await typeLine(again, "/resume");
    const resumed = await again.waitFor(/Task \S+ is open/, { timeoutMs: 30_000 });
    const taskId = /Task (\S+) is open/.exec(resumed)![1]!;
    const replayed = flat(await again.captureAll());
    expect(replayed).toMatch(/› update the greeting and bump the version/);
    expect(replayed).toMatch(/greeting updated and version bumped twice/);
    expect(replayed).not.toMatch(/three files here/);
    await typeLine(again, "also sign the notes");
    await again.waitFor(/notes\.md[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    await again.sendKeys("1");
    await again.waitFor(/notes signed[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await again.sendKeys("Enter");
    // The accepted completion has landed (a Ctrl+C before it would interrupt the task).
    await again.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(await read("notes.md")).toBe("# Notes\nfirst draft\n-- signed, cairn\n");
    expect(JSON.stringify(server.requests[6]?.body)).toContain("also sign the notes");
    expect(await quitWithCtrlC(again)).toBe(0);

    const shown = await cli.run(["show", taskId]);
    expect(shown.status).toBe(0);
    const log = shown.stdout;
    for (const part of ["update the greeting and bump the version", "notes.md", "greeting.txt", "npm run bump", "greeting updated and version bumped twice", "also sign the notes", "notes signed"]) {
      expect(log).toContain(part);
    }
    expect(log.indexOf("greeting updated and version bumped twice")).toBeLessThan(log.indexOf("also sign the notes"));
    expect(log.indexOf("also sign the notes")).toBeLessThan(log.indexOf("notes signed"));

    const history = (await cli.run(["history"])).stdout;
    expect(history.indexOf(taskId)).toBeGreaterThan(-1);
    expect(history.indexOf("update the greeting")).toBeLessThan(history.indexOf("list the files"));
    // Only the newest when asked (a long history prints its newest 50), and what was left out said.
    const newest = (await cli.run(["history", "--limit", "1"])).stdout;
    expect(newest).toContain(taskId);
    expect(newest).not.toContain("list the files");
    expect(newest).toContain("1 older task not shown (cairn history --all, or --limit N)");
    await expect(access(join(workspace, "notes.md"))).resolves.toBeUndefined();

    // Second thoughts about the follow-up: a branch without it, in a worktree, then the task itself taken back.
    const messages = (await cli.run(["rewind", taskId])).stdout;
    expect(messages).toMatch(/1 {2}\d\d:\d\d {2}update the greeting and bump the version\n {2}2 {2}\d\d:\d\d {2}also sign the notes/);
    const forked = JSON.parse((await cli.run(["fork", taskId, "--at", "2", "--worktree", "--json"])).stdout) as { taskId: string; workspace: string };
    expect(await readFile(join(forked.workspace, "notes.md"), "utf8")).toBe("# Notes\nfirst draft\n");
    expect(await read("notes.md")).toBe("# Notes\nfirst draft\n-- signed, cairn\n");
    expect((await cli.run(["history"])).stdout).toContain(`⑂ fork of ${taskId}: update the greeting`);
    const rewound = await cli.run(["rewind", taskId, "--to", "2"]);
    expect(rewound.status, rewound.stderr).toBe(0);
    expect(await read("notes.md")).toBe("# Notes\nfirst draft\n");
    expect((await cli.run(["show", taskId])).stdout).not.toContain("also sign the notes");
  });
});
