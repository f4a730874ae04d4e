/**
 * Security benchmark (issue 14). Run with `npm run bench -- security`.
 * - Deciding a 60-command chain (parse on tree-sitter-bash, effects, rules,
 *   paths) once the grammar is loaded: goal under 5 ms; also shown as a ratio
 *   to a bare tree-sitter parse of the same text (the floor).
 * - The sandbox's start cost per command: `sh -c true` started through
 *   bubblewrap (with the masks computed for a small workspace) against the
 *   same command started directly.
 * - #30: the same command through cairn's network proxy (a Network(domain:…)
 *   rule in force: the bridge, a Node program, runs first in the sandbox) and
 *   in a preview (an overlayfs view in a user and mount namespace of its own,
 *   then the listing of the touched folders).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { assessCommandSync, type PathOracle } from "../src/security/command-assessment.js";
import { PermissionRules, rulesFromBlock } from "../src/security/permission-rules.js";
import { launchShell } from "../src/security/process-launch.js";
import { checkBubblewrap } from "../src/security/sandbox.js";
import { verdictFor } from "../src/security/security-decision.js";
import { loadShellParser, parseShellSync } from "../src/security/shell-parser.js";
import { workspacePathOracle } from "../src/tools/path-facts.js";
import { createLaunchPolicy } from "../src/tools/sandbox-policy.js";
import { WorkspaceGuard } from "../src/tools/workspace-guard.js";
import { overlayLaunch, previewFolders } from "../src/tools/preview/overlay-launch.js";

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function timeEach(runs: Array<() => unknown>, repetitions: number): number[] {
  // Warm-up: the JIT compiles the walk on the first runs.
  for (let warm = 0; warm < 10; warm++) for (const run of runs) run();
  const samples = runs.map((): number[] => []);
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const [index, run] of runs.entries()) {
      const start = performance.now();
      run();
      samples[index]?.push(performance.now() - start);
    }
  }
  return samples.map(median);
}

let failed = false;
const workspace = mkdtempSync(join(tmpdir(), "cairn-security-bench-"));
try {
  mkdirSync(join(workspace, "src"));
  for (let index = 0; index < 50; index++) writeFileSync(join(workspace, "src", `file-${index}.ts`), "export {};\n");
  writeFileSync(join(workspace, ".cairnignore"), "secret.env\n");
  writeFileSync(join(workspace, "secret.env"), "X=1\n");

  await loadShellParser();
  const rules = new PermissionRules(rulesFromBlock({ deny: ["Bash(rm:*)", "Bash(curl:*)"], allow: ["Bash(echo:*)", "Bash(git log:*)", "Bash(npm test)"] }, "bench"), workspace);
  const paths: PathOracle = workspacePathOracle(new WorkspaceGuard(workspace), join(workspace, "..", "user-config"));
  const pieces = ["git log --oneline -5", "echo $(date) > out.txt", "grep -rn TODO src | wc -l", "FOO=1 npm test", "cat src/file-1.ts | head -3", "find . -name '*.ts' -exec wc -l {} \\;"];
  const chain = Array.from({ length: 60 }, (_, index) => pieces[index % pieces.length]).join(" && ");
  const context = { rules, sandbox: "off" as const, yes: true, allowOutsideWrites: false, allowOutsideReads: false, paths };
  // The same decision with path facts that touch no disk: the parse, effects and rules alone.
  const noDisk: PathOracle = { cwd: workspace, facts: (path) => ({ inside: true, ignored: false, protectedReason: undefined, credential: false, display: path }) };
  const [decide, logic, parse] = timeEach(
    [
      () => verdictFor(assessCommandSync({ command: chain, rules, paths }), context),
      () => verdictFor(assessCommandSync({ command: chain, rules, paths: noDisk }), { ...context, paths: noDisk }),
      () => parseShellSync(chain).tree.delete(),
    ],
    100,
  );
  const decideMs = decide ?? Number.NaN;
  const logicMs = logic ?? Number.NaN;
  const parseMs = parse ?? Number.NaN;
  const ok = logicMs < 5;
  if (!ok) failed = true;
  console.log(
    `deciding a 60-command chain (${chain.length} characters): ${logicMs.toFixed(2)} ms for parse, effects and rules (goal < 5 ms) ${ok ? "ok" : "MISSED"}; ${decideMs.toFixed(2)} ms with the file-system checks of every word (links, ignore file); bare tree-sitter parse ${parseMs.toFixed(2)} ms, so the decision is ${(logicMs / parseMs).toFixed(1)}x the parse`,
  );

  const usable = checkBubblewrap();
  if (!usable.ok) {
    console.log(`sandbox start cost: skipped (${usable.message})`);
  } else {
    // As a session starts it: a git repository, the data folder hidden, deny rules as stubs, protected paths held.
    spawnSync("git", ["init", "-q"], { cwd: workspace });
    const dataDir = join(workspace, "..", `${workspace.split("/").at(-1) ?? "bench"}-data`);
    const policy = createLaunchPolicy({ workspace, sandbox: "workspace-write", network: false, allowEnv: [], userConfigDir: join(workspace, "..", "user-config"), dataDir, rules });
    const direct = () => spawnSync("/bin/sh", ["-c", "true"], { cwd: workspace });
    const sandboxed = () => {
      const launch = launchShell({ policy, shell: "/bin/sh", command: "true", cwd: workspace });
      const result = spawnSync(launch.file, launch.args, { cwd: workspace, env: launch.env });
      launch.release();
      if (result.status !== 0) throw new Error(`sandboxed true failed: ${result.stderr.toString()}`);
    };
    // bubblewrap alone, with the same namespaces and no plan: its own floor, which cairn cannot lower.
    const namespaces = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--unshare-user"];
    const bare = () => spawnSync("bwrap", ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...namespaces, "--", "/bin/sh", "-c", "true"], { cwd: workspace });
    const planOnly = () => launchShell({ policy, shell: "/bin/sh", command: "true", cwd: workspace }).release();
    const byDomain = new PermissionRules([...rules.rules, ...rulesFromBlock({ allow: ["Network(domain:registry.npmjs.org)"] }, "bench")], workspace);
    const proxyPolicy = createLaunchPolicy({ workspace, sandbox: "workspace-write", network: false, allowEnv: [], userConfigDir: join(workspace, "..", "user-config"), dataDir, rules: byDomain });
    const proxied = () => {
      const launch = launchShell({ policy: proxyPolicy, shell: "/bin/sh", command: "true", cwd: workspace });
      const result = spawnSync(launch.file, launch.args, { cwd: workspace, env: launch.env });
      launch.release();
      if (result.status !== 0 || launch.refusedHosts === undefined) throw new Error(`proxied true failed: ${result.stderr.toString()}`);
    };
    const previewed = () => {
      const launch = launchShell({ policy, shell: "/bin/sh", command: "true", cwd: workspace, network: false });
      const folders = previewFolders();
      const wrapped = overlayLaunch(launch, workspace, folders);
      const result = spawnSync(wrapped.file, wrapped.args, { cwd: workspace, env: wrapped.env });
      launch.release();
      rmSync(folders.root, { recursive: true, force: true });
      if (result.status !== 0) throw new Error(`previewed true failed: ${result.stderr.toString()}`);
    };
    const [directMs, bareMs, sandboxMs, planMs, proxyMs, previewMs] = timeEach([direct, bare, sandboxed, planOnly, proxied, previewed], 25);
    const extra = (sandboxMs ?? 0) - (directMs ?? 0);
    const startOk = extra <= 30;
    if (!startOk) failed = true;
    console.log(
      `sandbox start cost per command: sh -c true ${directMs?.toFixed(1)} ms directly, ${sandboxMs?.toFixed(1)} ms under bubblewrap (the whole plan: masks, protected paths, stubs) = +${extra.toFixed(1)} ms median (goal <= +30 ms) ${startOk ? "ok" : "MISSED"}, ${((sandboxMs ?? 0) / (directMs ?? 1)).toFixed(1)}x; bubblewrap alone (same namespaces, no plan) ${bareMs?.toFixed(1)} ms, cairn's plan (prepare and release) ${planMs?.toFixed(2)} ms`,
    );
    console.log(
      `through the network proxy (#30): ${proxyMs?.toFixed(1)} ms = +${((proxyMs ?? 0) - (sandboxMs ?? 0)).toFixed(1)} ms over the sandbox without network (${((proxyMs ?? 0) / (sandboxMs ?? 1)).toFixed(2)}x: the bridge's Node start); preview (overlay view, listing): ${previewMs?.toFixed(1)} ms = +${((previewMs ?? 0) - (sandboxMs ?? 0)).toFixed(1)} ms (${((previewMs ?? 0) / (sandboxMs ?? 1)).toFixed(2)}x)`,
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
