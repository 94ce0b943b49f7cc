/**
 * Runs the real `feeshare` executable (built by the global set-up) as a child process.
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { generateKeyPairSync } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { executables } from "../../../../scripts/test-executables.mjs"

export const bin = executables.feeshare

export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** `node feeshare.js ...args` with the given environment on top of a clean one. */
export const feeshare = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Effect.async<Outcome>((resume) => {
    const { FEESHARE_API_KEY: _k, FEESHARE_BASE_URL: _b, FEESHARE_RPC_URL: _r, FEESHARE_KEYPAIR: _p, ...inherited } =
      process.env
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...inherited, NO_COLOR: "1", ...env }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout, stderr) => resume(Effect.succeed({ code: child.exitCode ?? -1, stdout, stderr }))
    )
  })

/** A temporary directory. */
export const temporaryDirectory = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix))

/** A solana-keygen file (64-byte JSON array) of a fresh Ed25519 key; returns its path and public key bytes. */
export const keygenFile = (dir: string, name: string): { readonly path: string; readonly publicKey: Uint8Array } => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const pub = publicKey.export({ format: "der", type: "spki" }).subarray(-32)
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32)
  const path = join(dir, `${name}.json`)
  // as solana-keygen writes it: readable by its owner only
  writeFileSync(path, JSON.stringify([...seed, ...pub]), { mode: 0o600 })
  return { path, publicKey: new Uint8Array(pub) }
}

/** The one JSON document a `--json` run printed (fails the test when stdout holds anything else). */
export const document = (outcome: Outcome): unknown => JSON.parse(outcome.stdout)
