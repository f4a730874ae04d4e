import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const report = process.env["CAIRN_TEST_REPORT"];

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "bench/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default (one worker fewer than the cores) leaves a 2-core CI machine one test file at a
    // time; most files drive the real CLI and wait on it, so every core gets a file (README, Development).
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: report ? ["default", "json"] : ["default"],
    ...(report ? { outputFile: { json: report } } : {}),
  },
});
