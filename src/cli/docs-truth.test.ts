import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { defaultModels } from "../llm/models.js";

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), "utf8");

describe("the docs say what the code does", () => {
  it("docs/configuration.md names the default models the code uses", async () => {
    const text = await read("docs/configuration.md");
    expect(text).toContain(`model \`${defaultModels.anthropic}\``);
    expect(text).toContain(`\`${defaultModels.openai}\``);
  });

  it("the README says which rule files are read: AGENTS.md, CLAUDE.md and .clinerules", async () => {
    const text = await read("README.md");
    for (const name of ["AGENTS.md", "CLAUDE.md", ".clinerules"]) expect(text).toContain(name);
  });
});
