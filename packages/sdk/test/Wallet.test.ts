// Wallets as a Promise user makes them, with nothing but `feeshare`: generate, read the
// address, save to and load from a solana-keygen file (mode 0600, never overwritten), and use
// one to log in to a real sandbox.
import { createKeyPairSignerFromBytes } from "@solana/kit"
import { Keypair } from "@solana/web3.js"
import {
  FeeShare,
  generateWallet,
  InvalidKey,
  loadWallet,
  Redacted,
  saveWallet,
  walletAddress,
  walletFromSecretKey
} from "feeshare"
import { fromKeypair } from "feeshare/web3"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Running, start } from "./support/sandbox.js"

const dir = mkdtempSync(join(tmpdir(), "feeshare-wallets-"))

/** What a secret key would look like if it leaked: its first bytes as a list and in hex. */
const traces = (secretKey: Uint8Array) => [
  Array.from(secretKey.slice(0, 8)).join(","),
  Buffer.from(secretKey.slice(0, 8)).toString("hex")
]

let sandbox: Running

beforeAll(async () => {
  sandbox = await start({ slotMillis: 0, seed: "sdk-wallets" })
})

afterAll(async () => {
  await sandbox?.close()
})

describe("wallets in the facade", () => {
  it("generateWallet: a 64-byte secret key whose public half is the address, never printed", async () => {
    const wallet = await generateWallet()
    const bytes = Redacted.value(wallet.secretKey)
    expect(bytes.length).toBe(64)
    const kit = await createKeyPairSignerFromBytes(bytes)
    expect(wallet.address).toBe(kit.address)
    expect((await generateWallet()).address).not.toBe(wallet.address)
    const shown = `${String(wallet.secretKey)} ${JSON.stringify(wallet)} ${inspect(wallet, { depth: 5 })}`
    for (const trace of traces(bytes)) expect(shown).not.toContain(trace)
  })

  it("saveWallet writes a keygen file of mode 0600 that loadWallet and solana-keygen readers read back", async () => {
    const wallet = await generateWallet()
    const path = join(dir, "saved.json")
    await saveWallet(wallet, path)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    const content: unknown = JSON.parse(readFileSync(path, "utf8"))
    expect(content).toEqual(Array.from(Redacted.value(wallet.secretKey)))
    // web3.js reads the same file as the same wallet
    expect(Keypair.fromSecretKey(Uint8Array.from(content as Array<number>)).publicKey.toBase58()).toBe(wallet.address)
    const loaded = await loadWallet(path)
    expect(loaded.address).toBe(wallet.address)
    expect(Redacted.value(loaded.secretKey)).toEqual(Redacted.value(wallet.secretKey))
  })

  it("saveWallet refuses to overwrite an existing file, which stays as it was", async () => {
    const path = join(dir, "taken.json")
    writeFileSync(path, "keep me\n")
    const error = await saveWallet(await generateWallet(), path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidKey)
    expect(error).toMatchObject({ tag: "InvalidKey", reason: "file_exists", source: path, status: 0 })
    expect((error as InvalidKey).message).toContain("never overwritten")
    expect(readFileSync(path, "utf8")).toBe("keep me\n")
  })

  it("loadWallet and saveWallet name the path and the reason, never the key", async () => {
    const missing = await loadWallet(join(dir, "absent.json")).catch((e: unknown) => e)
    expect(missing).toMatchObject({ tag: "InvalidKey", reason: "missing_file" })
    const keypair = Keypair.generate()
    const short = join(dir, "short.json")
    writeFileSync(short, JSON.stringify(Array.from(keypair.secretKey.slice(0, 63))))
    const wrong = await loadWallet(short).catch((e: unknown) => e)
    expect(wrong).toMatchObject({ tag: "InvalidKey", reason: "wrong_length", source: short })
    const unwritable = await saveWallet(await generateWallet(), join(dir, "no-such-dir", "w.json"))
      .catch((e: unknown) => e)
    expect(unwritable).toMatchObject({ tag: "InvalidKey", reason: "unwritable_file" })
    for (const error of [missing, wrong, unwritable]) {
      const shown = `${String(error)} ${JSON.stringify(error)}`
      for (const trace of traces(keypair.secretKey)) expect(shown).not.toContain(trace)
    }
  })

  it("walletAddress reads the address of every signer form; walletFromSecretKey takes 64 or 32 bytes", async () => {
    const keypair = Keypair.generate()
    const expected = keypair.publicKey.toBase58()
    const path = join(dir, "web3.json")
    writeFileSync(path, JSON.stringify(Array.from(keypair.secretKey)))
    const fromSecret = await walletFromSecretKey(keypair.secretKey)
    const fromSeed = await walletFromSecretKey(keypair.secretKey.slice(0, 32))
    expect(fromSecret.address).toBe(expected)
    expect(Redacted.value(fromSeed.secretKey)).toEqual(keypair.secretKey)
    for (
      const signer of [
        keypair.secretKey,
        path,
        fromSecret,
        fromKeypair(keypair),
        await createKeyPairSignerFromBytes(keypair.secretKey)
      ]
    ) {
      expect(await walletAddress(signer)).toBe(expected)
    }
    const bad = await walletFromSecretKey(keypair.secretKey.slice(0, 40)).catch((e: unknown) => e)
    expect(bad).toMatchObject({ tag: "InvalidKey", reason: "wrong_length" })
  })

  it("a generated wallet logs in to the service, and is the same account once saved and loaded", async () => {
    const wallet = await generateWallet()
    await using anonymous = new FeeShare({ baseUrl: sandbox.baseUrl })
    const credential = await anonymous.login(wallet, "generated")
    expect(credential.isSignup).toBe(true)
    await using mine = new FeeShare({ baseUrl: sandbox.baseUrl, apiKey: credential.apiKey })
    expect((await mine.identity.me()).user.uuid).toBeTypeOf("string")
    const path = join(dir, "login.json")
    await saveWallet(wallet, path)
    const again = await anonymous.login(await loadWallet(path), "loaded")
    expect(again.isSignup).toBe(false)
    expect(again.keyId).not.toBe(credential.keyId)
  })
})
