import { describe, expect, it } from "vitest";
import { diffLines, folderName, formatAge, shownStatus } from "./format.js";
import { routeOf } from "./components/app.js";

describe("the web UI's formats", () => {
  it("says a task's age in one short unit", () => {
    const now = Date.parse("2026-12-03T04:00:00Z");
    expect(formatAge(now - 2000, now)).toBe("now");
    expect(formatAge(now - 42_000, now)).toBe("42 s");
    expect(formatAge("2026-12-03T03:55:00Z", now)).toBe("5 min");
    expect(formatAge(now - 3 * 3_600_000, now)).toBe("3 h");
    expect(formatAge(now - 2 * 86_400_000, now)).toBe("2 d");
  });

  it("shows a task its log calls running, but nobody runs, as interrupted", () => {
    expect(shownStatus("running", false)).toBe("interrupted");
    expect(shownStatus("running", true)).toBe("running");
    expect(shownStatus("completed", false)).toBe("completed");
  });

  it("names a workspace by its last folder", () => {
    expect(folderName("/home/me/projects/cairn/")).toBe("cairn");
  });

  it("colours a unified diff by line", () => {
    expect(diffLines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same").map((line) => line.kind)).toEqual(["file", "file", "hunk", "del", "add", "same"]);
  });

  it("routes the address's hash to a page", () => {
    expect(routeOf("#/task/01JD%2Fx")).toEqual({ page: "task", taskId: "01JD/x" });
    expect(routeOf("#/new")).toEqual({ page: "new" });
    expect(routeOf("")).toEqual({ page: "tasks" });
  });
});
