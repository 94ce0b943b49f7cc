/**
 * Conformance with the service's public reference: one row per operation, with the status set
 * the reference documents (or, where it documents none, the set the sandbox emits, marked as
 * such). Every case is a real request to the whole sandbox; its answer must have the expected
 * status, that status must be in the row's set, and the answer must decode with the domain
 * schemas the client uses (a success as the endpoint's success, a failure as the typed error
 * of its status).
 */
import { assert, describe, it } from "@effect/vitest"
import { Api, Envelope, FeeShare, TokenInfo } from "@feeshare/domain"
import {
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
  type Signature
} from "@solana/kit"
import { Context, Effect, Either, Option, Redacted } from "effect"
import { NATIVE_MINT } from "../src/internal/model/programs.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import { type Call, call, decodeSuccess, endpoint, type Reply } from "./support/http.js"
import { makeWallet, signIn } from "./support/wallet.js"

const SOL = 1_000_000_000n

/** Where a row's status set comes from. */
type Source =
  | {
    readonly _tag: "reference"
    readonly statuses: ReadonlyArray<number>
    readonly beyond?: { readonly status: number; readonly why: string }
  }
  | { readonly _tag: "sandbox"; readonly statuses: ReadonlyArray<number> }

interface Fixture {
  readonly creator: KeyPairSigner
  readonly claimer: KeyPairSigner
  readonly partner: KeyPairSigner
  readonly stranger: string
  readonly mint: string
  readonly unlaunched: { readonly mint: string; readonly configKey: string }
  readonly quote: unknown
  readonly evmHolder: string
}

interface Case {
  readonly status: number
  readonly call: Call
}

interface Row {
  readonly group: string
  readonly name: string
  readonly source: Source
  readonly cases: (f: Fixture) => ReadonlyArray<Case>
}

const reference = (...statuses: ReadonlyArray<number>): Source => ({ _tag: "reference", statuses })
const sandboxEmits = (...statuses: ReadonlyArray<number>): Source => ({ _tag: "sandbox", statuses })
const noKey = (call: Call): Case => ({ status: 401, call: { ...call, apiKey: null } })

