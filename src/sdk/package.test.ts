/**
 * cairn as a package: `npm pack` of the built checkout, unpacked into a
 * project's node_modules as an install puts it, with examples/ compiled against
 * the packed declarations and run with node against the scripted server (real
 * HTTP, Anthropic's API). The package's dependencies come from the checkout's
 * node_modules (a link: no network), the way an install's would resolve.
 * Needs `npm run build` first (`npm test` builds before vitest runs).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "../llm/scripted/server.js";
import type { Scenario } from "../llm/scripted/scenario.js";

const checkout = fileURLToPath(new URL("../..", import.meta.url));
const tsc = join(checkout, "node_modules", "typescript", "bin", "tsc");
const examples = ["task-runner", "custom-tool", "approval-policy"] as const;

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ status: code ?? (signal === null ? 128 : 128 + 9), stdout, stderr }));
  });
}

const xml = (tool: string, params: Record<string, string>): string =>
  `<${tool}>\n${Object.entries(params)
    .map(([name, value]) => `<${name}>\n${value}\n</${name}>`)
    .join("\n")}\n</${tool}>`;
const completion = (result: string): string => xml("attempt_completion", { result });

/** Each example's task names its conversation, so one server answers them all in any order. */
const scenario: Scenario = {
  turns: [],
  conversations: [
    {
      match: "RUNNER-TASK",
      turns: [
        { text: `Writing the greeting now.\n${xml("write_to_file", { path: "hello.txt", content: "Hello from cairn" })}`, chunkSize: 5 },
        { text: `The file is written.\n${completion("Wrote hello.txt")}`, usage: { inputTokens: 120, outputTokens: 30 } },
      ],
    },
    { match: "RUNNER-FAILS", turns: [{ error: { status: 400 } }] },
    {
      match: "TICKET-TASK",
      turns: [{ text: `Let me look it up.\n${xml("lookup_ticket", { id: "CAIRN-2" })}` }, { text: completion("CAIRN-2 asks for a --quiet flag") }],
    },
    {
      match: "POLICY-TASK",
      turns: [
        { text: xml("execute_command", { command: "rm -rf notes", requires_approval: "true" }) },
        { text: xml("write_to_file", { path: "notes/todo.md", content: "- tidy up" }) },
        { text: xml("execute_command", { command: "echo ran > ran.txt", requires_approval: "true" }) },
        { text: completion("Kept the notes") },
      ],
    },
  ],
};

let root: string;
let project: string;
let server: ScriptedServer;
let childEnv: NodeJS.ProcessEnv;
let packedFiles: string[];
let compiled: Ran;

beforeAll(async () => {
  if (!existsSync(join(checkout, "dist", "index.js"))) throw new Error("dist/index.js is missing: run `npm run build` before this test");
  root = await realpath(await mkdtemp(join(tmpdir(), "cairn-package-")));
  project = join(root, "project");
  const installed = join(project, "node_modules", "cairn");
  await mkdir(installed, { recursive: true });
  const [packed] = await Promise.all([
    run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", root], { cwd: checkout, env: { ...process.env, npm_config_cache: join(root, "npm-cache"), npm_config_offline: "true" } }),
    startScriptedServer({ scenario }).then((started) => (server = started)),
  ]);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const report = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = report[0]!.files.map((file) => file.path);
  const untar = await run("tar", ["-xzf", join(root, report[0]!.filename), "-C", installed, "--strip-components=1"], { cwd: root });
  if (untar.status !== 0) throw new Error(`tar failed:\n${untar.stderr}`);
  // The package's dependencies, as an install would place them: found from the package's own folder up.
  await symlink(join(checkout, "node_modules"), join(installed, "node_modules"), "dir");
  // What the project itself installs: zod for its tool's schema, Node's types for tsc.
  await symlink(join(checkout, "node_modules", "zod"), join(project, "node_modules", "zod"), "dir");
  await mkdir(join(project, "node_modules", "@types"));
  await symlink(join(checkout, "node_modules", "@types", "node"), join(project, "node_modules", "@types", "node"), "dir");
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "uses-cairn", private: true, type: "module", dependencies: { cairn: "0.1.0", zod: "*" } }));
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: ["node"], outDir: "out", rootDir: "." },
      include: ["*.ts"],
    }),
  );
  for (const name of examples) await copyFile(join(checkout, "examples", `${name}.ts`), join(project, `${name}.ts`));
  // Options a program could get wrong: each must be a type error against the packed declarations.
  await writeFile(
    join(project, "wrong.ts"),
    [
      'import { startTask } from "cairn";',
      'startTask("x", { permissionMode: "always" });',
      'startTask("x", { maxTurns: 3 });',
      "startTask(42);",
      'const summary: string = (await startTask("x").result).turns;',
      "console.log(summary);",
      "",
    ].join("\n"),
  );
  // One compile for all: tsc still writes the examples' JavaScript when wrong.ts has errors.
  compiled = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project });

  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) {
    if (name.startsWith("CAIRN_") || name.endsWith("_API_KEY") || name.endsWith("_BASE_URL") || name.startsWith("npm_")) delete base[name];
  }
  // The user's config: fast retries, the OS sandbox off (as the CLI tests run; its own tests run it on).
  await mkdir(join(root, "config", "cairn"), { recursive: true });
  await writeFile(join(root, "config", "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandbox: "off" }));
  childEnv = {
    ...base,
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    CAIRN_HOME: join(root, "data"),
    CLAUDE_CONFIG_DIR: join(root, "claude"),
    NO_COLOR: "1",
    CAIRN_PROVIDER: "anthropic",
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "test-key-not-secret",
  };
}, 90_000);

