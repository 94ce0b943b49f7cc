// @ts-check
/**
 * Lint and format (`npm run lint`, part of `npm test`; `npm run lint:fix` formats): ESLint with
 * typescript-eslint, and the Effect monorepo's formatting through `@effect/eslint-plugin`'s
 * `@effect/dprint` rule (dprint's TypeScript plugin as WebAssembly from npm; the dprint CLI
 * would download its plugins by URL). The sandbox's internal layers are checked here; import
 * cycles by scripts/import-cycles.mjs (ESLint's import plugins skip type-only imports).
 */
import * as effectEslint from "@effect/eslint-plugin"
import eslint from "@eslint/js"
import tseslint from "typescript-eslint"

/** A public module of the sandbox (every one is PascalCase, or index/bin), by path or by name. */
const publicSandbox = {
  caseSensitive: true,
  regex: "^((\\.\\./)+([A-Z][A-Za-z0-9]*|index|bin)\\.js|@feeshare/sandbox(/.*)?)$",
  message: "internal modules of the sandbox import internal modules only: the public ones re-export them"
}

/** The HTTP side of the sandbox's internals, from its model side. */
const httpFromModel = {
  regex: "^(\\.\\./)+http/",
  message: "the sandbox's model (internal/model) does not import its HTTP side (internal/http)"
}

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.tsc/**",
      "**/.build/**",
      "docs/**",
      "scratchpad/**",
      "packages/*/artifacts/**",
      "packages/consumer/fixtures/**"
    ]
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  ...effectEslint.configs.dprint,
  {
    files: ["**/*.{ts,mts,mjs}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly"
      }
    },
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      // the code strips terminal escapes and control characters on purpose
      "no-control-regex": "off"
    }
  },
  // the sandbox's internal modules never climb back to its public ones (which re-export them)
  {
    files: ["packages/sandbox/src/internal/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [publicSandbox] }] }
  },
  // and its model (ledger, market, history) never imports its HTTP side
  {
    files: ["packages/sandbox/src/internal/model/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [publicSandbox, httpFromModel] }] }
  }
)
