import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "samples/**", "coverage/**", "**/*.js", "**/*.cjs", "!eslint.config.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/require-await": "off",
      "no-constant-condition": ["error", { checkLoops: false }],
      "no-control-regex": "off",
    },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "**/test-support/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // #11, DESIGN.md: adapters reach task/ only through its contracts (and the Task class itself).
    files: ["src/**/*.ts", "src/**/*.tsx"],
    ignores: ["src/task/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)task/(?!contracts/|task\\.js$)",
              message: "Outside src/task/, import only its contracts (src/task/contracts/) or the Task class (src/task/task.js).",
            },
          ],
        },
      ],
    },
  },
  { files: ["eslint.config.js"], ...tseslint.configs.disableTypeChecked },
);
