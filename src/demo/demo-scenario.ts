import type { Scenario } from "../llm/scripted/scenario.js";

/**
 * The scripted model of `cairn demo`: a realistic run on samples/demo-project,
 * in the xml tool protocol. Request N gets turn N, whatever the request says,
 * so each turn is written for the state the previous ones leave behind.
 */
export function demoScenario(options: { fast: boolean }): Scenario {
  const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0): Scenario["turns"][number]["usage"] => ({
    inputTokens,
    outputTokens,
    cacheReadTokens,
  });
  return {
    model: "claude-sonnet-5-5",
    chunkSize: options.fast ? 64 : 10,
    delayMs: options.fast ? 0 : 12,
    turns: [
      {
        reasoning: "The user says a test fails. I should look at the tests first to see what is expected.",
        text: "I'll start with the test file to see which behaviour is expected.\n\n<read_file>\n<path>test/stats.test.js</path>\n</read_file>",
        usage: usage(2100, 60),
      },
      {
        text: "The failing expectation is `average([2, 4, 6]) === 4`. Let me find where `average` is defined.\n\n<search_files>\n<path>src</path>\n<regex>export function average</regex>\n</search_files>",
        usage: usage(420, 55, 2100),
      },
      {
        text: "It lives in `src/stats.js`. Reading it:\n\n<read_file>\n<path>src/stats.js</path>\n</read_file>",
        usage: usage(300, 40, 2500),
      },
      {
        reasoning: "The loop starts at index 1, so the first number is never added: [2,4,6] gives 10/3 instead of 4.",
        text: "Found it: the loop in `average` starts at index 1, so the first number is skipped. Fixing the loop:\n\n<replace_in_file>\n<path>src/stats.js</path>\n<diff>\n------- SEARCH\n  for (let index = 1; index < numbers.length; index++) {\n=======\n  for (let index = 0; index < numbers.length; index++) {\n+++++++ REPLACE\n</diff>\n</replace_in_file>",
        usage: usage(520, 130, 2800),
      },
      {
        text: "Now let me run the tests to confirm the fix.\n\n<execute_command>\n<command>node --test</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
        usage: usage(380, 45, 3300),
      },
      {
        text: "All four tests pass.\n\n<attempt_completion>\n<result>\nFixed `average` in `src/stats.js`: its loop started at index 1 and skipped the first number, so `average([2, 4, 6])` returned 3.33 instead of 4. The loop now starts at 0, and `node --test` passes all 4 tests.\n</result>\n</attempt_completion>",
        usage: usage(610, 90, 3700),
      },
    ],
  };
}
