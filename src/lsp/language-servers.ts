/**
 * The language servers of one workspace for one task (the `LanguagePort` of
 * the tools): each server starts on demand, the first time a file it serves
 * is read, edited or asked about; a server that fails to start is not asked
 * again in this task (its reason is reported instead), one that exits is
 * started again, twice at most (the edit that finds it gone goes without
 * diagnostics and says so, the next ones have them again); `shutdown`
 * ends them all when the task ends. Nothing here ever makes a tool wait past
 * its deadline.
 */
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { EditDiagnosticsReport, EditProbe, LanguagePort, LspQuery } from "../tools/language-port.js";
import { currentDiagnostics } from "./current-diagnostics.js";
import { findImporters } from "./importers.js";
import { LanguageServer, ServerUnavailableError } from "./language-server.js";
import { countsOf, describeNewProblems, newProblems, type FileDiagnostics } from "./new-problems.js";
import { answerQuery } from "./queries.js";
import { serverSpecs, specFor, type LspSettings, type ServerSpec } from "./server-specs.js";

export interface LanguageServersOptions {
  workspace: string;
  settings?: LspSettings;
  policy: LaunchPolicy | undefined;
  /** Report new problems after edits (the `editDiagnostics` setting; default true). */
  editDiagnostics?: boolean;
  /** How long an edit waits for its diagnostics at most (default 5 s). */
  editWaitMs?: number;
  /** How long a query (definition, hover, ...) waits at most (default 30 s). */
  queryWaitMs?: number;
  /** How many importing files are checked after an edit (default 8). */
  importersChecked?: number;
}

const defaultEditWaitMs = 5_000;
/** How many times a server that exited is started again in one task. */
const maxRestarts = 2;
const startTimeoutMs = 60_000;

class DeadlinePassed extends Error {}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function diskText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

export class LanguageServers implements LanguagePort {
  private readonly specs: ServerSpec[];
  private readonly running = new Map<string, Promise<LanguageServer>>();
  private readonly started: LanguageServer[] = [];
  /** The diagnostics last seen for a file, with the text they were computed on. */
  private readonly known = new Map<string, { text: string; diagnostics: Diagnostic[] }>();
  private closed = false;
  private readonly restarts = new Map<string, number>();

  constructor(private readonly options: LanguageServersOptions) {
    this.specs = serverSpecs(options.workspace, options.settings);
  }

  serves(path: string): boolean {
    return specFor(this.specs, path) !== undefined;
  }

  /** The running servers (the bench measures their memory). */
  servers(): readonly LanguageServer[] {
    return this.started.filter((server) => server.failure === undefined);
  }

  /** The server for `spec`, started once; a failed start is final for this task, an exit is not (`afterExit`). */
  serverFor(spec: ServerSpec): Promise<LanguageServer> {
    let server = this.running.get(spec.name);
    if (server === undefined) {
      if (this.closed) return Promise.reject(new ServerUnavailableError("the task has ended"));
      server = LanguageServer.start({ spec, workspace: this.options.workspace, policy: this.options.policy, timeoutMs: startTimeoutMs }).then((started) => {
        this.started.push(started);
        if (this.closed) started.stop();
        return started;
      });
      server.catch(() => undefined);
      this.running.set(spec.name, server);
    }
    const asked = server;
    return asked.then((started) => {
      if (started.failure !== undefined) throw new ServerUnavailableError(this.afterExit(spec, asked, started.failure));
      return started;
    });
  }

  /** A server that ran and exited starts again now (for the next edit), twice at most in a task; returns the reason to report. */
  private afterExit(spec: ServerSpec, exited: Promise<LanguageServer>, failure: string): string {
    if (this.closed) return failure;
    if (this.running.get(spec.name) !== exited) return `${failure}; it is starting again`;
    const count = this.restarts.get(spec.name) ?? 0;
    if (count >= maxRestarts) return `${failure}; it exited ${count + 1} times in this task and is not started again`;
    this.restarts.set(spec.name, count + 1);
    this.running.delete(spec.name);
    this.serverFor(spec).catch(() => undefined);
    return `${failure}; it is starting again`;
  }

  noteRead(path: string): void {
    const spec = specFor(this.specs, path);
    if (spec === undefined || this.closed) return;
    void (async () => {
      const server = await this.serverFor(spec);
      const text = await diskText(path);
      if (text !== undefined) await this.diagnosticsOf(server, path, text, startTimeoutMs);
    })().catch(() => undefined);
  }

