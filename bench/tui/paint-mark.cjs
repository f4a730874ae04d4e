// Preloaded into cairn by bench/tui-terminal.bench.ts (NODE_OPTIONS=--require): when the
// terminal UI first writes its prompt, records the time since the process started
// (performance.now() counts from it) and the process's CPU time then, in PAINT_MARK_FILE.
"use strict";
const { writeFileSync } = require("node:fs");

const file = process.env["PAINT_MARK_FILE"];
const marker = "What should cairn do?";
if (file) {
  const write = process.stdout.write;
  process.stdout.write = function (chunk, ...rest) {
    if (String(chunk).includes(marker)) {
      process.stdout.write = write;
      const cpu = process.cpuUsage();
      writeFileSync(file, JSON.stringify({ sinceStartMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 }));
    }
    return write.call(this, chunk, ...rest);
  };
}
