import { test } from "node:test";
import assert from "node:assert/strict";
import * as durations from "../src/durations.js";

test("parseDuration reads 2m 5s back", () => {
  assert.equal(typeof durations.parseDuration, "function");
  assert.equal(durations.parseDuration("2m 5s"), 125_000);
  assert.equal(durations.parseDuration("5s"), 5_000);
});
