import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const complete = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };

async function run(scenario: Scenario, task = "do the thing", extraArgs: string[] = []): ReturnType<typeof cli.run> {
  const server = await cli.startServer(scenario);
  return cli.run(["run", "--json", "--yes", ...extraArgs, "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", task]);
}

const requestText = (index: number): string => JSON.stringify(cli.server?.requests[index]?.body ?? null);

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

describe("skills and rules through cairn run", () => {
  it("a skill is listed by name and description, and its body is loaded on demand with use_skill", async () => {
    await put(
      join(cli.sandbox.workspace, ".claude", "skills", "pdf-forms", "SKILL.md"),
      "---\nname: pdf-forms\ndescription: Fill in PDF forms\n---\n# PDF forms\n\nSECRET-BODY-MARKER: run scripts/fill.py with the field map.\n",
    );
    await put(join(cli.sandbox.workspace, ".claude", "skills", "pdf-forms", "scripts", "fill.py"), "print('fill')\n");
    await put(join(cli.sandbox.configDir, "cairn", "skills", "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Write the changelog entry\n---\nKeep a Changelog format.\n");
    const result = await run({ turns: [{ text: "<use_skill>\n<skill_name>pdf-forms</skill_name>\n</use_skill>" }, complete] });
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("- pdf-forms: Fill in PDF forms");
    expect(requestText(0)).toContain("- changelog: Write the changelog entry");
    expect(requestText(0)).not.toContain("SECRET-BODY-MARKER");
    expect(requestText(1)).toContain("SECRET-BODY-MARKER: run scripts/fill.py");
    expect(requestText(1)).toContain("scripts/fill.py");
  });

  it("a nested AGENTS.md reaches the request after its folder is first touched", async () => {
    await put(join(cli.sandbox.workspace, "AGENTS.md"), "ROOT-RULE");
    await put(join(cli.sandbox.workspace, "server", "AGENTS.md"), "NESTED-SERVER-RULE");
    await put(join(cli.sandbox.workspace, "server", "main.py"), "print(1)\n");
    const result = await run({ turns: [{ text: "<read_file>\n<path>server/main.py</path>\n</read_file>" }, complete] });
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("ROOT-RULE");
    expect(requestText(0)).not.toContain("NESTED-SERVER-RULE");
    expect(requestText(1)).toContain("NESTED-SERVER-RULE");
  });
});

describe("/newrule through cairn run", () => {
  it('cairn run "/newrule ..." asks the model for a rule, which new_rule writes into .clinerules/ once a rule allows writing there', async () => {
    const newRule = "<new_rule>\n<path>.clinerules/package-manager.md</path>\n<content># Package manager\n\nAlways use pnpm.\n</content>\n</new_rule>";
    const rulePath = join(cli.sandbox.workspace, ".clinerules", "package-manager.md");
    // Rules steer every later task: a protected path, which --yes alone does not write.
    const refused = await run({ turns: [{ text: newRule }, complete] }, "/newrule always use pnpm");
    expect(refused.stderr).toMatch(/needs an explicit approval, which --yes does not give/);
    expect(existsSync(rulePath)).toBe(false);
    const result = await run({ turns: [{ text: newRule }, complete] }, "/newrule always use pnpm", ["--allowed-tools", "Edit(.clinerules/**)"]);
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("The rule should capture: always use pnpm");
    expect(await readFile(rulePath, "utf8")).toContain("Always use pnpm.");
    // The rule is in force from the next request on.
    expect(requestText(1)).toContain("Always use pnpm.");
  });
});

describe.skipIf(!existsSync("/usr/bin/chromium"))("browser_action through cairn run", () => {
  it("the screenshot reaches the model as an image with the console output; the browser closes with the task", { timeout: 120_000 }, async () => {
    const { createServer } = await import("node:http");
    const page = createServer((_request, response) => response.end("<html><body><h1>Local page</h1><script>console.log('hello from the page')</script></body></html>"));
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const address = page.address();
    const pageUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    try {
      const launch = `<browser_action>\n<action>launch</action>\n<url>${pageUrl}</url>\n</browser_action>`;
      // The model never closes the browser: the task's end does.
      const result = await run({ turns: [{ text: launch }, complete] });
      expect(result.status).toBe(0);
      const second = requestText(1);
      expect(second).toContain("hello from the page");
      expect(second).toMatch(/"type":"image","source":\{"type":"base64","media_type":"image\/png","data":"iVBOR/);
    } finally {
      await new Promise((resolve) => page.close(resolve));
    }
  });
});

describe("cairn commands lists every command and where it comes from", () => {
  it("lists custom commands, workflows, the built-in /newrule and skills with where each comes from", async () => {
    await put(join(cli.sandbox.workspace, ".claude", "commands", "review.md"), "---\ndescription: Review code\nargument-hint: <file>\n---\nReview $1\n");
    await put(join(cli.sandbox.workspace, ".clinerules", "workflows", "release.md"), "# Cut a release\n");
    await put(join(cli.sandbox.workspace, ".cairn", "skills", "db", "SKILL.md"), "---\nname: db\ndescription: Database migrations\n---\nbody\n");
    const listed = await cli.run(["commands"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain("/newrule");
    expect(listed.stdout).toMatch(/\/review <file>\s+Review code \(command, .*\.claude\/commands\/review\.md\)/);
    expect(listed.stdout).toContain("/release  Cut a release (workflow");
    expect(listed.stdout).toContain("db  Database migrations");
  });
});

describe("custom commands as a resumed task's message", () => {
  it('cairn resume ID "/name args" expands the command into the message', async () => {
    await put(join(cli.sandbox.workspace, ".cairn", "commands", "followup.md"), "Now also handle $1 carefully.\n");
    const first = await run({ turns: [complete, complete] });
    expect(first.status).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);
    const resumed = await cli.run(["resume", "--json", "--yes", "--provider", "anthropic", "--base-url", cli.server?.url ?? "", "--api-key", "test-key", taskId, "/followup timeouts"]);
    expect(resumed.status).toBe(0);
    expect(requestText(1)).toContain("Now also handle timeouts carefully.");
  });
});
