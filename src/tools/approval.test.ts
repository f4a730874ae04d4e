import { describe, expect, it } from "vitest";
import { ApprovalPolicy, defaultApprovalSettings, type ApprovalRequest } from "./approval.js";
import { createRecordingContext } from "./test-support/recording-context.js";

const policy = (overrides: Partial<typeof defaultApprovalSettings> = {}, yes = false, allowOutsideWrites = false) =>
  new ApprovalPolicy({ settings: { ...defaultApprovalSettings, ...overrides }, yes, allowOutsideWrites });

describe("ApprovalPolicy", () => {
  it("by default reads inside run, everything else asks", () => {
    const requests: Array<[ApprovalRequest, string]> = [
      [{ kind: "read", inside: true, path: "a" }, "auto"],
      [{ kind: "read", inside: false, path: "/a" }, "ask"],
      [{ kind: "edit", inside: true, path: "a" }, "ask"],
      [{ kind: "edit", inside: false, path: "/a" }, "ask"],
      [{ kind: "command", requiresApproval: false }, "ask"],
      [{ kind: "mcp", serverAutoApprove: false }, "ask"],
      [{ kind: "mcp", serverAutoApprove: true }, "auto"],
      [{ kind: "web" }, "ask"],
    ];
    for (const [request, verdict] of requests) expect(policy().verdict(request)).toBe(verdict);
  });

  it("requires_approval only adds caution", () => {
    expect(policy({ commandsSafe: true }).verdict({ kind: "command", requiresApproval: false })).toBe("auto");
    expect(policy({ commandsSafe: true }).verdict({ kind: "command", requiresApproval: true })).toBe("ask");
    expect(policy({ commandsAll: true }).verdict({ kind: "command", requiresApproval: true })).toBe("auto");
    expect(policy().verdict({ kind: "command", requiresApproval: false })).toBe("ask");
  });

  it("--yes approves everything except writes outside without --allow-outside-writes", () => {
    expect(policy({}, true).verdict({ kind: "edit", inside: true, path: "a" })).toBe("auto");
    expect(policy({}, true).verdict({ kind: "read", inside: false, path: "/a" })).toBe("auto");
    expect(policy({}, true).verdict({ kind: "edit", inside: false, path: "/a" })).toBe("refuse");
    expect(policy({ editOutside: true }, true).verdict({ kind: "edit", inside: false, path: "/a" })).toBe("refuse");
    expect(policy({}, true, true).verdict({ kind: "edit", inside: false, path: "/a" })).toBe("auto");
  });

  it("passes approval feedback on and turns a denial into a rejected outcome with the user's words", async () => {
    const context = createRecordingContext({ answers: [{ response: "yes", text: "careful" }, { response: "no", text: "not that file" }] });
    const presentation = { key: "k", text: "Edit a", meta: { tool: "write_to_file" } };
    const request: ApprovalRequest = { kind: "edit", inside: true, path: "a" };
    expect(await policy().approve({ request, context, presentation })).toEqual({ approved: true, feedback: "careful" });
    const denied = await policy().approve({ request, context, presentation });
    expect(denied).toMatchObject({ approved: false, outcome: { status: "rejected" } });
    expect(denied.approved === false && denied.outcome.content).toContain("not that file");
    expect(context.says.every((say) => say.key === "k" && !say.partial)).toBe(true);
  });
});
