import { defineProject } from "vitest/config"

export default defineProject({
  test: {
    name: "solana",
    include: ["test/**/*.test.ts"]
  }
})
