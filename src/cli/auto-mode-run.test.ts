import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

/**
 * `cairn run --permission-mode auto` (issue 30): what would be asked is judged by a model
 * (here cairn's scripted server, its judge requests routed by the judge's prompt).
 */
const fixture = useCliFixture();

const write = (path: string, content = "written"): ScenarioTurn => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const command = (line: string): ScenarioTurn => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
const done: ScenarioTurn = { text: "<attempt_completion>\n<result>finished</result>\n</attempt_completion>" };
const judge = (decision: string, reason: string): ScenarioTurn => ({ text: JSON.stringify({ decision, reason }), usage: { inputTokens: 900, outputTokens: 20 } });

async function runAuto(options: { turns: ScenarioTurn[]; judgeTurns: ScenarioTurn[]; extra?: string[] }) {
  const server = await fixture.startServer({ turns: options.turns, routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: options.judgeTurns }] });
  const result = await fixture.run(["run", "--json", ...anthropicArgs(server), "--permission-mode", "auto", "--on-ask", "deny", ...(options.extra ?? []), "write the files"]);
  const events = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  // A card comes again, amended, when its call ended: each one once, as last sent.
  const byId = new Map<string, Record<string, unknown>>();
  for (const event of events) if (event["type"] === "say" && (event["say"] === "tool" || event["say"] === "command") && event["partial"] !== true) byId.set(String(event["id"]), event);
  const cards = [...byId.values()];
  const judged = cards.map((card) => (card["meta"] as Record<string, unknown>)["autoMode"]).filter((value) => value !== undefined) as Array<Record<string, unknown>>;
  const judgeRequests = server.requests.filter((request) => request.route === 0);
  const mainRequests = server.requests.filter((request) => request.route === undefined);
  const result$ = events.at(-1) ?? {};
  return { result, events, cards, judged, judgeRequests, mainRequests, summary: result$ };
}

/** Adds keys to the sandbox's user config (which keeps its own: the sandbox off, fast retries). */
async function userConfig(keys: Record<string, unknown>): Promise<void> {
  const file = join(fixture.sandbox.configDir, "cairn", "config.json");
  await writeFile(file, JSON.stringify({ ...(JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>), ...keys }));
}

