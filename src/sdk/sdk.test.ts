import { existsSync, readFileSync, readdirSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { startScriptedServer, type ScriptedServer } from "../llm/scripted/server.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { TaskStore } from "../store/task-store.js";
import { everythingEntry } from "../mcp/test-support/servers.js";
import { JsonEventReader } from "../ui/headless/json-events-reader.js";
import { z } from "zod";
import { ConfigError, InvalidCustomToolError, TaskNotFoundError, listTasks, readTask, resumeTask, startTask, tool, type CairnEvent, type TaskOptions } from "./index.js";

const schema = JSON.parse(readFileSync(new URL("../../docs/json-events.schema.json", import.meta.url), "utf8")) as object;
const validate = new Ajv2020({ strict: false }).compile(schema);

const servers: ScriptedServer[] = [];
const folders: Array<{ remove(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const folder of folders.splice(0)) await folder.remove();
});

const write = (path: string, content: string): string => `<write_to_file><path>${path}</path><content>${content}</content></write_to_file>`;
const complete = (result: string): string => `<attempt_completion><result>${result}</result></attempt_completion>`;

/** A workspace, a data folder and a home of its own, and the scripted model over real HTTP. */
async function setUp(turns: Scenario["turns"], extra: Partial<Scenario> = {}): Promise<{ server: ScriptedServer; options: TaskOptions & { cwd: string; dataDir: string } }> {
  const folder = await temporaryFolder("cairn-sdk-");
  folders.push(folder);
  const root = folder.path;
  const cwd = join(root, "workspace");
  await mkdir(cwd, { recursive: true });
  const server = await startScriptedServer({ scenario: { model: "claude-sonnet-4-5", turns, ...extra } });
  servers.push(server);
  const home = join(root, "home");
  return {
    server,
    options: {
      cwd,
      dataDir: join(root, "data"),
      provider: "anthropic",
      apiKey: "test-key",
      baseUrl: server.url,
      sandbox: "off",
      env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CLAUDE_CONFIG_DIR: join(home, ".claude"), PATH: process.env["PATH"] ?? "" },
    },
  };
}

async function collect(task: AsyncIterable<CairnEvent>): Promise<CairnEvent[]> {
  const events: CairnEvent[] = [];
  for await (const event of task) events.push(event);
  return events;
}

/** The command line of every process of this machine (for finding one that should have ended). */
function runningCommandLines(): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      } catch {
        return "";
      }
    });
}

const requestText = (server: ScriptedServer, index: number): string => JSON.stringify(server.requests[index]?.body ?? "");