/** A PNG by its signature (the sandbox reads the type from the first bytes), `size` bytes long. */
const png = (size: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(size).fill(1)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

/** A token-info form: the text fields, then `extra` (a File for the image part). */
const tokenForm = (extra: Record<string, string | File>) => {
  const form = new FormData()
  const fields: Record<string, string | File> = { name: "Conformance", symbol: "conf", description: "A row", ...extra }
  for (const [key, value] of Object.entries(fields)) form.append(key, value)
  return form
}

const table: ReadonlyArray<Row> = [
  {
    group: "claims",
    name: "createPlan",
    source: sandboxEmits(200, 400, 401, 404, 500),
    cases: (f) => {
      const ok = { body: { feeClaimer: f.claimer.address, tokenMint: f.mint, transactionFormat: "v1" } }
      return [
        { status: 200, call: ok },
        { status: 400, call: { body: { feeClaimer: f.stranger, tokenMint: f.mint } } },
        { status: 404, call: { body: { feeClaimer: f.claimer.address, tokenMint: f.stranger } } },
        noKey(ok)
      ]
    }
  },
  {
    group: "claims",
    name: "positions",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { wallet: f.claimer.address } } },
      { status: 400, call: { query: { wallet: "not-a-key" } } },
      noKey({ query: { wallet: f.claimer.address } })
    ]
  },
  {
    group: "claims",
    name: "vaults",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { wallet: f.partner.address } } },
      { status: 400, call: { query: {} } },
      noKey({ query: { wallet: f.partner.address } })
    ]
  },
  {
    group: "claims",
    name: "claimVault",
    source: reference(200, 400, 401, 500),
    cases: (f) => {
      const ok = { body: { kind: "partner", wallet: f.partner.address, quoteMint: NATIVE_MINT } }
      return [
        { status: 200, call: ok },
        // nothing to claim
        { status: 400, call: { body: { kind: "partner", wallet: f.stranger, quoteMint: NATIVE_MINT } } },
        { status: 400, call: { body: { wallet: f.partner.address, quoteMint: NATIVE_MINT } } },
        noKey(ok)
      ]
    }
  },
  {
    group: "claims",
    name: "deployerPositions",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { wallet: f.creator.address } } },
      { status: 400, call: { query: { wallet: "not-a-key" } } },
      noKey({ query: { wallet: f.creator.address } })
    ]
  },
  {
    group: "claims",
    name: "deployerClaim",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      // nothing to claim
      { status: 400, call: { body: { wallet: f.stranger } } },
      { status: 400, call: { body: { wallet: f.creator.address, maxTransactions: 0 } } },
      noKey({ body: { wallet: f.creator.address } })
    ]
  },
  {
    group: "claims",
    name: "claimV3",
    source: reference(200, 400, 401, 500),
    cases: (f) => {
      const ok = { body: { feeClaimer: f.claimer.address, tokenMint: f.mint } }
      return [
        { status: 200, call: ok },
        // nothing to claim; an unknown token; a missing field
        { status: 400, call: { body: { feeClaimer: f.stranger, tokenMint: f.mint } } },
        { status: 400, call: { body: { feeClaimer: f.claimer.address, tokenMint: f.stranger } } },
        { status: 400, call: { body: { feeClaimer: f.claimer.address } } },
        noKey(ok)
      ]
    }
  },
  {
    group: "feeShare",
    name: "createConfig",
    source: reference(200, 400, 401, 500),
    cases: (f) => {
      const body = {
        payer: f.creator.address,
        baseMint: f.unlaunched.mint,
        claimersArray: [f.creator.address, f.claimer.address],
        basisPointsArray: [6_000, 4_000]
      }
      // eight distinct keys: more than 7 claimers need lookup tables
      const eight = [
        f.creator.address,
        f.claimer.address,
        f.partner.address,
        f.stranger,
        f.mint,
        f.unlaunched.mint,
        f.unlaunched.configKey,
        "11111111111111111111111111111111"
      ]
      return [
        { status: 200, call: { body } },
        {
          status: 200,
          call: { body: { ...body, platformConfigType: FeeShare.configTypes.locked96, tipWallet: null } }
        },
        { status: 400, call: { body: { ...body, basisPointsArray: [6_000, 3_000] } } },
        { status: 400, call: { body: { ...body, partner: f.partner.address } } },
        { status: 400, call: { body: { ...body, platformConfigType: "96-percent-locked" } } },
        {
          status: 400,
          call: { body: { ...body, claimersArray: eight, basisPointsArray: eight.map(() => 1_250) } }
        },
        { status: 400, call: { body: { ...body, memo: "unknown field" } } },
        { status: 400, call: { body: { ...body, baseMint: f.mint } } },
        { status: 400, call: { body: { ...body, baseMint: f.stranger } } },
        noKey({ body })
      ]
    }
  },
  {
    group: "feeShare",
    name: "updateConfig",
    source: reference(200, 400, 401, 500),
    cases: (f) => {
      const body = {
        baseMint: f.mint,
        basisPointsArray: [10_000],
        claimersArray: [f.creator.address],
        payer: f.creator.address
      }
      return [
        { status: 200, call: { body } },
        { status: 200, call: { body: { ...body, additionalLookupTables: null } } },
        { status: 400, call: { body: { ...body, payer: f.stranger } } },
        { status: 400, call: { body: { ...body, memo: "unknown field" } } },
        { status: 400, call: { body: { ...body, baseMint: f.stranger } } },
        noKey({ body })
      ]
    }
  },
  {
    group: "feeShare",
    name: "partnerClaim",
    source: reference(200, 400, 401, 404, 500),
    cases: (f) => [
      { status: 200, call: { body: { partnerWallet: f.partner.address } } },
      { status: 400, call: { body: { partnerWallet: "not-a-key" } } },
      { status: 404, call: { body: { partnerWallet: f.stranger } } },
      noKey({ body: { partnerWallet: f.partner.address } })
    ]
  },
  {
    group: "feeShare",
    name: "adminList",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { wallet: f.creator.address } } },
      { status: 400, call: { query: { wallet: "x" } } },
      noKey({ query: { wallet: f.creator.address } })
    ]
  },
  {
    group: "launch",
    name: "createTransaction",
    source: sandboxEmits(200, 400, 401, 404, 500),
    cases: (f) => {
      const body = {
        ipfs: "ipfs://conformance",
        tokenMint: f.unlaunched.mint,
        wallet: f.creator.address,
        configKey: f.unlaunched.configKey,
        initialBuyLamports: 0
      }
      const { initialBuyLamports: _, ...withoutInitialBuy } = body
      return [
        { status: 200, call: { body } },
        // the service requires initialBuyLamports (0 allowed)
        { status: 400, call: { body: withoutInitialBuy } },
        { status: 400, call: { body: { ...body, wallet: f.stranger } } },
        { status: 404, call: { body: { ...body, tokenMint: f.stranger } } },
        noKey({ body })
      ]
    }
  },
  {
    group: "launch",
    name: "createTokenInfo",
    source: reference(200, 400, 401, 413, 500),
    cases: () => [
      { status: 200, call: { form: tokenForm({ imageUrl: "https://images.example/c.png" }) } },
      { status: 200, call: { form: tokenForm({ image: new File([png(256)], "c.png", { type: "image/png" }) }) } },
      {
        status: 200,
        call: { form: tokenForm({ imageUrl: "https://i.example/c.png", metadataUrl: "https://m.example/c.json" }) }
      },
      // the type is read from the bytes, not the name or the declared type
      {
        status: 400,
        call: { form: tokenForm({ image: new File(["plain text"], "c.png", { type: "image/png" }) }) }
      },
      // image + metadataUrl: the spec's oneOf refuses it
      {
        status: 400,
        call: {
          form: tokenForm({
            image: new File([png(64)], "c.png", { type: "image/png" }),
            metadataUrl: "https://m.example/c.json"
          })
        }
      },
      // a form, not JSON
      { status: 400, call: { body: { name: "c", symbol: "c", description: "c", imageUrl: "https://i.example/c" } } },
      {
        status: 413,
        call: {
          form: tokenForm({
            image: new File([png(TokenInfo.limits.maxImageBytes + 1)], "c.png", { type: "image/png" })
          })
        }
      },
      noKey({ form: tokenForm({ imageUrl: "https://images.example/c.png" }) })
    ]
  },
  {
    group: "launch",
    name: "wallet",
    source: reference(200, 400, 401, 404, 500),
    cases: (f) => [
      { status: 200, call: { query: { provider: "social", username: "@sandbox_alice" } } },
      { status: 200, call: { query: { provider: "social", username: "sandbox_alice", chain: "EVM" } } },
      { status: 200, call: { query: { provider: "main", username: f.stranger } } },
      { status: 400, call: { query: { provider: "main", username: f.stranger, chain: "EVM" } } },
      { status: 400, call: { query: { provider: "myspace", username: "x" } } },
      { status: 404, call: { query: { provider: "social", username: "nobody_at_all" } } },
      noKey({ query: { provider: "social", username: "sandbox_alice" } })
    ]
  },
  {
    group: "launch",
    name: "wallets",
    source: reference(200, 400, 401, 500),
    cases: () => {
      const items = [{ provider: "social", username: "sandbox_bob" }, { provider: "email", username: "nobody@x.test" }]
      return [
        { status: 200, call: { body: { items } } },
        { status: 400, call: { body: { items: [...items, { provider: "social", username: "@SANDBOX_BOB" }] } } },
        { status: 400, call: { body: { items: [] } } },
        { status: 400, call: { body: { items, extra: 1 } } },
        noKey({ body: { items } })
      ]
    }
  },
  {
    group: "trade",
    name: "quote",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => {
      const query = { inputMint: NATIVE_MINT, outputMint: f.mint, amount: String(SOL) }
      return [
        { status: 200, call: { query } },
        // slippageBps is accepted (and ignored) in auto mode, as the service does
        { status: 200, call: { query: { ...query, slippageMode: "auto", slippageBps: "50" } } },
        { status: 400, call: { query: { ...query, slippageMode: "manual" } } },
        noKey({ query })
      ]
    }
  },
  {
    group: "trade",
    name: "swap",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { body: { quoteResponse: f.quote, userPublicKey: f.claimer.address } } },
      { status: 400, call: { body: { quoteResponse: f.quote, userPublicKey: "x" } } },
      noKey({ body: { quoteResponse: f.quote, userPublicKey: f.claimer.address } })
    ]
  },
  {
    group: "analytics",
    name: "lifetimeFees",
    source: {
      _tag: "reference",
      statuses: [200, 400, 500],
      beyond: {
        status: 401,
        why: "the sandbox asks a key of every operation but agent auth; whether this one is public is not documented"
      }
    },
    cases: (f) => [
      { status: 200, call: { query: { tokenMint: f.mint } } },
      // unknown or not launched: 400 `token launch not found`, not 404
      { status: 400, call: { query: { tokenMint: f.stranger } } },
      { status: 400, call: { query: { tokenMint: f.unlaunched.mint } } },
      noKey({ query: { tokenMint: f.mint } })
    ]
  },
  {
    group: "analytics",
    name: "claimStats",
    source: reference(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { tokenMint: f.mint } } },
      { status: 400, call: { query: { tokenMint: f.stranger } } },
      { status: 400, call: { query: { tokenMint: f.unlaunched.mint } } },
      noKey({ query: { tokenMint: f.mint } })
    ]
  },
  {
    group: "analytics",
    name: "claimEvents",
    source: reference(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { tokenMint: f.mint } } },
      { status: 200, call: { query: { tokenMint: f.mint, mode: "time", from: "0", to: "4102444800" } } },
      { status: 400, call: { query: { tokenMint: f.stranger } } },
      { status: 400, call: { query: { tokenMint: f.mint, limit: "0" } } },
      { status: 400, call: { query: { tokenMint: f.mint, mode: "time", from: "10" } } },
      noKey({ query: { tokenMint: f.mint } })
    ]
  },
  {
    group: "analytics",
    name: "pools",
    source: sandboxEmits(200, 400, 401, 500),
    cases: () => [
      { status: 200, call: {} },
      { status: 200, call: { query: { onlyMigrated: "1" } } },
      { status: 400, call: { query: { onlyMigrated: "yes" } } },
      noKey({})
    ]
  },
  {
    group: "evm",
    name: "indexTokenStatus",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { body: { tokenAddresses: [f.evmHolder] } } },
      { status: 400, call: { body: { tokenAddresses: [] } } },
      noKey({ body: { tokenAddresses: [f.evmHolder] } })
    ]
  },
  {
    group: "evm",
    name: "claimablePositions",
    source: sandboxEmits(200, 400, 401, 500),
    cases: (f) => [
      { status: 200, call: { query: { owner: f.evmHolder.toLowerCase() } } },
      { status: 400, call: { query: { owner: "0x12" } } },
      noKey({ query: { owner: f.evmHolder } })
    ]
  },
  {
    group: "evm",
    name: "creationFee",
    source: sandboxEmits(200, 401, 500),
    cases: () => [{ status: 200, call: {} }, noKey({})]
  },
  {
    group: "identity",
    name: "me",
    source: reference(200, 401, 404, 500),
    cases: () => [{ status: 200, call: {} }, noKey({}), { status: 401, call: { apiKey: "fs_sbx_revoked-or-unknown" } }]
  },
  {
    group: "agentAuth",
    name: "init",
    source: sandboxEmits(200, 400, 429, 500),
    cases: (f) => [
      { status: 200, call: { apiKey: null, body: { address: f.stranger } } },
      { status: 400, call: { apiKey: null, body: { address: "x" } } }
    ]
  },
  {
    group: "agentAuth",
    name: "callback",
    source: sandboxEmits(200, 400, 429, 500),
    cases: (f) => [
      { status: 400, call: { apiKey: null, body: { authCode: "unknown", keyName: "k" } } },
      { status: 400, call: { apiKey: null, body: { signature: "1", address: f.stranger, nonce: "n", keyName: "k" } } }
    ]
  },
  {
    group: "system",
    name: "ping",
    source: sandboxEmits(200, 500),
    cases: () => [{ status: 200, call: {} }]
  }
]

