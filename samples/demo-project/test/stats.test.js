import { test } from "node:test";
import assert from "node:assert/strict";
import { average, max, sum } from "../src/stats.js";

test("sum adds every number", () => {
  assert.equal(sum([1, 2, 3]), 6);
});

test("average of three numbers", () => {
  assert.equal(average([2, 4, 6]), 4);
});

test("average of an empty list is 0", () => {
  assert.equal(average([]), 0);
});

test("max finds the largest number", () => {
  assert.equal(max([3, 9, 2]), 9);
});
