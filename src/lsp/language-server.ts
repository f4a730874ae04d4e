/**
 * One language server process, spoken to over the Language Server Protocol on
 * its stdio (vscode-jsonrpc). It starts through cairn's launch policy, so it
 * runs in the sandbox like every child process; it never blocks its caller:
 * every request has a deadline, and a server that exits is marked dead with
 * its reason (waiters are released at once).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type * as ProtocolModule from "vscode-languageserver-protocol/node";
import { launchProcess, type LaunchPolicy } from "../security/process-launch.js";
import type { ServerSpec } from "./server-specs.js";

type Protocol = typeof ProtocolModule;
type Connection = ReturnType<Protocol["createProtocolConnection"]>;

/** What the server published for one file, and how many times it published it. */
export interface PublishedDiagnostics {
  count: number;
  items: Diagnostic[];
}

export class ServerUnavailableError extends Error {}

export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

const shutdownWaitMs = 1_500;

export class LanguageServer {
  private dead: string | undefined;
  private readonly published = new Map<string, PublishedDiagnostics>();
  private readonly listeners = new Set<() => void>();
  private readonly documents = new Map<string, { version: number; text: string }>();
  private stderrTail = "";
  /** The server answers `textDocument/diagnostic` (declared at start or registered later). */
  pullsDiagnostics = false;

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcess,
    private readonly connection: Connection,
    private readonly releaseLaunch: () => void,
  ) {}

  /** Starts the server and completes the initialize handshake within `timeoutMs`. */
  static async start(options: { spec: ServerSpec; workspace: string; policy: LaunchPolicy | undefined; timeoutMs: number }): Promise<LanguageServer> {
    const { spec, workspace } = options;
    const protocol = await import("vscode-languageserver-protocol/node");
    const launch = launchProcess({ policy: options.policy, program: spec.command[0] ?? "", args: spec.command.slice(1), cwd: workspace, longLived: true, network: false });
    const child = spawn(launch.file, launch.args, { cwd: workspace, env: launch.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const connection = protocol.createProtocolConnection(new protocol.StreamMessageReader(child.stdout), new protocol.StreamMessageWriter(child.stdin));
    const server = new LanguageServer(spec, child, connection, () => void launch.release());
    server.watch(protocol);
    connection.listen();
    try {
      const initialized = await server.withDeadline<{ capabilities?: { diagnosticProvider?: unknown } }>(
        connection.sendRequest("initialize", {
          // Not cairn's pid: in the sandbox's own pid namespace the server would find no such process and exit
          // (servers end when their client's process is gone). cairn ends its servers itself, and bubblewrap with it.
          processId: null,
          rootUri: fileUri(workspace),
          workspaceFolders: [{ uri: fileUri(workspace), name: "workspace" }],
          initializationOptions: spec.initializationOptions ?? {},
          capabilities: {
            workspace: { configuration: true, workspaceFolders: true, symbol: {} },
            textDocument: {
              synchronization: { didSave: true },
              publishDiagnostics: { relatedInformation: false, versionSupport: true },
              definition: {},
              references: {},
              hover: { contentFormat: ["plaintext", "markdown"] },
              documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            },
          },
        }),
        options.timeoutMs,
        "start",
      );
      if (initialized.capabilities?.diagnosticProvider !== undefined) server.pullsDiagnostics = true;
      await connection.sendNotification("initialized", {});
    } catch (error) {
      server.stop();
      throw error;
    }
    return server;
  }

  private watch(protocol: Protocol): void {
    const { connection, child } = this;
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-2_000);
    });
    child.on("exit", (code, signal) => this.markDead(`the ${this.spec.name} server exited (${signal ?? `status ${code ?? "unknown"}`})${this.lastWords()}`));
    child.on("error", (error) => this.markDead(`the ${this.spec.name} server could not start: ${error.message}`));
    child.stdin?.on("error", () => undefined);
    connection.onError(() => undefined);
    // The process's exit says more (its status, its last words); a connection closed by a process that lingers is dead too.
    connection.onClose(() => setTimeout(() => this.markDead(`the ${this.spec.name} server closed its connection${this.lastWords()}`), 300).unref());
    connection.onNotification(protocol.PublishDiagnosticsNotification.type, (params: PublishDiagnosticsParams) => {
      const previous = this.published.get(params.uri);
      this.published.set(params.uri, { count: (previous?.count ?? 0) + 1, items: params.diagnostics });
      for (const listener of this.listeners) listener();
    });
    connection.onRequest("workspace/configuration", (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
    connection.onRequest("client/registerCapability", (params: { registrations?: Array<{ method?: string }> }) => {
      if ((params.registrations ?? []).some((registration) => registration.method === "textDocument/diagnostic")) this.pullsDiagnostics = true;
      return null;
    });
    connection.onRequest("client/unregisterCapability", () => null);
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.onRequest("window/showMessageRequest", () => null);
    connection.onRequest("workspace/workspaceFolders", () => []);
  }

  /** The last line the server wrote on its standard error, to say why it ended. */
  private lastWords(): string {
    const said = this.stderrTail.trim().split("\n").at(-1)?.trim() ?? "";
    return said === "" ? "" : `: ${said.slice(0, 300)}`;
  }

  private markDead(reason: string): void {
    if (this.dead !== undefined) return;
    this.dead = reason;
    for (const listener of this.listeners) listener();
  }

  /** Why the server cannot be used (undefined while it runs). */
  get failure(): string | undefined {
    return this.dead;
  }

  /** The last lines the server wrote on its standard error (for reports). */
  get stderr(): string {
    return this.stderrTail;
  }

  /** The process id of the server's process (its resident memory is measured through it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  diagnosticsOf(path: string): PublishedDiagnostics | undefined {
    return this.published.get(fileUri(path));
  }

  /** Calls `listener` whenever diagnostics arrive or the server dies; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isOpen(path: string): boolean {
    return this.documents.has(path);
  }

  /** Opens `path` with `text`, or sends the new text when it changed; returns whether anything was sent. */
  async sync(path: string, text: string, languageId: string): Promise<boolean> {
    if (this.dead !== undefined) throw new ServerUnavailableError(this.dead);
    const uri = fileUri(path);
    const open = this.documents.get(path);
    if (open === undefined) {
      this.documents.set(path, { version: 1, text });
      await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
      return true;
    }
    if (open.text === text) return false;
    const version = open.version + 1;
    this.documents.set(path, { version, text });
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
    await this.connection.sendNotification("textDocument/didSave", { textDocument: { uri } });
    return true;
  }

  /** A request with a deadline; rejects with ServerUnavailableError when the server is dead or too slow. */
  async request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    if (this.dead !== undefined) throw new ServerUnavailableError(this.dead);
    return this.withDeadline<T>(this.connection.sendRequest(method, params), timeoutMs, method);
  }

  private async withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe: () => void = () => undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServerUnavailableError(`the ${this.spec.name} server did not answer ${what} within ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs);
      unsubscribe = this.onChange(() => {
        if (this.dead !== undefined) reject(new ServerUnavailableError(this.dead));
      });
    });
    try {
      return await Promise.race([promise, stopped]);
    } finally {
      clearTimeout(timer);
      unsubscribe();
    }
  }

  /** Asks the server to shut down, then ends its process group whatever it does. */
  async shutdown(): Promise<void> {
    if (this.dead === undefined) {
      try {
        await this.request("shutdown", null, shutdownWaitMs);
        await this.connection.sendNotification("exit");
      } catch {
        // A server that does not answer is ended below.
      }
    }
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else this.child.once("exit", () => resolve());
    });
    const timer = setTimeout(() => this.stop(), shutdownWaitMs);
    await exited;
    clearTimeout(timer);
    this.stop();
  }

  /** Ends the process group at once (the server's own children, such as tsserver, with it). */
  stop(): void {
    this.markDead(`the ${this.spec.name} server was stopped`);
    const pid = this.child.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    this.connection.dispose();
    this.releaseLaunch();
  }
}
