/**
 * #30: what a sandboxed command costs through cairn's network proxy (the
 * bridge runs first in the sandbox: Perl, or Node where there is no Perl) and
 * in a preview (overlayfs view in a user and mount namespace, then the listing
 * of the folders it touched), against the same `sh -c true` in the sandbox.
 * Wall time, the variants interleaved, medians of 15 (the sandbox's processes
 * are reaped in its own PID namespace, out of /usr/bin/time's sight); and the
 * CPU of starting each bridge's interpreter alone, which wall time under load
 * blurs. Run with `npm run bench -- sandbox-network`.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PermissionRules, rulesFromBlock } from "../src/security/permission-rules.js";
import { launchShell } from "../src/security/process-launch.js";
import { loadShellParser } from "../src/security/shell-parser.js";
import { createLaunchPolicy } from "../src/tools/sandbox-policy.js";
import { bridgeProgram } from "../src/security/proxy-bridge.js";
import { overlayLaunch, previewFolders } from "../src/tools/preview/overlay-launch.js";
await loadShellParser();
const workspace = mkdtempSync(join(tmpdir(), "cairn-bridge-bench-"));
mkdirSync(join(workspace, "src"));
for (let i = 0; i < 50; i++) writeFileSync(join(workspace, "src", `f${i}.ts`), "export {};\n");
spawnSync("git", ["init", "-q"], { cwd: workspace });
const dataDir = `${workspace}-data`;
const base = rulesFromBlock({ deny: ["Bash(rm:*)"] }, "b");
const mk = (extra: string[]) =>
  createLaunchPolicy({
    workspace,
    sandbox: "workspace-write",
    network: false,
    allowEnv: [],
    userConfigDir: join(workspace, "..", "uc"),
    dataDir,
    rules: new PermissionRules([...base, ...rulesFromBlock({ allow: extra }, "b")], workspace),
  });
const plain = mk([]);
const proxy = mk(["Network(domain:registry.npmjs.org)"]);
const sandboxFolder = join(dataDir, "sandbox");
const nodeBridge = bridgeProgram(sandboxFolder, "node");
const perlBridge = bridgeProgram(sandboxFolder, "perl");
/** Wall time of one run (the sandbox's processes are reaped inside its own PID namespace: /usr/bin/time sees none of their CPU). */
function cpu(file: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(file, args, { cwd: workspace, env });
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return performance.now() - started;
}

/** CPU (user + system) of starting an interpreter the way the bridge does, without the sandbox: median of 15. */
function startCpu(file: string, args: string[]): number {
  const samples: number[] = [];
  for (let run = 0; run < 15; run++) {
    const result = spawnSync("/usr/bin/time", ["-f", "%U %S", file, ...args]);
    const [user, system] = (result.stderr.toString().trim().split("\n").at(-1) ?? "").split(" ").map(Number);
    samples.push(((user ?? 0) + (system ?? 0)) * 1000);
  }
  return median(samples);
}

const variants: Record<string, () => number> = {
  sandbox: () => {
    const l = launchShell({ policy: plain, shell: "/bin/sh", command: "true", cwd: workspace });
    const v = cpu(l.file, l.args, l.env);
    l.release();
    return v;
  },
  "proxy (perl bridge)": () => {
    const l = launchShell({ policy: proxy, shell: "/bin/sh", command: "true", cwd: workspace });
    const v = cpu(l.file, l.args, l.env);
    l.release();
    return v;
  },
  "proxy (node bridge)": () => {
    const l = launchShell({ policy: proxy, shell: "/bin/sh", command: "true", cwd: workspace });
    const args = l.args.map((a) => (a === perlBridge.program ? nodeBridge.program : a === perlBridge.script ? nodeBridge.script : a));
    if (!l.args.includes(perlBridge.script)) throw new Error("no perl");
    const v = cpu(l.file, args, l.env);
    l.release();
    return v;
  },
  preview: () => {
    const l = launchShell({ policy: plain, shell: "/bin/sh", command: "true", cwd: workspace, network: false });
    const f = previewFolders();
    const w = overlayLaunch(l, workspace, f);
    const v = cpu(w.file, w.args, w.env);
    l.release();
    rmSync(f.root, { recursive: true, force: true });
    return v;
  },
};
const median = (values: number[]): number => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;
const samples: Record<string, number[]> = {};
for (let i = 0; i < 15; i++) for (const [name, run] of Object.entries(variants)) (samples[name] ??= []).push(run());
const baseMs = median(samples["sandbox"]!);
for (const [name, v] of Object.entries(samples)) console.log(`${name}: median ${median(v).toFixed(0)} ms wall, ${(median(v) / baseMs).toFixed(2)}x the sandbox`);
console.log(
  `interpreter start, CPU (user+sys), median of 15: perl with the bridge's modules ${startCpu(perlBridge.program, ["-MIO::Socket::INET", "-MIO::Socket::UNIX", "-MIO::Select", "-e", "1"]).toFixed(0)} ms, node ${startCpu(process.execPath, ["-e", "0"]).toFixed(0)} ms`,
);
rmSync(workspace, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });
