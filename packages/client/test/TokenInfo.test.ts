/**
 * Token info and launch wallets by social handle through the client against the real
 * sandbox: the multipart upload (the image's type read from its bytes, the 15 MB limit of
 * this route only), the media the sandbox serves, the mint it makes and keeps (a launch of it
 * comes signed by the mint, lands on the ledger once, and is refused the second time), the
 * handle directory (404 on a miss, nulls in input order in bulk) and the failure bodies of
 * these operations, which carry their message in `response`.
 *
 * One sandbox for the file; every test makes its own tokens, wallets and handles.
 */
import { HttpApiClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { Api, Envelope, FeeShareError, LaunchWallet, TokenInfo } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as SandboxApi from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as Flows from "@feeshare/solana/Flows"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Either, Layer, Redacted, Schema } from "effect"
import { FeeShareClient } from "../src/index.js"

const SOL = 1_000_000_000n

const client = Effect.flatMap(
  SandboxInfo,
  (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
)

const setup = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi.SandboxApi, { baseUrl: info.rootUrl }), (c) => c.sandbox)
)

const undici = Effect.provide(NodeHttpClient.layerUndici)

/** A PNG by its signature, then `size - 8` bytes of body (the sandbox reads the type, not the pixels). */
const png = (size = 64): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(size).fill(7)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

const fields = { name: "Token Info", symbol: "$tinf", description: "Made by the token-info operation" }

/** A raw multipart POST of the token-info route (what a client that skips the checks would send). */
const rawTokenInfo = (form: FormData) =>
  Effect.flatMap(SandboxInfo, (info) =>
    Effect.promise(async () => {
      const response = await fetch(`${info.rootUrl}${Api.LaunchGroup.endpoints.createTokenInfo.path}`, {
        method: "POST",
        headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) },
        body: form
      })
      return { status: response.status, text: await response.text() }
    }))

const rawJson = (method: "GET" | "POST", path: string, body?: unknown) =>
  Effect.flatMap(SandboxInfo, (info) =>
    Effect.promise(async () => {
      const response = await fetch(`${info.rootUrl}${path}`, {
        method,
        headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey), "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, text: await response.text() }
    }))

const fetched = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      bytes: new Uint8Array(await response.arrayBuffer())
    }
  })

const formOf = (entries: Record<string, string | Blob>) => {
  const form = new FormData()
  for (const [key, value] of Object.entries(entries)) form.append(key, value)
  return form
}

const decodeFailure = (operation: string, reply: { status: number; text: string }) =>
  // a failure envelope is classified before any success schema is read
  Envelope.decode(Schema.Unknown, reply.text, { status: reply.status, operation })