describe("the SDK", () => {
  it("streams a task's events in the --json format (schema-valid, result last) and the file lands on disk, printing nothing", async () => {
    const { options } = await setUp([{ text: `Writing it.\n${write("hello.txt", "hi\n")}` }, { text: complete("Wrote hello.txt.") }]);
    const stdout = vi.spyOn(process.stdout, "write");
    const stderr = vi.spyOn(process.stderr, "write");
    const task = startTask("Write hello.txt", { ...options, permissionMode: "acceptEdits" });
    const events = await collect(task);
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    stdout.mockRestore();
    stderr.mockRestore();
    for (const event of events) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "result", status: "completed", exitStatus: 0, turns: 2, refused: 0, taskId: await task.taskId() });
    expect(await task.result).toEqual(last);
    const reader = new JsonEventReader();
    for (const event of events) reader.push(event as unknown as Record<string, unknown>);
    const said = [...reader.messages.values()].map((message) => `${message.say ?? message.ask}: ${message.text}`);
    expect(said).toContain("text: Writing it.");
    expect(said).toContain("completion_result: Wrote hello.txt.");
    expect(await readFile(join(options.cwd, "hello.txt"), "utf8")).toBe("hi\n");
  });

  it("canUseTool decides approvals in code: a denied write does not happen and counts as refused", async () => {
    const { options, server } = await setUp([{ text: write("secret.txt", "no\n") }, { text: complete("Gave up.") }]);
    const asked: string[] = [];
    const task = startTask("Write secret.txt", {
      ...options,
      canUseTool: ({ toolName, input }) => {
        asked.push(`${toolName} ${String(input["path"])}`);
        return { behavior: "deny", message: "not this file" };
      },
    });
    const result = await task.result;
    expect(asked).toEqual(["write_to_file secret.txt"]);
    expect(existsSync(join(options.cwd, "secret.txt"))).toBe(false);
    expect(result).toMatchObject({ status: "completed", refused: 1 });
    expect(requestText(server, 1)).toContain("not this file");
  });

  it("an ask waits for task.answer under unansweredAsks wait; by default a command nobody approves is refused", async () => {
    const { options } = await setUp([{ text: write("a.txt", "A\n") }, { text: complete("Done.") }]);
    const task = startTask("Write a.txt", { ...options, unansweredAsks: "wait" });
    const kinds: string[] = [];
    for await (const event of task) {
      if (event.type === "ask" && !("delta" in event) && !event.partial) {
        kinds.push(event.ask);
        expect(task.answer(event.id, "yes")).toBe(true);
        expect(task.answer(event.id, "yes")).toBe(false);
      }
    }
    expect(kinds).toEqual(["tool"]);
    expect(await readFile(join(options.cwd, "a.txt"), "utf8")).toBe("A\n");

    const second = await setUp([{ text: "<execute_command><command>npm install left-pad && touch ran.txt</command><requires_approval>true</requires_approval></execute_command>" }, { text: complete("Could not.") }]);
    const refused = await startTask("Touch a file", second.options).result;
    expect(refused).toMatchObject({ status: "completed", refused: 1 });
    expect(existsSync(join(second.options.cwd, "ran.txt"))).toBe(false);
  });

  it("a message sent while the task works reaches the model with the next request; appendSystemPrompt reaches the system prompt", async () => {
    const { options, server } = await setUp([{ text: write("one.txt", "1\n"), delayMs: 150 }, { text: complete("Done.") }]);
    const task = startTask("Write one.txt", { ...options, permissionMode: "bypassPermissions", appendSystemPrompt: "Always answer in haiku." });
    let sent = false;
    for await (const event of task) {
      if (!sent && event.type === "say" && event.say === "tool") {
        task.send("Also mention the weather.");
        sent = true;
      }
    }
    expect((await task.result).status).toBe("completed");
    expect(requestText(server, 0)).toContain("Always answer in haiku.");
    expect(requestText(server, 1)).toContain("Also mention the weather.");
  });

  it("abort stops the task as aborted (resumable); resumeTask continues it with a prompt; readTask and listTasks read it back", async () => {
    const slow = await setUp([{ text: `Thinking about it for a long while. ${"word ".repeat(400)}`, delayMs: 20, chunkSize: 8 }]);
    const task = startTask("A long task", slow.options);
    for await (const event of task) if (event.type === "say" && event.say === "text") task.abort();
    const aborted = await task.result;
    expect(aborted).toMatchObject({ status: "aborted", exitStatus: 130 });
    const taskId = await task.taskId();

    const server = await startScriptedServer({ scenario: { model: "claude-sonnet-4-5", turns: [{ text: complete("Finished after the resume.") }] } });
    servers.push(server);
    const resumed = resumeTask(taskId.slice(0, 22), { ...slow.options, baseUrl: server.url, prompt: "Please finish now." });
    expect((await resumed.result).status).toBe("completed");
    expect(await resumed.taskId()).toBe(taskId);
    expect(requestText(server, 0)).toContain("Please finish now.");

    const record = await readTask(taskId, { dataDir: slow.options.dataDir });
    expect(record).toMatchObject({ taskId, task: "A long task", status: "completed" });
    expect(record.messages.map((message) => message.text)).toEqual(expect.arrayContaining(["Please finish now.", "Finished after the resume."]));
    expect((await listTasks({ dataDir: slow.options.dataDir })).map((row) => row.taskId)).toEqual([taskId]);
  });

  it("leaving the loop early aborts the task: its command is ended, the log says aborted, the result has settled when the loop is left", async () => {
    const sleeper = `sleep ${3000 + Math.floor(Math.random() * 900)}`;
    const command = `echo started-marker; ${sleeper}`;
    const { options } = await setUp([{ text: `<execute_command><command>${command}</command><requires_approval>false</requires_approval></execute_command>` }, { text: complete("Never reached.") }]);
    const task = startTask("Run the long command", { ...options, canUseTool: () => ({ behavior: "allow" }) });
    let settled = false;
    void task.result.then(() => (settled = true));
    for await (const event of task) if ("text" in event && event.type === "say" && event.say === "command_output" && event.text.includes("started-marker")) break;
    expect(settled).toBe(true);
    expect(await task.result).toMatchObject({ status: "aborted", exitStatus: 130 });
    expect(runningCommandLines().filter((line) => line.includes(sleeper))).toEqual([]);
    expect((await readTask(await task.taskId(), { dataDir: options.dataDir })).status).toBe("aborted");
    // One reader per task: a second one cannot be left behind by the first one's leaving.
    expect(() => task[Symbol.asyncIterator]()).toThrow(/iterated once/);
  });

  it("return() on the iterator aborts like break; leaving after the task ended changes nothing", async () => {
    const slow = await setUp([{ text: `Thinking about it for a long while. ${"word ".repeat(400)}`, delayMs: 20, chunkSize: 8 }]);
    const task = startTask("A long task", slow.options);
    const iterator = task[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    expect(await iterator.return?.()).toEqual({ value: undefined, done: true });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    expect((await task.result).status).toBe("aborted");

    const quick = await setUp([{ text: complete("Done at once.") }]);
    const finished = startTask("A short task", quick.options);
    let last: CairnEvent | undefined;
    for await (const event of finished) {
      last = event;
      if (event.type === "result") break;
    }
    expect(last).toMatchObject({ type: "result", status: "completed" });
    expect((await finished.result).status).toBe("completed");
  });

  it("commands start from the env the caller gives, with its secret-looking variables left out", async () => {
    const command = 'echo "probe=$CAIRN_SDK_PROBE home=$HOME token=[$DEPLOY_TOKEN]"';
    const { options, server } = await setUp([{ text: `<execute_command><command>${command}</command><requires_approval>false</requires_approval></execute_command>` }, { text: complete("Done.") }]);
    const env = { ...options.env, CAIRN_SDK_PROBE: "from-the-caller", DEPLOY_TOKEN: "s3cr3t-value-123456" };
    const result = await startTask("Show the environment", { ...options, env, canUseTool: () => ({ behavior: "allow" }) }).result;
    expect(result.status).toBe("completed");
    const fed = requestText(server, 1);
    expect(fed).toContain("probe=from-the-caller");
    expect(fed).toContain(`home=${options.env!["HOME"]}`);
    expect(fed).toContain("token=[]");
    expect(fed).not.toContain("s3cr3t-value-123456");
  });

  it("listTasks lists the data folder's tasks newest first", async () => {
    const folder = await temporaryFolder("cairn-sdk-list-");
    folders.push(folder);
    const dataDir = folder.path;
    const store = new TaskStore({ dataDir });
    await (await store.create({ task: "the older task", workspace: dataDir, createdAt: 1_000_000 })).close();
    await (await store.create({ task: "the newer task", workspace: dataDir, createdAt: 2_000_000 })).close();
    expect((await listTasks({ dataDir })).map((row) => row.title)).toEqual(["the newer task", "the older task"]);
    expect((await listTasks({ dataDir, limit: 1 })).map((row) => row.title)).toEqual(["the newer task"]);
  });

  it("budgets stop the task with the budget status; bad options and unknown tasks are typed errors", async () => {
    const { options } = await setUp([{ text: write("b.txt", "B\n") }, { text: complete("Done.") }]);
    const budget = await startTask("Write b.txt", { ...options, permissionMode: "bypassPermissions", budget: { maxRequests: 1 } }).result;
    expect(budget).toMatchObject({ status: "budget", exitStatus: 3 });

    const badProvider = startTask("x", { ...options, provider: "nope" as never });
    await expect(badProvider.result).rejects.toBeInstanceOf(ConfigError);
    await expect(collect(badProvider)).rejects.toBeInstanceOf(ConfigError);
    await expect(resumeTask("no-such-task", options).result).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("a custom tool defined with zod is offered and run in both tool protocols; two tools of one name are refused", async () => {
    const tickets = new Map([["PROJ-12", "Login fails on Safari"]]);
    const lookup = tool({
      name: "lookup_ticket",
      description: "Look up a ticket's title by its id",
      inputSchema: { id: z.string().describe("the ticket id"), verbose: z.boolean().optional() },
      readOnly: true,
      run: ({ id }) => tickets.get(id) ?? { content: `no ticket ${id}`, isError: true },
    });
    for (const protocol of ["xml", "native"] as const) {
      const call = protocol === "xml" ? { text: "<lookup_ticket>\n<id>PROJ-12</id>\n</lookup_ticket>" } : { toolCalls: [{ name: "lookup_ticket", arguments: { id: "PROJ-12" } }] };
      const { options, server } = await setUp([call, protocol === "xml" ? { text: complete("Safari login.") } : { toolCalls: [{ name: "attempt_completion", arguments: { result: "Safari login." } }] }]);
      const result = await startTask("What is PROJ-12 about?", { ...options, toolProtocol: protocol, tools: [lookup] }).result;
      expect(result.status).toBe("completed");
      expect(requestText(server, 1)).toContain("Login fails on Safari");
      if (protocol === "native") expect(requestText(server, 0)).toContain('"lookup_ticket"');
      else expect(requestText(server, 0)).toContain("## lookup_ticket");
    }
    // A tool that changes things is asked, under its own name; denied, it does not run.
    let filed = 0;
    const fileTicket = tool({ name: "file_ticket", description: "File a new ticket", inputSchema: { title: z.string() }, run: () => `filed ${++filed}` });
    const asking = await setUp([{ text: "<file_ticket>\n<title>Crash</title>\n</file_ticket>" }, { text: complete("Not filed.") }]);
    const names: string[] = [];
    const denied = await startTask("File a crash ticket", { ...asking.options, tools: [fileTicket], canUseTool: ({ toolName }) => (names.push(toolName), { behavior: "deny" }) }).result;
    expect(names).toEqual(["file_ticket"]);
    expect(filed).toBe(0);
    expect(denied.refused).toBe(1);

    const { options } = await setUp([]);
    await expect(startTask("x", { ...options, tools: [lookup, lookup] }).result).rejects.toBeInstanceOf(InvalidCustomToolError);
  });

  it("an MCP server given in the options is started and its tool used; canUseTool decides its approval; a message sent meanwhile has its @server:uri attached", async () => {
    const echo = `<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>${JSON.stringify({ message: "hi from the program" })}</arguments>\n</use_mcp_tool>`;
    const { options, server } = await setUp([{ text: echo }, { text: complete("Echoed.") }]);
    const asked: string[] = [];
    const task = startTask("Echo through MCP", {
      ...options,
      mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } },
      canUseTool: ({ ask, toolName }) => {
        asked.push(`${ask.ask} ${toolName}`);
        return { behavior: "allow" };
      },
    });
    task.send("also read @everything:demo://resource/static/document/features.md");
    const result = await task.result;
    expect(result.status).toBe("completed");
    expect(asked).toEqual(["use_mcp_server mcp__everything__echo"]);
    expect(requestText(server, 1)).toContain("hi from the program");
    const withMessage = [0, 1].map((index) => requestText(server, index)).find((text) => text.includes("also read"));
    expect(withMessage).toContain('<mcp_resource server=\\"everything\\" uri=\\"demo://resource/static/document/features.md\\">');
  });
});
