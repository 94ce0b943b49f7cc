import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { LaunchWallet } from "../src/index.js"
import { publicKey } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"

const handle = fc.stringMatching(/^[a-zA-Z0-9_]{1,30}$/)
const provider = fc.constantFrom("social" as const, "email" as const)
const chain = fc.option(fc.constantFrom("SOL" as const, "EVM" as const), { nil: undefined })

describe("LaunchWallet.normalizeUsername", () => {
  it.prop("lower-cases and removes one leading @ (not main); idempotent", [provider, handle, fc.boolean()], (
    [p, username, at]
  ) => {
    const normalized = LaunchWallet.normalizeUsername(p, at ? `@${username}` : username)
    assert.strictEqual(normalized, username.toLowerCase())
    assert.strictEqual(LaunchWallet.normalizeUsername(p, normalized), normalized)
  })

  it.prop("a main username (a public key) is left as it is", [publicKey], ([key]) => {
    assert.strictEqual(LaunchWallet.normalizeUsername("main", key), key)
  })
})

describe("LaunchWallet.Lookup", () => {
  it.prop("is sent normalised", [provider, handle, chain], ([p, username, c]) => {
    const lookup = { provider: p, username: `@${username.toUpperCase()}`, ...(c === undefined ? {} : { chain: c }) }
    const encoded = Schema.encodeSync(LaunchWallet.Lookup)(lookup)
    assert.strictEqual(encoded.username, username.toLowerCase())
    assertValid(LaunchWallet.Lookup, encoded)
  })

  it.prop("main: EVM refused at chain, a username that is no key refused at username", [publicKey, handle], (
    [key, name]
  ) => {
    assertInvalid(
      LaunchWallet.Lookup,
      { encoded: { provider: "main", username: key, chain: "EVM" } },
      "chain",
      LaunchWallet.rules.mainChain
    )
    assertInvalid(
      LaunchWallet.Lookup,
      { encoded: { provider: "main", username: name } },
      "username",
      LaunchWallet.rules.mainUsername
    )
    assertValid(LaunchWallet.Lookup, { provider: "main", username: key })
  })

  it("a username of 0 or 101 characters, or only @, is refused", () => {
    for (const username of ["", "a".repeat(101), "@"]) {
      assertInvalid(
        LaunchWallet.Lookup,
        { encoded: { provider: "social", username } },
        "username",
        LaunchWallet.rules.username
      )
    }
  })
})

describe("LaunchWallet.BulkLookupRequest", () => {
  it.prop("1 to 100 distinct lookups pass; a repeat under normalisation is refused at its index", [
    fc.uniqueArray(handle.map((h) => h.toLowerCase()), { minLength: 1, maxLength: 30 }),
    fc.nat(),
    fc.boolean()
  ], ([handles, pick, explicitSol]) => {
    const items = handles.map((username) => ({ provider: "social" as const, username }))
    assertValid(LaunchWallet.BulkLookupRequest, { items })
    const first = pick % handles.length
    // the same handle, with @ and upper case, and the default chain spelled out or not
    const repeat = {
      provider: "social" as const,
      username: `@${handles[first]!.toUpperCase()}`,
      ...(explicitSol ? { chain: "SOL" as const } : {})
    }
    assertInvalid(
      LaunchWallet.BulkLookupRequest,
      { encoded: { items: [...items, repeat] } },
      `items[${items.length}]`,
      LaunchWallet.rules.duplicate(first)
    )
    // the same handle once per chain is allowed
    assertValid(LaunchWallet.BulkLookupRequest, { items: [...items, { ...repeat, chain: "EVM" }] })
  })

  it("no items, more than 100, or another key is refused", () => {
    const item = { provider: "social", username: "a" }
    assertInvalid(LaunchWallet.BulkLookupRequest, { encoded: { items: [] } }, "items", "must have 1 to 100 entries")
    const many = Array.from({ length: 101 }, (_, i) => ({ provider: "social", username: `u${i}` }))
    assertInvalid(LaunchWallet.BulkLookupRequest, { encoded: { items: many } }, "items", "must have 1 to 100 entries")
    assertInvalid(
      LaunchWallet.BulkLookupRequest,
      { encoded: { items: [item], more: 1 } },
      "more",
      "is unexpected, expected: \"items\""
    )
    assertInvalid(
      LaunchWallet.BulkLookupRequest,
      { encoded: { items: [{ ...item, extra: 1 }] } },
      "items[0].extra",
      "is unexpected, expected: \"username\" | \"provider\" | \"chain\""
    )
  })
})

describe("LaunchWallet answers", () => {
  it("a wallet must be an address of its chain", () => {
    const platformData = { id: "1", username: "a", display_name: "A", avatar_url: "" }
    const decode = Schema.decodeUnknownEither(LaunchWallet.LaunchWallet)
    assert.isTrue(
      decode({ provider: "social", platformData, wallet: "0x" + "ab".repeat(20), chain: "EVM" })._tag === "Right"
    )
    assert.isTrue(
      decode({ provider: "social", platformData, wallet: "0x" + "ab".repeat(20), chain: "SOL" })._tag === "Left"
    )
    const bulk = Schema.decodeUnknownEither(LaunchWallet.BulkLaunchWallets)
    assert.isTrue(
      bulk([{ username: "a", provider: "social", platformData: null, wallet: null, chain: "SOL" }])._tag === "Right"
    )
  })
})