const exists = async (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe("auto mode: a model judges what would be asked", { timeout: 90_000 }, () => {
  it("an edit the judge allows is written without an ask; the card and the log say why, and the judge's spending is its own line", async () => {
    const run = await runAuto({ turns: [write("out.txt"), done], judgeTurns: [judge("allow", "writing the requested file")] });
    expect(run.result.status).toBe(0);
    expect(await readFile(join(fixture.sandbox.workspace, "out.txt"), "utf8")).toBe("written\n");
    expect(run.events.filter((event) => event["type"] === "ask")).toHaveLength(0);
    expect(run.judged).toEqual([expect.objectContaining({ decision: "allow", reason: "writing the requested file", model: "claude-haiku-5-5", tokensIn: 900, tokensOut: 20 })]);
    expect(String(run.cards.find((card) => card["say"] === "tool")?.["text"])).toContain("(auto mode allowed it: writing the requested file)");
    // The judge saw the task and the action, under its own small model.
    const body = JSON.stringify(run.judgeRequests[0]?.body);
    expect(body).toContain("write the files");
    expect(body).toContain("out.txt");
    expect((run.judgeRequests[0]?.body as { model: string }).model).toBe("claude-haiku-5-5");
    expect(run.summary["autoMode"]).toEqual(expect.objectContaining({ judged: 1, allowed: 1, tokensIn: 900, tokensOut: 20 }));
    // The task log holds the judgement on the card.
    const show = await fixture.run(["show", String(run.summary["taskId"]), "--json"]);
    expect(show.stdout).toMatch(/"decision": ?"allow"/);
  });

  it("the judge's requests carry no known secret: they are redacted like every other request", async () => {
    const secret = "s3cr3t-deploy-value-0123456789";
    fixture.sandbox.env["DEPLOY_TOKEN"] = secret;
    const run = await runAuto({ turns: [write("deploy.txt", `token=${secret}`), done], judgeTurns: [judge("deny", "a secret in a file")] });
    const body = JSON.stringify(run.judgeRequests[0]?.body);
    expect(body).toContain("deploy.txt");
    expect(body).not.toContain(secret);
    expect(body).toContain("[REDACTED]");
  });

  it("the judge's ask is a real ask: headless with --on-ask deny it is refused and nothing is written", async () => {
    const run = await runAuto({ turns: [write("out.txt"), done], judgeTurns: [judge("ask", "the user should confirm this file")] });
    expect(run.result.status).toBe(0);
    expect(await exists(join(fixture.sandbox.workspace, "out.txt"))).toBe(false);
    expect(run.events.filter((event) => event["type"] === "ask")).toHaveLength(1);
    expect(run.judged).toEqual([expect.objectContaining({ decision: "ask", reason: "the user should confirm this file" })]);
  });

  it("the judge's deny refuses the action and tells the model why", async () => {
    const run = await runAuto({ turns: [write("out.txt"), done], judgeTurns: [judge("deny", "not part of the task")] });
    expect(await exists(join(fixture.sandbox.workspace, "out.txt"))).toBe(false);
    expect(run.events.filter((event) => event["type"] === "ask")).toHaveLength(0);
    expect(JSON.stringify(run.mainRequests[1]?.body)).toContain("auto mode refused it: not part of the task");
    expect(run.summary["autoMode"]).toEqual(expect.objectContaining({ judged: 1, denied: 1 }));
  });

  it("a malformed answer fails closed: headless, the action is refused and says why", async () => {
    const run = await runAuto({ turns: [write("out.txt"), done], judgeTurns: [{ text: "Sure, go ahead!" }] });
    expect(await exists(join(fixture.sandbox.workspace, "out.txt"))).toBe(false);
    expect(run.judged).toEqual([expect.objectContaining({ decision: "ask", failed: true })]);
    expect(String(run.judged[0]?.["reason"])).toContain('gave no valid decision (it answered "Sure, go ahead!")');
    expect(JSON.stringify(run.mainRequests[1]?.body)).toContain("refused, since nobody can answer here");
  });

  it("a judge that does not answer in time fails closed", async () => {
    await userConfig({ autoMode: { timeoutMs: 400 } });
    const run = await runAuto({ turns: [write("out.txt"), done], judgeTurns: [{ text: judge("allow", "late").text ?? "", stallAfterChunks: 0 }] });
    expect(await exists(join(fixture.sandbox.workspace, "out.txt"))).toBe(false);
    expect(String(run.judged[0]?.["reason"])).toContain("did not answer within 0.4 s");
    expect(run.judged[0]?.["failed"]).toBe(true);
  });

  it("over its own budget the judge is not asked again: the next action fails closed", async () => {
    await userConfig({ autoMode: { maxTokens: 500 } });
    const run = await runAuto({ turns: [write("a.txt"), write("b.txt"), done], judgeTurns: [judge("allow", "first file")] });
    expect(await exists(join(fixture.sandbox.workspace, "a.txt"))).toBe(true);
    expect(await exists(join(fixture.sandbox.workspace, "b.txt"))).toBe(false);
    expect(run.judgeRequests).toHaveLength(1);
    expect(String(run.judged[1]?.["reason"])).toContain("over its budget (920 of 500 tokens spent)");
    expect(run.summary["autoMode"]).toEqual(expect.objectContaining({ judged: 2, allowed: 1, failed: 1 }));
  });

  it("never lifts a deny rule or a protected path: the judge is not even asked", async () => {
    await writeFile(join(fixture.sandbox.workspace, "victim.txt"), "keep");
    await mkdir(join(fixture.sandbox.workspace, "sub"), { recursive: true });
    const run = await runAuto({
      turns: [command("rm victim.txt"), write("AGENTS.md", "obey me"), done],
      judgeTurns: [judge("allow", "should never be asked")],
      extra: ["--disallowed-tools", "Bash(rm:*)"],
    });
    expect(run.judgeRequests).toHaveLength(0);
    expect(await readFile(join(fixture.sandbox.workspace, "victim.txt"), "utf8")).toBe("keep");
    expect(await exists(join(fixture.sandbox.workspace, "AGENTS.md"))).toBe(false);
    expect(run.judged).toHaveLength(0);
  });

  it("a subagent's asks are judged too, on the parent's judge: its command runs and its work is merged without an ask", async () => {
    const server = await fixture.startServer({
      turns: [{ text: 'Delegating.\n<use_subagents>\n<subagents>[{"prompt":"CHILD: make the file"}]</subagents>\n</use_subagents>' }, done],
      conversations: [{ match: "CHILD:", turns: [command("touch made-by-child.txt"), { text: "<attempt_completion>\n<result>made the file</result>\n</attempt_completion>" }] }],
      routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: [judge("allow", "a harmless computation"), judge("allow", "the child's work")] }],
    });
    const result = await fixture.run(["run", "--json", ...anthropicArgs(server), "--permission-mode", "auto", "--on-ask", "deny", "delegate the file"]);
    expect(result.status, result.stderr).toBe(0);
    const events = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const childCommand = events.filter((event) => event["say"] === "command" && event["subagentId"] !== undefined && event["partial"] !== true).at(-1);
    expect((childCommand?.["meta"] as Record<string, unknown> | undefined)?.["autoMode"]).toMatchObject({ decision: "allow", reason: "a harmless computation" });

    expect(events.filter((event) => event["type"] === "ask")).toHaveLength(0);
    expect(JSON.stringify(events)).toContain("made the file");
    // The merge of its work into the workspace was judged as well, and done.
    expect(server.requests.filter((request) => request.route === 0)).toHaveLength(2);
    expect(await exists(join(fixture.sandbox.workspace, "made-by-child.txt"))).toBe(true);
  });
});
