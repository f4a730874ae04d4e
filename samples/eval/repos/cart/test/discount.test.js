import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDiscount } from "../src/cart.js";

test("applyDiscount takes a percentage", () => {
  assert.equal(applyDiscount(200, 10), 180);
});