/** The statuses a row allows: its set, plus the one documented exception. */
const allowed = (source: Source): ReadonlyArray<number> =>
  source._tag === "reference" && source.beyond !== undefined
    ? [...source.statuses, source.beyond.status]
    : source.statuses

const errorTagOf: Record<number, string> = {
  400: "BadRequest",
  413: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  429: "RateLimited",
  500: "ServerError"
}

/** The answer decoded as the client decodes it: the success schema, or the typed error of the status. */
const assertDecodes = (row: Row, reply: Reply, label: string) => {
  const operation = Api.operationName(row.group, row.name)
  if (row.group === "system") {
    // ping answers without an envelope
    assert.deepStrictEqual(reply.json, { message: "pong" }, label)
    return
  }
  if (reply.status < 300) {
    decodeSuccess(row.group, row.name, reply)
    return
  }
  // the statuses an endpoint names answer `{success:false, response}`; the others `{success:false, error}`
  const inResponse = Option.getOrElse(
    Context.getOption(endpoint(row.group, row.name).annotations, Api.MessageInResponse),
    (): ReadonlyArray<number> => []
  )
  if (row.group !== "evm" && reply.status !== 429) {
    const key = inResponse.includes(reply.status) ? "response" : "error"
    assert.property(reply.json, key, `${label}: the message is in \`${key}\``)
  }
  const decoded = Envelope.decode(endpoint(row.group, row.name).successSchema, reply.text, {
    status: reply.status,
    operation
  })
  assert.isTrue(Either.isLeft(decoded), `${label}: a failure decodes as a failure`)
  if (Either.isLeft(decoded)) {
    assert.strictEqual(decoded.left._tag, errorTagOf[reply.status], `${label}: ${decoded.left.message}`)
  }
}

