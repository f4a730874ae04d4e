import { afterEach, describe, expect, it } from "vitest";
import { createProvider } from "../../llm/create-provider.js";
import { startScriptedServer, type ScriptedServer } from "../../llm/scripted/server.js";
import type { ScenarioTurn } from "../../llm/scripted/scenario.js";
import type { Message } from "../../llm/types.js";
import { PermissionRules, rulesFromBlock } from "../../security/permission-rules.js";
import { ApprovalPolicy, defaultApprovalSettings } from "../approval.js";
import { createRecordingContext } from "../test-support/recording-context.js";
import { ModelJudge } from "./model-judge.js";

/** Auto mode where a person can answer (the terminal UI, an editor): the judge against cairn's scripted server over HTTP. */
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "<task>\nrename the helper in src/util.ts\n</task>" }] },
  { role: "assistant", content: [{ type: "text", text: "I will look at the file first." }] },
];

async function policyWith(judgeTurns: ScenarioTurn[], rules?: PermissionRules): Promise<ApprovalPolicy> {
  server = await startScriptedServer({ scenario: { turns: [], routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: judgeTurns }] } });
  const provider = await createProvider({ provider: "anthropic", apiKey: "test-key", baseUrl: server.url, model: "claude-haiku-5-5" });
  const judge = new ModelJudge({ provider, conversation: () => ({ task: "rename the helper in src/util.ts", history }), headless: false, maxTokens: 10_000, timeoutMs: 2000 });
  return new ApprovalPolicy({ settings: defaultApprovalSettings, yes: false, allowOutsideWrites: false, judge, ...(rules === undefined ? {} : { rules }) });
}

const edit = { kind: "edit" as const, inside: true, path: "src/util.ts" };
const presentation = { key: "k", text: "src/util.ts", meta: { tool: "write_to_file" as const, path: "src/util.ts", diff: "-old\n+new" } };

describe("auto mode with someone to ask", () => {
  it("a judge that fails hands the decision to the user: the ask says why, and the user's yes runs it", async () => {
    const policy = await policyWith([{ error: { status: 500 } }]);
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const decision = await policy.approve({ request: edit, context, presentation });
    expect(decision.approved).toBe(true);
    expect(context.asks).toHaveLength(1);
    expect(context.asks[0]?.text).toMatch(/auto mode's judge failed: .*; asking you instead\)/);
    expect(context.asks[0]?.meta?.["autoMode"]).toMatchObject({ decision: "ask", failed: true });
  });

  it("the judge sees the task, the recent transcript and the action's diff", async () => {
    const policy = await policyWith([{ text: '{"decision": "allow", "reason": "the rename the task asks for"}' }]);
    const context = createRecordingContext();
    const decision = await policy.approve({ request: edit, context, presentation });
    expect(decision.approved).toBe(true);
    expect(context.asks).toHaveLength(0);
    const sent = JSON.stringify(server?.requests[0]?.body);
    expect(sent).toContain("rename the helper in src/util.ts");
    expect(sent).toContain("I will look at the file first.");
    expect(sent).toContain("-old\\n+new");
    expect(context.says.at(-1)?.text).toBe("src/util.ts\n(auto mode allowed it: the rename the task asks for)");
  });

  it("an ask rule and running a command outside the sandbox are never judged: the user is asked", async () => {
    const rules = new PermissionRules(rulesFromBlock({ ask: ["Bash(git push:*)"] }, "test"), process.cwd());
    const policy = await policyWith([{ text: '{"decision": "allow", "reason": "never asked"}' }], rules);
    const context = createRecordingContext({ answers: [{ response: "no" }, { response: "no" }] });
    const pushed = await policy.approve({
      request: { kind: "command", command: "git push origin main", requiresApproval: true },
      context,
      presentation: { key: "p", text: "git push origin main", meta: { tool: "execute_command", command: "git push origin main" } },
    });
    expect(pushed.approved).toBe(false);
    const escalated = await policy.escalateAfterFailure({ command: "make install", why: "the sandbox keeps /usr read-only", context, key: "e" });
    expect(escalated.rerun).toBe(false);
    expect(server?.requests).toHaveLength(0);
    expect(context.asks).toHaveLength(2);
  });

  it("an edit outside the workspace is never judged: it is asked as before", async () => {
    const policy = await policyWith([{ text: '{"decision": "allow", "reason": "never asked"}' }]);
    const context = createRecordingContext({ answers: [{ response: "no" }] });
    const decision = await policy.approve({ request: { kind: "edit", inside: false, path: "/etc/hosts" }, context, presentation: { ...presentation, text: "/etc/hosts" } });
    expect(decision.approved).toBe(false);
    expect(server?.requests).toHaveLength(0);
    expect(context.asks).toHaveLength(1);
  });
});
