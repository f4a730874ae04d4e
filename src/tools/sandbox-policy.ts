/**
 * The launch policy for everything cairn starts in a workspace: the scrubbed
 * environment and, when the sandbox is on, the plan of each sandbox (what it
 * hides, keeps read-only, anchors, holds with placeholders and replaces with
 * stubs), made afresh at each start because the workspace changes.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { sharedLoopbackPrefix } from "../security/shared-loopback.js";
import { acquirePlaceholders, heldPlaceholders, placeholderRecordName, usePlaceholderRecord } from "../security/placeholders.js";
import type { LaunchPolicy, PreparedSandbox } from "../security/process-launch.js";
import { protectedEntries, type ProtectedEntry } from "../security/protected-paths.js";
import type { SandboxMode, SandboxPlan } from "../security/sandbox.js";
import { checkBubblewrap } from "../security/sandbox-probe.js";
import { credentialFolders } from "../security/sensitive-paths.js";
import { deniedProgramStubs } from "../security/denied-program-stubs.js";
import { commandNetworkSync } from "../security/network-rules.js";
import type { PermissionRules } from "../security/permission-rules.js";
import { emptyFileIn } from "../security/empty-file.js";
import { startDomainProxy } from "../security/network-proxy.js";
import { decideDomain } from "../security/network-domains.js";
import { bridgeProgram } from "../security/proxy-bridge.js";
import { TrackedSecrets } from "./tracked-secrets.js";
import { planHiding } from "./hiding-plan.js";
import { WorkspaceGuard, isWithin, resolveReal } from "./workspace-guard.js";
import { WorkspaceScan } from "./workspace-scan.js";

export interface LaunchPolicyOptions {
  workspace: string;
  sandbox: SandboxMode;
  network: boolean;
  allowEnv: readonly string[];
  /** Variables the settings set for every child (Claude Code's `env`). */
  environment?: Readonly<Record<string, string>>;
  /** The environment children start from (default: this process's). */
  baseEnvironment?: NodeJS.ProcessEnv;
  userConfigDir: string;
  /** cairn's data folder: hidden from the sandbox (checkpoints hold ignored files, logs hold everything). */
  dataDir?: string;
  /** A folder inside the data folder that stays readable (this session's saved command outputs). */
  readableInDataDir?: string;
  /** Network and deny rules: which commands get the sandbox's network, which programs are stubs. */
  rules?: PermissionRules;
  /** More protected paths (the scripts trusted hooks run). */
  extraProtected?: () => ProtectedEntry[];
}

/** A folder to hide, or, when it holds something that must stay visible, each of its other entries. */
function hideAround(folder: string, keep: readonly string[]): string[] {
  const inside = keep.filter((path) => path !== folder && isWithin(folder, path));
  if (keep.includes(folder)) return [];
  if (inside.length === 0) return [folder];
  let children;
  try {
    children = readdirSync(folder);
  } catch {
    return [];
  }
  return children.flatMap((name) => hideAround(join(folder, name), inside));
}

/** The ancestors of `path` strictly between `root` and it. */
function ancestorsWithin(root: string, path: string): string[] {
  const result: string[] = [];
  for (let current = dirname(path); current !== root && isWithin(root, current); current = dirname(current)) result.push(current);
  return result;
}

/** Where a missing path would first be created: its first missing ancestor-or-self inside `root`; undefined when it exists or sits under a file. */
function firstMissing(root: string, path: string, exists: (path: string) => "folder" | "other" | undefined): string | undefined {
  const chain = [...ancestorsWithin(root, path).reverse(), path];
  for (const step of chain) {
    const found = exists(step);
    if (found === undefined) return step;
    if (found === "other") return undefined;
  }
  return undefined;
}

