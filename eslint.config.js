// @ts-check
// Lint: typescript-eslint's type-aware recommended rules, with Prettier owning layout (eslint-config-prettier
// turns off every rule that would fight it). `npm run lint` runs this and `prettier --check`.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "node_modules/",
      "coverage/",
      "test/consumer/app/",
      "eval/results/",
      "bench/results/",
      ".ci-results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Sanitisers match control characters on purpose (escaping untrusted text).
      "no-control-regex": "off",
      // Functions are async to satisfy an async interface (LangChain, LangGraph, promptfoo) without awaiting.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-floating-promises": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  {
    // One error type crosses the public API: a plain Error thrown in src/ must be caught and wrapped where it is
    // thrown, which its disable comment says.
    files: ["src/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ThrowStatement > NewExpression[callee.name=/^(Error|TypeError|RangeError)$/]",
          message: "Throw LookupKnowledgeError (with a code) from src/, or internalError() for a broken invariant.",
        },
      ],
    },
  },
  {
    // Tests, benchmarks and examples read JSON and spy on methods: the unsafe-any family would flag every
    // `JSON.parse` and `expect(obj.method)`, which cost more than they catch there.
    files: ["test/**", "bench/**", "examples/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/unbound-method": "off",
      "@typescript-eslint/no-base-to-string": "off",
      // Fixtures widen literals on purpose (a mutable script of a fake); the fix would narrow them.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // Hostile fakes throw and reject with non-errors on purpose.
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/prefer-promise-reject-errors": "off",
      "@typescript-eslint/consistent-type-imports": ["error", { disallowTypeAnnotations: false }],
    },
  },
  {
    // promptfoo's result records are loosely typed; this glue reads them as they come.
    files: ["src/eval/promptfoo/**"],
    rules: {
      "@typescript-eslint/no-base-to-string": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(
        ["process", "console", "URL", "Buffer", "performance", "setTimeout", "clearTimeout"].map((name) => [
          name,
          "readonly",
        ]),
      ),
    },
  },
  prettier,
);