/** Co-signs and sends through Kit's RPC client at /rpc; asserts it landed. */
const sendSigned = (rpcUrl: string, text: string, signer: KeyPairSigner) =>
  Effect.promise(async () => {
    const rpc = createSolanaRpc(rpcUrl)
    const signed = await partiallySignTransaction(
      [signer.keyPair],
      getTransactionDecoder().decode(getBase58Encoder().encode(text))
    )
    const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send()
    const { value: [status] } = await rpc.getSignatureStatuses([signature as Signature]).send()
    assert.isNull(status?.err ?? null, `landed: ${JSON.stringify(status?.err)}`)
  })

const response = <A>(reply: Reply): A => (reply.json as { response: A }).response

/** A launched token with a partner and fees accrued to a claimer and the partner, and an unlaunched one. */
const fixture = Effect.gen(function*() {
  const info = yield* Server.SandboxInfo
  const [creator, claimer, partner, stranger] = yield* Effect.promise(() =>
    Promise.all([generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner(), generateKeyPairSigner()])
  )
  for (const wallet of [creator, claimer, partner]) {
    yield* call("sandbox", "airdrop", { apiKey: null, body: { address: wallet.address, lamports: String(100n * SOL) } })
  }
  const created = response<{ mint: string; configKey: string }>(
    yield* call("sandbox", "createToken", { apiKey: null, body: { creator: creator.address } })
  )
  yield* call("sandbox", "createFeeShareConfig", {
    apiKey: null,
    body: {
      mint: created.mint,
      admin: creator.address,
      partner: partner.address,
      claimers: [{ wallet: creator.address, bps: 5_000 }, { wallet: claimer.address, bps: 5_000 }]
    }
  })
  const launch = yield* call("launch", "createTransaction", {
    body: {
      ipfs: "ipfs://c",
      tokenMint: created.mint,
      wallet: creator.address,
      configKey: created.configKey,
      initialBuyLamports: 0
    }
  })
  yield* sendSigned(info.rpcUrl, response<string>(launch), creator)
  const quoted = yield* call("trade", "quote", {
    query: { inputMint: NATIVE_MINT, outputMint: created.mint, amount: String(5n * SOL) }
  })
  const swap = yield* call("trade", "swap", {
    body: { quoteResponse: response(quoted), userPublicKey: claimer.address }
  })
  yield* sendSigned(info.rpcUrl, response<{ swapTransaction: string }>(swap).swapTransaction, claimer)
  const unlaunched = response<{ mint: string; configKey: string }>(
    yield* call("sandbox", "createToken", { apiKey: null, body: { creator: creator.address } })
  )
  const evm = response<{ holder: string }>(yield* call("sandbox", "evmFixtures", { apiKey: null }))
  const fresh = yield* call("trade", "quote", {
    query: { inputMint: NATIVE_MINT, outputMint: created.mint, amount: String(SOL) }
  })
  const f: Fixture = {
    creator,
    claimer,
    partner,
    stranger: stranger.address,
    mint: created.mint,
    unlaunched,
    quote: response(fresh),
    evmHolder: evm.holder
  }
  return f
})

