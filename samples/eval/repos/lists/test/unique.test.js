import { test } from "node:test";
import assert from "node:assert/strict";
import { unique } from "../src/lists.js";

test("unique keeps the first occurrence, in order", () => {
  assert.deepEqual(unique([3, 1, 3, 2, 1]), [3, 1, 2]);
});
