/**
 * The help screens as a user sees them (spawned, output piped): the top level fits one
 * screen, every command has its own help with an example, a group alone prints its help,
 * nothing carries an escape code when the output is not a terminal or NO_COLOR is set, and the
 * built bin's quick path (help before the commands load) prints exactly what the renderer does.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Cli from "../src/Cli.js"
import * as Help from "../src/Help.js"
import type * as HelpTree from "../src/internal/helpDoc.js"
import { quickHelp } from "../src/internal/quickHelp.js"
import { feeshare, temporaryDirectory } from "./support/spawn.js"

const escape = "\u001b["

/** Every command of the tree below the root. */
const commands = (node: HelpTree.Node): ReadonlyArray<HelpTree.Node> =>
  node.children.flatMap((c) => [c, ...commands(c)])

// no NO_COLOR: the output is a pipe, which alone must keep it plain
const piped = { NO_COLOR: "" }

describe("help (spawned)", () => {
  it.effect("feeshare --help: at most 40 lines of at most 80 columns, every command, no escape codes", () =>
    Effect.gen(function*() {
      const outcome = yield* feeshare(["--help"], piped)
      assert.strictEqual(outcome.code, 0, outcome.stderr)
      const lines = outcome.stdout.trimEnd().split("\n")
      assert.isAtMost(lines.length, 40)
      for (const line of lines) assert.isAtMost(line.length, Help.width, line)
      assert.notInclude(outcome.stdout, escape)
      for (const command of Help.tree().children) assert.match(outcome.stdout, new RegExp(`^  ${command.name} `, "m"))
      assert.include(outcome.stdout, "Examples:")
      assert.include(outcome.stdout, "docs/cli.md")
      assert.notInclude(outcome.stdout, "--wizard")
      assert.notInclude(outcome.stdout, "A user-defined piece of text")
      // no command at all prints the same
      const bare = yield* feeshare([], piped)
      assert.strictEqual(bare.stdout, outcome.stdout)
    }))

  it.effect("a group alone prints the group's help; a command's --help has its usage, options and an example", () =>
    Effect.gen(function*() {
      const group = yield* feeshare(["claims"], piped)
      assert.strictEqual(group.code, 0, group.stderr)
      assert.match(group.stdout, /^Usage: feeshare claims <command>/)
      for (const name of ["positions", "vaults", "plan", "claim"]) {
        assert.match(group.stdout, new RegExp(`^  ${name} `, "m"))
      }
      assert.notInclude(group.stdout, escape)
      const leaf = yield* feeshare(["--keypair", "x.json", "claims", "claim", "--help"], piped)
      assert.strictEqual(leaf.code, 0, leaf.stderr)
      assert.match(leaf.stdout, /^Usage: feeshare claims claim --mint MINT/)
      assert.match(leaf.stdout, /^ {2}--dry-run +verify every transaction/m)
      assert.match(leaf.stdout, /^Example:\n {2}feeshare .*claims claim --mint MINT$/m)
      assert.notInclude(leaf.stdout, escape)
      for (const line of leaf.stdout.trimEnd().split("\n")) assert.isAtMost(line.length, Help.width, line)
    }))

  it.effect("usage errors on a pipe carry no escape codes; --wizard is refused as a usage error", () =>
    Effect.gen(function*() {
      const missing = yield* feeshare(["claims", "claim"], piped)
      assert.strictEqual(missing.code, 2)
      assert.include(missing.stderr, "feeshare: ")
      assert.notInclude(missing.stderr + missing.stdout, escape)
      const wizard = yield* feeshare(["--wizard"], piped)
      assert.strictEqual(wizard.code, 2)
      assert.include(wizard.stderr, "--wizard is not supported")
    }))

  it.effect("feeshare --completions bash: a script that completes the commands", () =>
    Effect.gen(function*() {
      const outcome = yield* feeshare(["--completions", "bash"], piped)
      assert.strictEqual(outcome.code, 0, outcome.stderr)
      const script = join(temporaryDirectory("feeshare-completions-"), "feeshare.bash")
      writeFileSync(script, outcome.stdout)
      const complete = (words: string) =>
        execFileSync("bash", [
          "-c",
          `source ${script}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); ` +
          `_feeshare_bash_completions feeshare "\${COMP_WORDS[COMP_CWORD]}"; printf '%s\\n' "\${COMPREPLY[@]}"`
        ], { encoding: "utf8" }).trim().split("\n")
      assert.include(complete("feeshare cl"), "claims")
      assert.includeMembers(complete("feeshare claims ''"), ["positions", "vaults", "plan", "claim"])
      assert.include(outcome.stdout, "complete -F _feeshare_bash_completions")
      assert.notInclude(outcome.stdout, "--wizard")
    }))
})

describe("help (in process)", () => {
  it("every command and group has a summary and an example; colour only on a terminal without NO_COLOR", () => {
    for (const node of commands(Help.tree())) {
      assert.notStrictEqual(node.summary, "", node.path.join(" "))
      assert.isAtLeast(node.examples.length, 1, node.path.join(" "))
      for (const example of node.examples) assert.match(example, /^feeshare /, example)
    }
    assert.strictEqual(Help.styleFor({ isTTY: true }, {}), Help.ansi)
    assert.strictEqual(Help.styleFor({ isTTY: true }, { NO_COLOR: "1" }), Help.plain)
    assert.strictEqual(Help.styleFor({ isTTY: false }, {}), Help.plain)
    assert.strictEqual(Help.styleFor({}, {}), Help.plain)
    assert.include(Help.top(Help.ansi), escape)
  })

  it("the quick path (the built bin's help before the commands load) prints what Help.of renders, for every screen", () => {
    const tty = { isTTY: true }
    const pipe = { isTTY: false }
    // `sandbox` has its own flag parser and help (refused below)
    for (const node of [Help.tree(), ...commands(Help.tree())].filter((n) => n.path[1] !== "sandbox")) {
      const path = node.path.slice(1)
      // --help anywhere, global options first, and extra words after the command
      for (
        const args of [[...path, "--help"], ["--json", "--help", ...path], [
          "--keypair",
          "k.json",
          ...path,
          "MINT",
          "-h"
        ]]
      ) {
        assert.strictEqual(quickHelp(args, pipe, {}), Help.of(path, Help.plain), args.join(" "))
        assert.strictEqual(quickHelp(args, tty, {}), Help.of(path, Help.ansi), args.join(" "))
        assert.strictEqual(quickHelp(args, tty, { NO_COLOR: "1" }), Help.of(path, Help.plain), args.join(" "))
      }
      // a group alone is its help; a command alone runs
      assert.strictEqual(
        quickHelp(path, pipe, {}),
        node.children.length > 0 ? Help.of(path) : undefined,
        path.join(" ")
      )
    }
    assert.strictEqual(quickHelp(["--version"], pipe, {}), Cli.version)
    for (
      const args of [["sandbox", "--help"], ["claims", "claim", "--mint", "M"], ["--completions", "bash"], [
        "--",
        "--help"
      ]]
    ) {
      assert.isUndefined(quickHelp(args, pipe, {}), args.join(" "))
    }
  })
})