afterAll(async () => {
  await server?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

/** A fresh workspace for one run, with `files` in it. */
async function workspace(name: string, files: Record<string, string> = {}): Promise<string> {
  const folder = join(root, "workspaces", name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(folder, path, ".."), { recursive: true });
    await writeFile(join(folder, path), content);
  }
  await mkdir(folder, { recursive: true });
  return folder;
}

function runExample(name: (typeof examples)[number], args: string[]): Promise<Ran> {
  return run(process.execPath, [join(project, "out", `${name}.js`), ...args], { cwd: project, env: childEnv });
}

const bodiesOf = (marker: string): string[] => server.requests.map((request) => JSON.stringify(request.body)).filter((body) => body.includes(marker));

describe("the packed package", () => {
  it("holds the built library (dist/index.js, its declarations, dist/sdk) and no tests or sources", () => {
    expect(packedFiles).toEqual(expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts", "dist/sdk/index.d.ts", "dist/sdk/cairn-task.d.ts", "dist/sdk/options.d.ts"]));
    expect(packedFiles.filter((file) => /\.test\.|test-support/.test(file) && file.startsWith("dist/"))).toEqual([]);
    expect(packedFiles.filter((file) => file.startsWith("src/") || file.startsWith("examples/"))).toEqual([]);
  });

  it("imports as `cairn` from the project's node_modules, and every package the library imports is a dependency", async () => {
    const resolved = await run(process.execPath, ["--input-type=module", "-e", 'console.log(import.meta.resolve("cairn"))'], { cwd: project, env: childEnv });
    expect(resolved.stdout.trim()).toBe(`file://${join(project, "node_modules", "cairn", "dist", "index.js")}`);
    // The link lends the checkout's devDependencies too; an install would not: what the library loads must be listed.
    const manifest = JSON.parse(await readFile(join(project, "node_modules", "cairn", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const library = await readFile(join(project, "node_modules", "cairn", "dist", "index.js"), "utf8");
    const specifiers = [...library.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\b(?:__)?require\s*\(\s*)"(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*|node:[\w/]+)"/g)].map((match) => match[1]!);
    const packages = new Set(
      specifiers
        .filter((specifier) => !specifier.startsWith("node:") && !builtinModules.includes(specifier))
        .map((specifier) =>
          specifier
            .split("/")
            .slice(0, specifier.startsWith("@") ? 2 : 1)
            .join("/"),
        ),
    );
    expect(packages.size).toBeGreaterThan(0);
    // Packages a task may not need (@google/genai, the MCP SDK) are required when first used, not imported
    // by `import "cairn"`: only Node's own modules are imported at the library's top (bench/RESULTS.md, "sdk").
    const topLevel = [...library.matchAll(/^import [^;]*? from "([^"]+)";/gm)].map((match) => match[1]!);
    expect(topLevel.filter((specifier) => !specifier.startsWith("node:") && !builtinModules.includes(specifier))).toEqual([]);
    expect([...packages].filter((name) => manifest.dependencies[name] === undefined)).toEqual([]);
  });

  it("type-checks the examples against the packed declarations, and rejects a program that passes wrong options", () => {
    const errors = compiled.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
    // Every error is in wrong.ts, one for each of its four mistakes.
    expect(errors.filter((line) => !line.startsWith("wrong.ts("))).toEqual([]);
    expect(errors.map((line) => /^wrong\.ts\((\d+),/.exec(line)?.[1])).toEqual(["2", "3", "4", "5"]);
    expect(compiled.status).not.toBe(0);
    for (const name of examples) expect(existsSync(join(project, "out", `${name}.js`)), name).toBe(true);
  });
});

describe("examples/task-runner", () => {
  it("streams the model's text, prints a one-line summary, writes the file and exits 0", { timeout: 30_000 }, async () => {
    const folder = await workspace("runner");
    const ran = await runExample("task-runner", [folder, "RUNNER-TASK: write hello.txt"]);
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    const lines = ran.stdout.split("\n");
    expect(lines).toContain("Writing the greeting now.");
    expect(lines).toContain("Wrote hello.txt");
    expect(lines.at(-2)).toMatch(/^completed · 2 turns · 130 tokens in, 40 out · \$\d+\.\d{4}$/);
    expect(await readFile(join(folder, "hello.txt"), "utf8")).toBe("Hello from cairn\n");
  });

  it("exits with the result's exit status when the task fails (the API refuses the request)", { timeout: 30_000 }, async () => {
    const ran = await runExample("task-runner", [await workspace("runner-fails"), "RUNNER-FAILS: anything"]);
    expect(ran.status).toBe(1);
    expect(ran.stdout.split("\n").at(-2)).toMatch(/^failed · 1 turn · /);
  });
});

describe("examples/custom-tool", () => {
  it("the model calls the tool defined in code, which prints its result, and the model gets it", { timeout: 30_000 }, async () => {
    const ran = await runExample("custom-tool", [await workspace("tickets"), "TICKET-TASK: what is CAIRN-2 about?"]);
    expect(ran.stderr).toBe("");
    expect(ran.stdout.split("\n")).toEqual(["lookup_ticket(CAIRN-2) -> CAIRN-2: Add a --quiet flag to cairn run", "result: CAIRN-2 asks for a --quiet flag", "completed in 2 turns", ""]);
    const bodies = bodiesOf("TICKET-TASK");
    // The schema made with the program's own zod reaches the model with its description.
    expect(bodies[0]).toContain("The ticket's id, e.g. CAIRN-1");
    expect(bodies.at(-1)).toContain("CAIRN-2: Add a --quiet flag to cairn run");
  });
});

describe("examples/approval-policy", () => {
  it("denies rm (which does not run), allows an edit and another command in the workspace, and logs each decision", { timeout: 30_000 }, async () => {
    const folder = await workspace("policy", { "notes/keep.txt": "keep me\n" });
    const ran = await runExample("approval-policy", [folder, "POLICY-TASK: tidy up"]);
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    expect(ran.stdout.split("\n")).toEqual([
      "policy: deny execute_command rm -rf notes",
      "policy: allow write_to_file notes/todo.md",
      "policy: allow execute_command echo ran > ran.txt",
      "result: Kept the notes",
      "completed: 1 action(s) refused",
      "",
    ]);
    expect(await readFile(join(folder, "notes", "keep.txt"), "utf8")).toBe("keep me\n");
    expect(await readFile(join(folder, "notes", "todo.md"), "utf8")).toBe("- tidy up\n");
    expect(await readFile(join(folder, "ran.txt"), "utf8")).toBe("ran\n");
    // The model is told why.
    expect(bodiesOf("POLICY-TASK")[1]).toContain("This policy does not allow rm, curl or git push.");
    expect((await readdir(folder)).sort()).toEqual(["notes", "ran.txt"]);
  });
});
