// Preloaded into cairn by bench/tui-terminal.bench.ts (NODE_OPTIONS=--require): records, in
// PAINT_MARK_FILE, the time since the process started (performance.now() counts from it) and
// the process's CPU time then, at
// - paint: its first write of the UI's prompt (the launcher's early input box, or Ink's frame);
// - ui: Ink's first frame (the status line, drawn only by the UI);
// - echo: the first write that shows PAINT_ECHO_TEXT after the prompt's arrow in the input
//   line (a key the bench types as soon as the prompt is on the screen).
"use strict";
const { writeFileSync } = require("node:fs");

const file = process.env["PAINT_MARK_FILE"];
const echo = process.env["PAINT_ECHO_TEXT"];
const marks = {};
const now = () => {
  const cpu = process.cpuUsage();
  return { sinceStartMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 };
};
const plain = (text) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
if (file) {
  const write = process.stdout.write;
  process.stdout.write = function (chunk, ...rest) {
    const text = plain(String(chunk));
    let changed = false;
    const mark = (name, seen) => {
      if (marks[name] === undefined && seen) {
        marks[name] = now();
        changed = true;
      }
    };
    mark("paint", text.includes("What should cairn do?"));
    mark("ui", text.includes("Tab mode · Esc stop"));
    mark("echo", echo !== undefined && text.includes(`› ${echo}`));
    if (changed) {
      writeFileSync(file, JSON.stringify({ ...marks.paint, ...(marks.ui ? { ui: marks.ui } : {}), ...(marks.echo ? { echo: marks.echo } : {}) }));
      if (marks.echo && marks.ui) process.stdout.write = write;
    }
    return write.call(this, chunk, ...rest);
  };
}