describe("token info and launch wallets against the sandbox", () => {
  layer(Sandbox.layer({ port: 0, slotMillis: 0, seed: "client-token-info" }), { excludeTestServices: true })((it) => {
    it.scoped("createTokenInfo uploads an image; the metadata and the image are served; the symbol is normalised", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const image = png(4096)
        const info = yield* feeshare.launch.createTokenInfo({
          ...fields,
          image: { bytes: image, filename: "logo.bin" },
          website: "https://example.com/token",
          telegram: null
        })
        assert.strictEqual(info.tokenLaunch.status, "PRE_LAUNCH")
        assert.strictEqual(info.tokenLaunch.symbol, "TINF")
        assert.strictEqual(info.tokenLaunch.tokenMint, info.tokenMint)
        assert.isNull(info.tokenLaunch.launchWallet)
        assert.strictEqual(info.tokenLaunch.uri, info.tokenMetadata)

        const metadata = yield* fetched(info.tokenMetadata)
        assert.strictEqual(metadata.status, 200)
        assert.deepStrictEqual(JSON.parse(new TextDecoder().decode(metadata.bytes)), {
          name: fields.name,
          symbol: "TINF",
          description: fields.description,
          image: info.tokenLaunch.image,
          website: "https://example.com/token"
        })
        const served = yield* fetched(info.tokenLaunch.image)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.contentType, "image/png")
        assert.deepStrictEqual(served.bytes, image)
      }).pipe(undici))

    it.scoped("createTokenInfo with imageUrl and metadataUrl: the service uses both unchanged", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const info = yield* feeshare.launch.createTokenInfo({
          ...fields,
          imageUrl: "https://images.example/token.webp",
          metadataUrl: "https://metadata.example/token.json"
        })
        assert.strictEqual(info.tokenMetadata, "https://metadata.example/token.json")
        assert.strictEqual(info.tokenLaunch.image, "https://images.example/token.webp")
        // no uploaded image to serve
        const info2 = yield* feeshare.launch.createTokenInfo({ ...fields, imageUrl: "https://images.example/a.gif" })
        const metadata = yield* fetched(info2.tokenMetadata)
        assert.strictEqual(metadata.status, 200)
        assert.strictEqual(JSON.parse(new TextDecoder().decode(metadata.bytes)).image, "https://images.example/a.gif")
      }).pipe(undici))

    it.scoped("the client refuses before sending: image type by magic bytes, size, combinations, lengths", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const refused = (input: Parameters<typeof feeshare.launch.createTokenInfo>[0]) =>
          Effect.flip(feeshare.launch.createTokenInfo(input))
        const text = new TextEncoder().encode("not an image, whatever the name says")
        const wrongType = yield* refused({ ...fields, image: { bytes: text, filename: "logo.png" } })
        assert.strictEqual(wrongType._tag, "InvalidRequest")
        assert.deepInclude(wrongType, { field: "image.bytes", rule: TokenInfo.rules.imageType })
        const tooLarge = yield* refused({ ...fields, image: { bytes: png(TokenInfo.limits.maxImageBytes + 1) } })
        assert.deepInclude(tooLarge, { field: "image.bytes", rule: TokenInfo.rules.imageSize })
        const both = yield* refused({ ...fields, image: { bytes: png() }, metadataUrl: "https://m.example/x.json" })
        assert.deepInclude(both, { field: "metadataUrl", rule: TokenInfo.rules.metadataWithFile })
        const neither = yield* refused(fields)
        assert.deepInclude(neither, { field: "image", rule: TokenInfo.rules.imageOrUrl })
        const symbol = yield* refused({ ...fields, symbol: "$ELEVENCHARS", imageUrl: "https://i.example/a.png" })
        assert.deepInclude(symbol, { field: "symbol", rule: TokenInfo.rules.symbol })
        const name = yield* refused({ ...fields, name: "n".repeat(33), imageUrl: "https://i.example/a.png" })
        assert.deepInclude(name, { field: "name", rule: TokenInfo.rules.name })
        const link = yield* refused({ ...fields, imageUrl: "https://i.example/a.png", social: "javascript:alert(1)" })
        assert.deepInclude(link, { field: "social", rule: TokenInfo.rules.url })
      }).pipe(undici))

    it.scoped("the sandbox reads the type from the bytes (400) and answers 413 over 15 MB, on this route only", () =>
      Effect.gen(function*() {
        const operation = Api.operationName("launch", "createTokenInfo")
        // a text file declared as a PNG
        const disguised = yield* rawTokenInfo(formOf({
          ...fields,
          image: new File([new TextEncoder().encode("GIF? no: plain text")], "logo.png", { type: "image/png" })
        }))
        assert.strictEqual(disguised.status, 400, disguised.text)
        assert.include(disguised.text, TokenInfo.rules.imageType)
        // a WebP declared as text is a WebP
        const webp = new Uint8Array(32)
        webp.set(new TextEncoder().encode("RIFF"), 0)
        webp.set(new TextEncoder().encode("WEBP"), 8)
        const accepted = yield* rawTokenInfo(
          formOf({ ...fields, image: new File([webp], "x.txt", { type: "text/plain" }) })
        )
        assert.strictEqual(accepted.status, 200, accepted.text)

        const huge = yield* rawTokenInfo(formOf({
          ...fields,
          image: new File([png(TokenInfo.limits.maxImageBytes + 1).slice()], "big.png", { type: "image/png" })
        }))
        assert.strictEqual(huge.status, 413)
        const decoded = decodeFailure(operation, huge)
        assert.isTrue(Either.isLeft(decoded))
        if (Either.isLeft(decoded)) {
          assert.strictEqual(decoded.left._tag, "BadRequest")
          assert.strictEqual(decoded.left.message, TokenInfo.imageTooLargeMessage)
        }
        // exactly the limit is taken
        const atLimit = yield* rawTokenInfo(formOf({
          ...fields,
          image: new File([png(TokenInfo.limits.maxImageBytes)], "limit.png", { type: "image/png" })
        }))
        assert.strictEqual(atLimit.status, 200, atLimit.text.slice(0, 200))

        // another route keeps its JSON body cap: 2 MB of JSON is a 413 there
        const json = yield* rawJson("POST", Api.LaunchGroup.endpoints.wallets.path, {
          items: [{ username: "x".repeat(2_000_000), provider: "social" }]
        })
        assert.strictEqual(json.status, 413)
        // and the form is refused where JSON is expected
        const form = yield* Effect.flatMap(
          SandboxInfo,
          (info) =>
            Effect.promise(async () =>
              (await fetch(`${info.rootUrl}${Api.LaunchGroup.endpoints.wallets.path}`, {
                method: "POST",
                headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) },
                body: formOf({ items: "[]" })
              })).status
            )
        )
        assert.strictEqual(form, 400)
      }).pipe(undici))

    it.scoped("the mint made by token info launches once: signed by the mint, landed, then refused", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const sandbox = yield* setup
        const info = yield* feeshare.launch.createTokenInfo({ ...fields, image: { bytes: png() } })
        const wallet = yield* LocalSigner.generate
        yield* sandbox.airdrop({ payload: { address: wallet.publicKey, lamports: 10n * SOL } })
        const state = yield* sandbox.state()
        const token = state.tokens.find((t) => t.mint === info.tokenMint)
        assert.isDefined(token)
        assert.isFalse(token?.launched)
        const configKey = String(token?.configKey)
        const request = {
          ipfs: info.tokenMetadata,
          tokenMint: info.tokenMint,
          wallet: wallet.publicKey,
          configKey,
          initialBuyLamports: 0
        }
        const transaction = yield* feeshare.launch.createTransaction(request)
        // verifyLaunch checks the mint's signature is present and valid before the wallet signs
        const rpcUrl = (yield* SandboxInfo).rpcUrl
        const onChain = Layer.merge(Signers.layer(wallet), ChainRpc.layer(rpcUrl, { pollInterval: "5 millis" }))
        const sent = yield* Flows.launch(transaction, { commitment: "processed", mint: info.tokenMint }).pipe(
          Effect.provide(onChain)
        )
        assert.isString(sent.signature)
        const after = (yield* sandbox.state()).tokens.find((t) => t.mint === info.tokenMint)
        assert.isTrue(after?.launched)
        assert.strictEqual(after?.creator, wallet.publicKey)

        const again = yield* Effect.flip(feeshare.launch.createTransaction(request))
        assert.strictEqual(again._tag, "BadRequest")
        assert.include(again.message, "already launched")
      }).pipe(undici))

    it.scoped("wallet: seeded and registered handles, normalised; a miss is a NotFound read from `response`", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const sandbox = yield* setup
        const alice = yield* feeshare.launch.wallet({ provider: "social", username: "@Sandbox_Alice" })
        assert.strictEqual(alice.chain, "SOL")
        assert.strictEqual(alice.platformData.username, "sandbox_alice")
        const evm = yield* feeshare.launch.wallet({ provider: "social", username: "sandbox_alice", chain: "EVM" })
        assert.match(evm.wallet, /^0x[0-9a-fA-F]{40}$/)

        const owner = yield* LocalSigner.generate
        yield* sandbox.registerHandle({
          payload: { provider: "email", username: "Dev@Example.COM", wallet: owner.publicKey }
        })
        const registered = yield* feeshare.launch.wallet({ provider: "email", username: "dev@example.com" })
        assert.strictEqual(registered.wallet, owner.publicKey)
        const passthrough = yield* feeshare.launch.wallet({ provider: "main", username: owner.publicKey })
        assert.strictEqual(passthrough.wallet, owner.publicKey)

        const miss = yield* Effect.flip(feeshare.launch.wallet({ provider: "social", username: "nobody_here" }))
        assert.instanceOf(miss, FeeShareError.NotFound)
        assert.strictEqual(miss.message, "platform data or wallet not found")
        // the body is the third shape: the message in `response`
        const raw = yield* rawJson(
          "GET",
          `${Api.LaunchGroup.endpoints.wallet.path}?provider=social&username=nobody_here`
        )
        assert.deepStrictEqual(JSON.parse(raw.text), { success: false, response: "platform data or wallet not found" })

        const mainOnEvm = yield* Effect.flip(
          feeshare.launch.wallet({ provider: "main", username: owner.publicKey, chain: "EVM" })
        )
        assert.deepInclude(mainOnEvm, { _tag: "InvalidRequest", field: "chain", rule: LaunchWallet.rules.mainChain })
      }).pipe(undici))

    it.scoped("wallets: nulls for misses in input order; a duplicate triple is refused (client and a 400 in `response`)", () =>
      Effect.gen(function*() {
        const feeshare = yield* client
        const found = yield* feeshare.launch.wallets({
          items: [
            { provider: "social", username: "nobody_1" },
            { provider: "social", username: "@SANDBOX_BOB" },
            { provider: "social", username: "sandbox_bob", chain: "EVM" },
            { provider: "email", username: "nobody@example.com" }
          ]
        })
        assert.deepStrictEqual(found.map((entry) => [entry.username, entry.chain, entry.wallet === null]), [
          ["nobody_1", "SOL", true],
          ["sandbox_bob", "SOL", false],
          ["sandbox_bob", "EVM", false],
          ["nobody@example.com", "SOL", true]
        ])
        assert.isNull(found[0]?.platformData)
        assert.strictEqual(found[1]?.platformData?.username, "sandbox_bob")

        const duplicate = yield* Effect.flip(feeshare.launch.wallets({
          items: [{ provider: "social", username: "Sandbox_Bob" }, {
            provider: "social",
            username: "@sandbox_bob",
            chain: "SOL"
          }]
        }))
        assert.deepInclude(duplicate, {
          _tag: "InvalidRequest",
          field: "items[1]",
          rule: LaunchWallet.rules.duplicate(0)
        })

        const raw = yield* rawJson("POST", Api.LaunchGroup.endpoints.wallets.path, {
          items: [{ provider: "social", username: "bob" }, { provider: "social", username: "@BOB" }]
        })
        assert.strictEqual(raw.status, 400)
        const body = JSON.parse(raw.text)
        assert.isFalse(body.success)
        assert.notProperty(body, "error")
        assert.include(body.response, "repeats items[0]")
        const decoded = decodeFailure(Api.operationName("launch", "wallets"), raw)
        assert.isTrue(
          Either.isLeft(decoded) && decoded.left._tag === "BadRequest" && decoded.left.message === body.response
        )

        const extraKey = yield* rawJson("POST", Api.LaunchGroup.endpoints.wallets.path, {
          items: [{ provider: "social", username: "bob" }],
          extra: true
        })
        assert.strictEqual(extraKey.status, 400)
        assert.property(JSON.parse(extraKey.text), "response")
      }).pipe(undici))
  })
})