describe("Conformance with the public reference", () => {
  it("the table has one row per operation of the contract", () => {
    const operations = Object.values(Api.Api.groups).flatMap((group) =>
      Object.values(group.endpoints).map((e) => Api.operationName(group.identifier, e.name))
    )
    assert.deepStrictEqual(table.map((row) => Api.operationName(row.group, row.name)).sort(), [...operations].sort())
  })

  it.effect(
    "every case answers its status, inside the row's status set, and decodes as the client decodes it",
    () =>
      Effect.gen(function*() {
        const f = yield* fixture
        const seen: Array<string> = []
        for (const row of table) {
          for (const [i, c] of row.cases(f).entries()) {
            const label = `${row.group}.${row.name} case ${i}`
            const reply = yield* call(row.group, row.name, c.call)
            assert.strictEqual(reply.status, c.status, `${label}: ${reply.text}`)
            assert.include(allowed(row.source), reply.status, `${label}: ${reply.status} is outside the row's set`)
            assertDecodes(row, reply, label)
            seen.push(`${row.group}.${row.name} ${reply.status}`)
          }
        }
        // the MFA callback success and a login are covered by AgentAuth.test.ts; one here too
        const wallet = yield* makeWallet
        const { reply } = yield* signIn(wallet, "conformance")
        assert.strictEqual(reply.status, 200)
        assertDecodes(table.find((row) => row.name === "callback")!, reply, "agentAuth.callback login")
        assert.isAbove(seen.length, 50)
      }).pipe(Effect.provide(Sandbox.layer({ seed: "conformance", slotMillis: 0 }))),
    { timeout: 30_000 }
  )

  it.effect("an injected 500 on every operation is in its set and decodes as ServerError", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      for (const row of table) {
        if (row.group === "system") continue
        const reply = yield* call(row.group, row.name, { apiKey: Redacted.value(info.demoApiKey) })
        assert.strictEqual(reply.status, 500, `${row.group}.${row.name}: ${reply.text}`)
        assert.include(allowed(row.source), 500)
        assertDecodes(row, reply, `${row.group}.${row.name} injected 500`)
      }
    }).pipe(Effect.provide(Sandbox.layer({ seed: "conformance-500", slotMillis: 0, errorRates: { 500: 1 } }))))
})
