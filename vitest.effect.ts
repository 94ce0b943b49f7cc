/**
 * A setup file (run before each test file) of the projects whose files share threads that keep
 * modules loaded (`isolate: false`). `@effect/vitest`'s `layer(...)` (0.30) assigns its own
 * `effect`, `scoped`, `prop`, `flakyTest` and `layer` onto the very `it` the package exports, so
 * in such a thread every later file's `it.effect` would run in that file's layer: without
 * `TestClock` when it excluded the test services (`testClock.adjust is not a function`), or with
 * its servers long closed. Each file starts with those methods as they were before any file ran.
 */
import { it } from "@effect/vitest"

type Methods = Pick<typeof it, "effect" | "scoped" | "prop" | "flakyTest" | "layer">

// this module runs again for every file; what it keeps between files lives on globalThis
const shared = globalThis as { feeshareEffectVitest?: Methods }

const pristine = shared.feeshareEffectVitest ??= {
  effect: it.effect,
  scoped: it.scoped,
  prop: it.prop,
  flakyTest: it.flakyTest,
  layer: it.layer
}

Object.assign(it, pristine)