  /** Sends `text` as the file's content and returns its diagnostics (known ones when the text did not change). */
  private async diagnosticsOf(server: LanguageServer, path: string, text: string, timeoutMs: number): Promise<Diagnostic[]> {
    const known = this.known.get(path);
    if (known !== undefined && known.text === text && server.isOpen(path)) return known.diagnostics;
    const publishedBefore = server.diagnosticsOf(path)?.count ?? 0;
    await server.sync(path, text, server.spec.languageId(path));
    const diagnostics = await currentDiagnostics(server, path, { timeoutMs, publishedBefore });
    this.known.set(path, { text, diagnostics });
    return diagnostics;
  }

  beforeEdit(path: string, before: string | undefined): EditProbe | undefined {
    const spec = specFor(this.specs, path);
    if (spec === undefined || this.options.editDiagnostics === false || this.closed) return undefined;
    const waitMs = this.options.editWaitMs ?? defaultEditWaitMs;
    const deadline = Date.now() + waitMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    const baseline = (async () => {
      const server = await this.serverFor(spec);
      const importers = await findImporters({ root: this.options.workspace, target: path, extensions: spec.extensions, limit: this.options.importersChecked ?? 8 });
      const texts = new Map<string, string | undefined>([[path, before]]);
      for (const importer of importers) texts.set(importer, await diskText(importer));
      const diagnostics = new Map<string, Diagnostic[] | undefined>();
      await Promise.all(
        [...texts].map(async ([file, text]) => {
          diagnostics.set(file, text === undefined ? undefined : await this.diagnosticsOf(server, file, text, remaining()));
        }),
      );
      return { server, texts, diagnostics };
    })();
    baseline.catch(() => undefined);
    const afterEdit = async (after: string): Promise<EditDiagnosticsReport> => {
      const work = (async () => {
        const { server, texts, diagnostics } = await baseline;
        const files: FileDiagnostics[] = [];
        const display = (file: string) => relative(this.options.workspace, file) || file;
        const afterDiagnostics = await Promise.all(
          [...texts].map(async ([file, text]) => {
            const current = file === path ? after : text;
            if (current === undefined) return [];
            // An importer's text is the same, its diagnostics may not be: ask again.
            this.known.delete(file);
            return this.diagnosticsOf(server, file, current, remaining());
          }),
        );
        [...texts.keys()].forEach((file, index) => {
          files.push({ display: display(file), ...(file === path ? {} : { importerOf: display(path) }), before: diagnostics.get(file), after: afterDiagnostics[index] ?? [] });
        });
        const problems = newProblems(files);
        return { text: describeNewProblems(problems), counts: countsOf(problems) };
      })();
      work.catch(() => undefined);
      try {
        return await beforeDeadline(work, deadline);
      } catch (error) {
        const reason =
          error instanceof DeadlinePassed
            ? `the ${spec.name} language server did not finish checking within ${seconds(waitMs)}`
            : error instanceof ServerUnavailableError
              ? error.message
              : `the ${spec.name} language server failed: ${(error as Error).message}`;
        return { text: `(No diagnostics for this edit: ${reason}.)`, counts: { errors: 0, warnings: 0, unavailable: reason } };
      }
    };
    return { afterEdit };
  }

  async query(request: LspQuery): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
    const path = request.path;
    const spec = path === undefined ? undefined : specFor(this.specs, path);
    if (path !== undefined && spec === undefined)
      return { ok: false, message: `no language server serves ${relative(this.options.workspace, path) || path} (servers: ${this.specs.map((known) => known.name).join(", ") || "none"})` };
    try {
      const servers = spec !== undefined ? [await this.serverFor(spec)] : this.servers();
      if (servers.length === 0) return { ok: false, message: "no language server is running yet: give the path of a file to search from" };
      const open = async (server: LanguageServer, file: string): Promise<string | undefined> => {
        const text = await diskText(file);
        if (text !== undefined) await server.sync(file, text, server.spec.languageId(file));
        return text;
      };
      return {
        ok: true,
        text: await answerQuery({
          request,
          servers,
          workspace: this.options.workspace,
          open,
          timeoutMs: this.options.queryWaitMs ?? 30_000,
          diagnostics: (server, file, text) => this.diagnosticsOf(server, file, text, this.options.queryWaitMs ?? 30_000),
        }),
      };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Ends every server (the task is over); later calls start none. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const starting = [...this.running.values()].map((server) => server.catch(() => undefined));
    await Promise.all(starting);
    await Promise.all(this.started.map((server) => server.shutdown()));
  }
}
