/**
 * A real ACP client (the SDK's client side) driving a real `cairn acp` child
 * process, for end-to-end tests. It records every update, answers permission
 * requests from a script, and can offer the editor's file system (an
 * in-memory overlay of unsaved buffers) and terminals (real `sh` processes).
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import type { ClientConnection, ClientContext, PromptResponse, RequestPermissionRequest, RequestPermissionResponse, SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { cairnBin } from "../../cli/test-support/cli-harness.js";

export type PermissionAnswer = "allow_once" | "allow_always" | "reject_once" | "cancelled";

interface ClientTerminal {
  command: string;
  args: string[];
  process: ChildProcess;
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

export interface AcpTestClient {
  child: ChildProcess;
  agent: ClientContext;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  /** Paths the agent read and wrote through the editor. */
  fsReads: string[];
  fsWrites: Array<{ path: string; content: string }>;
  /** Unsaved editor buffers: reads see these before the disk. */
  buffers: Map<string, string>;
  terminals: Map<string, ClientTerminal>;
  /** Terminal ids the agent released. */
  released: string[];
  stderr(): string;
  /** Updates of one kind, in order. */
  updatesOf<K extends SessionUpdate["sessionUpdate"]>(kind: K): Array<Extract<SessionUpdate, { sessionUpdate: K }>>;
  /** Text of every chunk of one kind, joined. */
  text(kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk"): string;
  /** Resolves once an update satisfies `test`. */
  waitForUpdate(test: (update: SessionUpdate) => boolean, timeoutMs?: number): Promise<SessionUpdate>;
  initialize(): Promise<void>;
  newSession(cwd: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<PromptResponse>;
  close(): Promise<number>;
}

export function startAcpClient(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Answers permission requests in order; "allow_once" once the script runs out. */
  permissions?: PermissionAnswer[];
  fs?: boolean;
  terminal?: boolean;
}): AcpTestClient {
  const child = spawn(process.execPath, [cairnBin, "acp", ...options.args], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (data: string) => {
    stderr += data;
  });
  const exited = new Promise<number>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGKILL" ? 137 : 128))));
  const answers = [...(options.permissions ?? [])];
  const updates: SessionNotification[] = [];
  const watchers = new Set<() => void>();
  const terminals = new Map<string, ClientTerminal>();
  let terminalCount = 0;
  const result: Partial<AcpTestClient> = {
    child,
    updates,
    permissionRequests: [],
    fsReads: [],
    fsWrites: [],
    buffers: new Map(),
    terminals,
    released: [],
  };
  const self = result as AcpTestClient;

  const app = client({ name: "cairn-test-client" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const watcher of [...watchers]) watcher();
    })
    .onRequest("session/request_permission", ({ params }): RequestPermissionResponse => {
      self.permissionRequests.push(params);
      const answer = answers.shift() ?? "allow_once";
      return answer === "cancelled" ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: answer } };
    });
  if (options.fs === true) {
    app
      .onRequest("fs/read_text_file", async ({ params }) => {
        self.fsReads.push(params.path);
        const buffer = self.buffers.get(params.path);
        return { content: buffer ?? (await readFile(params.path, "utf8")) };
      })
      .onRequest("fs/write_text_file", ({ params }) => {
        self.fsWrites.push({ path: params.path, content: params.content });
        self.buffers.set(params.path, params.content);
        return {};
      });
  }
  if (options.terminal === true) {
    app
      .onRequest("terminal/create", ({ params }) => {
        terminalCount += 1;
        const id = `term-${terminalCount}`;
        const spawned = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? options.cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
        const terminal: ClientTerminal = {
          command: params.command,
          args: params.args ?? [],
          process: spawned,
          output: "",
          exit: new Promise((resolve) => spawned.on("exit", (exitCode, signal) => resolve({ exitCode, signal }))),
        };
        for (const stream of [spawned.stdout, spawned.stderr]) stream?.on("data", (data: Buffer) => (terminal.output += data.toString("utf8")));
        terminals.set(id, terminal);
        return { terminalId: id };
      })
      .onRequest("terminal/output", ({ params }) => ({ output: terminals.get(params.terminalId)?.output ?? "", truncated: false }))
      .onRequest("terminal/wait_for_exit", async ({ params }) => {
        const terminal = terminals.get(params.terminalId);
        if (terminal === undefined) return {};
        const exit = await terminal.exit;
        // Let the pipes drain so the output is complete.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return exit;
      })
      .onRequest("terminal/kill", ({ params }) => {
        const pid = terminals.get(params.terminalId)?.process.pid;
        if (pid !== undefined) {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
        return {};
      })
      .onRequest("terminal/release", ({ params }) => {
        self.released.push(params.terminalId);
        return {};
      });
  }

  const connection: ClientConnection = app.connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));

  Object.assign(result, {
    agent: connection.agent,
    stderr: () => stderr,
    updatesOf: (kind: string) => updates.map((notification) => notification.update).filter((update) => update.sessionUpdate === kind),
    text: (kind: string) =>
      updates
        .map((notification) => notification.update)
        .flatMap((update) => {
          if (update.sessionUpdate !== kind || !("content" in update)) return [];
          const content: unknown = update.content;
          return typeof content === "object" && content !== null && "text" in content && typeof content.text === "string" ? [content.text] : [];
        })
        .join(""),
    waitForUpdate: (test: (update: SessionUpdate) => boolean, timeoutMs = 20_000) =>
      new Promise<SessionUpdate>((resolve, reject) => {
        const check = (): boolean => {
          const found = updates.map((notification) => notification.update).find(test);
          if (found === undefined) return false;
          watchers.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`no matching update within ${timeoutMs} ms; stderr:\n${stderr}`));
        }, timeoutMs);
        if (!check()) watchers.add(check);
      }),
    initialize: async () => {
      await connection.agent.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: options.fs === true, writeTextFile: options.fs === true }, terminal: options.terminal === true },
        clientInfo: { name: "cairn-test-client", version: "1.0.0" },
      });
    },
    newSession: async (cwd: string) => (await connection.agent.request("session/new", { cwd, mcpServers: [] })).sessionId,
    prompt: (sessionId: string, text: string) => connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }),
    close: async () => {
      connection.close();
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const status = await exited;
      clearTimeout(timer);
      for (const terminal of terminals.values()) terminal.process.kill("SIGKILL");
      return status;
    },
  });
  return self;
}
