import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDuration } from "../src/durations.js";

test("formatDuration shows minutes and seconds", () => {
  assert.equal(formatDuration(5_000), "5s");
  assert.equal(formatDuration(125_000), "2m 5s");
});
