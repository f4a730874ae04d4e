import { test } from "node:test";
import assert from "node:assert/strict";
import { capitalize } from "../src/strings.js";

test("capitalize upper-cases the first letter", () => {
  assert.equal(capitalize("hello"), "Hello");
  assert.equal(capitalize(""), "");
});
