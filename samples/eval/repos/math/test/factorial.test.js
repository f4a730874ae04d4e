import { test } from "node:test";
import assert from "node:assert/strict";
import { factorial } from "../src/math.js";

test("factorial multiplies 1..n", () => {
  assert.equal(factorial(0), 1);
  assert.equal(factorial(5), 120);
});