export function createLaunchPolicy(options: LaunchPolicyOptions): LaunchPolicy {
  const environment = {
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    ...(options.baseEnvironment === undefined ? {} : { baseEnvironment: options.baseEnvironment }),
  };
  if (options.sandbox === "off") return { allowEnv: options.allowEnv, ...environment, sandbox: undefined };
  const mode = options.sandbox;
  const guard = new WorkspaceGuard(options.workspace);
  const root = guard.root;
  const scan = new WorkspaceScan(guard, options.userConfigDir);
  const tracked = new TrackedSecrets(guard, options.userConfigDir);
  const dataDir = options.dataDir === undefined ? undefined : resolveReal(options.dataDir);
  const sandboxFolder = join(dataDir ?? join(homedir(), ".cairn"), "sandbox");
  usePlaceholderRecord(join(dataDir ?? join(homedir(), ".cairn"), placeholderRecordName));

  const prepare = (launch: { longLived: boolean; network: boolean; proxy?: boolean; program: string; visible?: readonly string[] }): PreparedSandbox => {
    const probe = checkBubblewrap();
    const found = scan.scan();
    const secrets = tracked.find();
    const entries = [...protectedEntries(root, options.extraProtected?.() ?? []), ...found.nestedRules.map((path) => ({ path, reason: "rules", kind: "file" as const }))];
    // A placeholder another process of this session holds is missing for this one too: it takes its own hold on it
    // (seen as an existing folder, it would be bound as is and vanish when the other process ends).
    const held = new Set(heldPlaceholders());
    const kindOf = (path: string): "folder" | "other" | undefined => {
      if (held.has(path)) return undefined;
      try {
        const stats = lstatSync(path, { throwIfNoEntry: false });
        if (stats === undefined) return undefined;
        return stats.isDirectory() ? "folder" : "other";
      } catch {
        return "other";
      }
    };
    const readOnly: string[] = [];
    const anchored = new Set<string>();
    const missing = new Set<string>();
    const audited: string[] = [];
    for (const entry of entries) {
      if (isWithin(root, entry.path)) for (const ancestor of ancestorsWithin(root, entry.path)) anchored.add(ancestor);
      if (kindOf(entry.path) !== undefined) {
        readOnly.push(entry.path);
        continue;
      }
      if (!isWithin(root, entry.path) || mode !== "workspace-write" || launch.longLived) continue;
      // A missing protected file is checked for after the process (a placeholder would show in `ls` and trip up tools);
      // a missing protected folder gets an empty read-only one for the process's life (git does not see empty folders).
      if (entry.kind === "file") audited.push(entry.path);
      else {
        const where = firstMissing(root, entry.path, kindOf);
        if (where !== undefined) missing.add(where);
      }
    }
    const keep = [root, sandboxFolder, ...(options.readableInDataDir === undefined ? [] : [options.readableInDataDir]), resolveReal(launch.program)];
    const hiddenFolders = [...credentialFolders(options.userConfigDir), ...(dataDir === undefined ? [] : [dataDir])];
    const hiding = planHiding(found, root);
    const hidden = [...hiding.hidden, ...hiddenFolders.flatMap((folder) => hideAround(folder, keep))];
    const agentSocket = process.env["SSH_AUTH_SOCK"];
    if (agentSocket !== undefined && agentSocket !== "") hidden.push(agentSocket);
    if (secrets.gitDir !== undefined && secrets.files.length > 0) hidden.push(join(secrets.gitDir, "objects"));
    const placeholders = acquirePlaceholders([...missing]);
    const links = readOnly.flatMap((path) => {
      try {
        return lstatSync(path).isSymbolicLink() ? [{ path, target: readlinkSync(path) }] : [];
      } catch {
        return [];
      }
    });
    const plan: SandboxPlan = {
      mode,
      workspace: root,
      network: launch.network,
      anchored: [...anchored],
      readOnly,
      placeholders: placeholders.created,
      hidden,
      rebuilt: hiding.rebuilt,
      // The files a user's own hook runs are bound back in, in a hidden folder or a private /tmp alike.
      readable: [...(options.readableInDataDir === undefined ? [] : [options.readableInDataDir]), ...(launch.visible ?? []).map(resolveReal)],
      writable: [],
      stubs: options.rules === undefined ? [] : deniedProgramStubs({ rules: options.rules, folder: join(sandboxFolder, "stubs"), path: process.env["PATH"] }),
      emptyFile: emptyFileIn(sandboxFolder),
      disableUserns: probe.ok && probe.disableUserns,
    };
    // The proxy decides each host with the rules as they are then ("always allow" during the task counts at once).
    const rules = options.rules;
    const socket = launch.proxy === true && !launch.network && rules !== undefined ? proxySocketPath(sandboxFolder) : undefined;
    const proxy =
      socket !== undefined && rules !== undefined ? { server: startDomainProxy({ socketPath: socket.path, decide: (host) => decideDomain(rules.rules, host) }), bridge: bridgeProgram(sandboxFolder) } : undefined;
    // The bridge and the socket are bound in where they are (the data folder may be under the private /tmp).
    if (proxy !== undefined) plan.readable.push(proxy.bridge.script, proxy.server.socketPath);
    const release = (): string[] => {
      proxy?.server.close();
      if (socket?.bound === true) rmSync(dirname(socket.path), { recursive: true, force: true });
      placeholders.release();
      return [...restoreLinks(links), ...moveAsideCreated({ paths: audited, root, folder: join(dataDir ?? join(homedir(), ".cairn"), "refused") })];
    };
    return { plan, release, trackedSecrets: secrets.files, ...(proxy === undefined ? {} : { proxy }) };
  };

  return {
    allowEnv: options.allowEnv,
    ...environment,
    sandbox: {
      mode,
      workspace: root,
      network: options.network,
      prepare,
      sharedLoopback: () => sharedLoopbackPrefix(sandboxFolder),
      ...(options.rules === undefined ? {} : { commandNetwork: (command: string) => commandNetworkSync({ command, rules: options.rules as PermissionRules, sandboxNetwork: options.network }) }),
    },
  };
}

