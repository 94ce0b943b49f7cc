/**
 * The handle directory: launch wallets by social handle. Seeded with `seededHandles` (their
 * wallets derived from the seed), extended with the set-up operation `registerHandle`. The
 * `main` provider is the raw wallet passthrough (the username is the wallet, SOL only). An
 * EVM lookup of a known handle without an EVM wallet makes one (deterministic from the
 * seed), as the service creates an embedded wallet.
 */
import * as EvmAddress from "@feeshare/domain/EvmAddress"
import * as LaunchWallet from "@feeshare/domain/LaunchWallet"
import { Effect } from "effect"
import { derive } from "../seeded.js"
import type { RegisterHandleInput } from "./service.js"
import { reject } from "./state.js"
import type { MarketState } from "./state.js"

/** The handles every sandbox knows from the start (provider, username); wallets come from the seed. */
export const seededHandles: ReadonlyArray<{ readonly provider: LaunchWallet.Provider; readonly username: string }> = [
  { provider: "social", username: "sandbox_alice" },
  { provider: "social", username: "sandbox_bob" },
  { provider: "email", username: "carol@sandbox.test" }
]

/** The most handles the directory holds. */
export const maxHandles = 10_000

/** The single lookup's 404 message, as the service words it. */
export const notFoundMessage = "platform data or wallet not found"

interface Entry {
  readonly provider: LaunchWallet.Provider
  readonly username: string
  readonly displayName: string
  sol: string
  evm: string | null
}

const keyOf = (provider: LaunchWallet.Provider, username: string) =>
  `${provider}\u0000${LaunchWallet.normalizeUsername(provider, username)}`

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** The operations of this area over the market's state. */
export const make = (market: MarketState) =>
  Effect.gen(function*() {
    const { seed, signer } = market
    const directory = new Map<string, Entry>()
    for (const handle of seededHandles) {
      const wallet = yield* signer(`handle/${handle.provider}/${handle.username}`)
      directory.set(keyOf(handle.provider, handle.username), {
        ...handle,
        displayName: handle.username,
        sol: wallet.address,
        evm: null
      })
    }

    const platformData = (entry: Entry) => ({
      id: hex(derive(seed, `handle-id/${keyOf(entry.provider, entry.username)}`)).slice(0, 16),
      username: entry.username,
      display_name: entry.displayName,
      avatar_url: ""
    })

    /** The entry's wallet on `chain`; an EVM wallet is made on first use. */
    const walletOn = (entry: Entry, chain: LaunchWallet.Chain): string => {
      if (chain === "SOL") return entry.sol
      if (entry.evm === null) {
        const bytes = derive(seed, `handle-evm/${keyOf(entry.provider, entry.username)}`).slice(0, 20)
        entry.evm = EvmAddress.toChecksum(`0x${hex(new Uint8Array(bytes))}`)
      }
      return entry.evm
    }

    const resolve = (lookup: LaunchWallet.Lookup) => {
      const chain = lookup.chain ?? "SOL"
      if (lookup.provider === "main") {
        // the raw passthrough: the schema already refused EVM and a username that is not a key
        const entry: Entry = {
          provider: "main",
          username: lookup.username,
          displayName: lookup.username,
          sol: lookup.username,
          evm: null
        }
        return { entry, chain, wallet: entry.sol }
      }
      const entry = directory.get(keyOf(lookup.provider, lookup.username))
      return entry === undefined ? undefined : { entry, chain, wallet: walletOn(entry, chain) }
    }

    const lookupWallet = (lookup: LaunchWallet.Lookup) =>
      Effect.suspend(() => {
        const found = resolve(lookup)
        if (found === undefined) return Effect.fail(reject(404, notFoundMessage))
        const answer: LaunchWallet.LaunchWallet = {
          provider: lookup.provider,
          platformData: platformData(found.entry),
          wallet: found.wallet,
          chain: found.chain
        }
        return Effect.succeed(answer)
      })

    const lookupWallets = (request: LaunchWallet.BulkLookupRequest) =>
      Effect.sync((): LaunchWallet.BulkLaunchWallets =>
        request.items.map((item) => {
          const found = resolve(item)
          return {
            username: LaunchWallet.normalizeUsername(item.provider, item.username),
            provider: item.provider,
            platformData: found === undefined ? null : platformData(found.entry),
            wallet: found === undefined ? null : found.wallet,
            chain: item.chain ?? "SOL"
          }
        })
      )

    const registerHandle = (input: typeof RegisterHandleInput.Type) =>
      Effect.suspend(() => {
        if (input.provider === "main") {
          return Effect.fail(reject(400, "provider: main is the raw wallet passthrough; it needs no registration"))
        }
        const key = keyOf(input.provider, input.username)
        const existing = directory.get(key)
        if (existing === undefined && directory.size >= maxHandles) {
          return Effect.fail(reject(400, `the sandbox's directory holds at most ${maxHandles} handles`))
        }
        const entry: Entry = {
          provider: input.provider,
          username: LaunchWallet.normalizeUsername(input.provider, input.username),
          displayName: input.displayName ?? input.username,
          sol: input.wallet,
          evm: input.evmWallet ?? null
        }
        directory.set(key, entry)
        return Effect.succeed({
          provider: entry.provider,
          username: entry.username,
          platformData: platformData(entry),
          wallet: entry.sol,
          evmWallet: entry.evm
        })
      })

    return { lookupWallet, lookupWallets, registerHandle }
  })

/** The operations of this area. */
export type Service = Effect.Effect.Success<ReturnType<typeof make>>
