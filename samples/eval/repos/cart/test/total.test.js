import { test } from "node:test";
import assert from "node:assert/strict";
import { total } from "../src/cart.js";

test("total counts every unit", () => {
  assert.equal(total([{ price: 2, quantity: 3 }, { price: 5, quantity: 1 }]), 11);
});