/** Where the proxy of one command listens: in the sandbox folder, or in a private folder under /tmp when that path is too long for a unix socket. */
function proxySocketPath(sandboxFolder: string): { path: string; bound: boolean } {
  const name = `proxy-${process.pid}-${randomBytes(4).toString("hex")}.sock`;
  const inFolder = join(sandboxFolder, name);
  if (Buffer.byteLength(inFolder) <= 100) {
    mkdirSync(sandboxFolder, { recursive: true, mode: 0o700 });
    return { path: inFolder, bound: false };
  }
  return { path: join(mkdtempSync(join(tmpdir(), "cairn-proxy-")), "proxy.sock"), bound: true };
}

/**
 * A protected path that is a link (CLAUDE.md -> AGENTS.md): the sandbox protects
 * its target, but the link itself sits in the writable workspace. When the
 * process replaced it, the replacement is moved aside and the link put back.
 * Returns what was put back.
 */
function restoreLinks(links: ReadonlyArray<{ path: string; target: string }>): string[] {
  const restored: string[] = [];
  for (const { path, target } of links) {
    try {
      if (readlinkSync(path) === target) continue;
    } catch {
      // replaced by something that is not a link, or removed
    }
    try {
      if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) renameSync(path, `${path}.cairn-refused-${Date.now()}`);
      symlinkSync(target, path);
      restored.push(`${path} (a protected link the command replaced; put back)`);
    } catch {
      continue;
    }
  }
  return restored;
}

/**
 * Protected files that did not exist when the process started and do now: moved
 * out of the workspace into cairn's data folder (nothing is lost), so that
 * nothing reads them as the project's rules or configuration. Returns a note for each.
 */
function moveAsideCreated(options: { paths: readonly string[]; root: string; folder: string }): string[] {
  const notes: string[] = [];
  for (const path of options.paths) {
    if (lstatSync(path, { throwIfNoEntry: false }) === undefined) continue;
    const target = join(options.folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}`, relative(options.root, path));
    try {
      mkdirSync(dirname(target), { recursive: true });
      renameSync(path, target);
      notes.push(`${shownFrom(options.root, path)} (created by the command; moved to ${target})`);
    } catch {
      try {
        rmSync(path, { recursive: true, force: true });
        notes.push(`${shownFrom(options.root, path)} (created by the command; removed)`);
      } catch {
        continue;
      }
    }
  }
  return notes;
}

/** For messages: a path as the user sees it from the workspace. */
export function shownFrom(root: string, path: string): string {
  return isWithin(root, path) ? relative(root, path).split(sep).join("/") : path;
}
