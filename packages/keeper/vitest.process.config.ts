import { defineProject } from "vitest/config"
import { resolveSources } from "../../vitest.shared.js"

/** The keeper's files that need a process of their own: they set the umask (worker threads cannot). */
export default defineProject({
  ...resolveSources,
  test: {
    name: "keeper-process",
    include: ["test/Files.test.ts"],
    pool: "forks",
    testTimeout: 60_000
  }
})
