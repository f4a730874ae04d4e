import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialMarkdownState, markdownStateAfter, parseMarkdownLines } from "./markdown.js";
import { WorkerMarkdownFormatter } from "./markdown-formatter.js";
import { printedMarkdown } from "./markdown-print.js";
import type { MarkdownPrintJob } from "./markdown-print.js";

/** Markdown of every kind the printer handles: fences of both markers, wide characters, long lines, tabs, controls. */
function corpus(): string[] {
  const lines: string[] = [];
  for (let index = 0; index < 400; index += 1) {
    const place = index % 25;
    if (place === 0) lines.push(index % 50 === 0 ? "```ts" : "~~~~");
    else if (place > 0 && place < 6) lines.push(`  const value${index} = add(${index}, ${index + 1}); // a < b\t&& \`b\` > a`);
    else if (place === 6) lines.push(index % 50 === 6 ? "```" : "~~~~");
    else if (place === 7) lines.push(`## Step ${index}: 表示の幅 and emoji 🎉🎉 **bold _nested_ text**`);
    else if (place === 8) lines.push(`${"averyveryverylongwordwithoutanyspaces".repeat(8)} then words after it`);
    else if (place === 9) lines.push(`> a quote with [a link](https://example.com/${index}) and \`code\``);
    else if (place === 10) lines.push("");
    else if (place === 11) lines.push("---");
    else if (place === 12) lines.push(`carriage\rreturn and a control \u0007 character, 全角の文字が続く行です。`.repeat(3));
    else lines.push(`- step ${index}: the **answer** explains the fix to \`add\` and why the _test_ fails, see [the docs](https://example.com/${index}) ${"word ".repeat(index % 30)}`);
  }
  return lines;
}

/** The corpus cut into jobs as the transcript cuts a streamed answer: slices of varying size, each with the state it starts in. */
function jobsOf(lines: readonly string[], width: number): MarkdownPrintJob[] {
  const jobs: MarkdownPrintJob[] = [];
  let state = initialMarkdownState;
  for (let start = 0, size = 1; start < lines.length; start += size, size = (size * 7) % 61 || 1) {
    const slice = lines.slice(start, start + size);
    jobs.push({ source: slice.join("\n"), state, first: start === 0, completion: width % 2 === 0, width });
    state = markdownStateAfter(slice, state);
  }
  return jobs;
}

const folder = mkdtempSync(join(tmpdir(), "cairn-markdown-worker-"));
const workerFile = join(folder, "markdown-worker.cjs");
afterAll(() => rmSync(folder, { recursive: true, force: true }));
beforeAll(async () => {
  // The worker as scripts/bundle.js builds it.
  await build({ entryPoints: [fileURLToPath(new URL("./markdown-worker.ts", import.meta.url))], outfile: workerFile, bundle: true, platform: "node", format: "cjs", logLevel: "warning" });
});

describe("markdown formatted by the worker", () => {
  it("is the text formatted in the UI's thread, job for job, answered in the order given", async () => {
    const jobs = [...jobsOf(corpus(), 100), ...jobsOf(corpus(), 40)];
    const formatter = new WorkerMarkdownFormatter(workerFile);
    try {
      const answered: number[] = [];
      const texts = await Promise.all(jobs.map((job, index) => formatter.format(job).then((text) => (answered.push(index), text))));
      expect(texts).toEqual(jobs.map((job) => printedMarkdown(job)));
      expect(answered).toEqual(jobs.map((_, index) => index));
      expect(texts.join("\n")).toContain("全角の文字");
      expect(formatter.formattedHere).toBe(0);
    } finally {
      await formatter.close();
    }
  });

  it("formats the jobs still open when it is closed, and those after, in this thread: none is lost", async () => {
    const jobs = jobsOf(corpus(), 80);
    const formatter = new WorkerMarkdownFormatter(workerFile);
    const open = jobs.map((job) => formatter.format(job));
    await formatter.close();
    const later = await formatter.format(jobs[0]!);
    expect(await Promise.all(open)).toEqual(jobs.map((job) => printedMarkdown(job)));
    expect(later).toBe(printedMarkdown(jobs[0]!));
    expect(formatter.formattedHere).toBeGreaterThan(0);
  });

  it("formats in this thread when the worker cannot start", async () => {
    const jobs = jobsOf(corpus(), 60).slice(0, 20);
    const formatter = new WorkerMarkdownFormatter(join(folder, "missing-worker.cjs"));
    try {
      expect(await Promise.all(jobs.map((job) => formatter.format(job)))).toEqual(jobs.map((job) => printedMarkdown(job)));
      expect(formatter.formattedHere).toBe(jobs.length);
    } finally {
      await formatter.close();
    }
  });
});

describe("the markdown state carried between printed slices", () => {
  it("is the state parsing the lines would leave, for any cut of the answer", () => {
    const lines = corpus();
    for (const size of [1, 3, 7, 26, 400]) {
      let fast = initialMarkdownState;
      let parsed = initialMarkdownState;
      for (let start = 0; start < lines.length; start += size) {
        const slice = lines.slice(start, start + size);
        fast = markdownStateAfter(slice, fast);
        parsed = parseMarkdownLines(slice, parsed).state;
        expect(fast).toEqual(parsed);
      }
    }
  });
});
