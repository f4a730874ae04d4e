import { test } from "node:test";
import assert from "node:assert/strict";
import { chunk } from "../src/lists.js";

test("chunk keeps the last, shorter chunk", () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});
