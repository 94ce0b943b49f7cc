/**
 * The EVM side of the sandbox (segment `alt`): deterministic fixtures derived from the
 * seed. Index tokens with their baskets, plain tokens, two owners (one holding a v1, a v2
 * and a v3 position, one holding more positions than discovery returns, so its answer is
 * `truncated`), and the creation fee.
 *
 * @since 0.1.0
 */
import type { Evm } from "@feeshare/domain"
import { toChecksum } from "@feeshare/domain/EvmAddress"
import type { Fixtures } from "./internal/model/evmFixtures.js"
import * as Seeded from "./internal/model/seeded.js"

/**
 * How many positions discovery returns at most; an owner with more gets `truncated: true`.
 *
 * @since 0.1.0
 * @category constants
 */
export const discoveryBound = 25

export type { Fixtures } from "./internal/model/evmFixtures.js"

const versions = ["v1", "v2", "v3"] as const

/**
 * Fixtures for a seed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seed: string): Fixtures => {
  const random = Seeded.stream(seed, "evm")
  const address = () => toChecksum(`0x${Seeded.toHex(random.bytes(20))}`)
  const hash = () => `0x${Seeded.toHex(random.bytes(32))}`
  const wei = (max: bigint) => {
    const bytes = random.bytes(16)
    let n = 0n
    for (const b of bytes) n = (n << 8n) | BigInt(b)
    return n % max
  }
  const quote: Evm.EvmClaimablePosition["quote"] = {
    address: "0x0000000000000000000000000000000000000000",
    symbol: "ETH",
    decimals: 18,
    isNative: true
  }
  const basketTokens = Array.from({ length: 6 }, address)
  const indexTokens = Array.from({ length: 3 }, (_, i) => ({
    address: address(),
    basket: basketTokens.slice(i, i + 3 + i)
  }))
  const plainTokens = Array.from({ length: 3 }, address)
  const holder = address()
  const whale = address()
  const byAddress = new Map(indexTokens.map((token) => [token.address, token.basket]))

  const token = (owner: string, index: number): Evm.EvmClaimablePosition["token"] => {
    const migrated = index % 2 === 1
    const createdAtBlock = 19_000_000 + random.below(1_000_000)
    const createdAtTimestamp = 1_700_000_000 + random.below(30_000_000)
    return {
      address: address(),
      name: `Sandbox Token ${index + 1}`,
      symbol: `SBX${index + 1}`,
      metadataURI: `ipfs://sandbox/${index + 1}`,
      // every shape the service sends: full metadata, none, and metadata without an image or a description
      metadata: index % 4 === 3
        ? null
        : {
          image: index % 4 === 1 ? null : `ipfs://sandbox/${index + 1}.png`,
          description: index % 4 === 2 ? null : "sandbox fixture"
        },
      curve: address(),
      feeShare: address(),
      poolId: hash(),
      creator: owner,
      partner: index % 2 === 0 ? null : address(),
      partnerFeeBps: index % 2 === 0 ? 0 : 500,
      createdAtBlock,
      createdAtTimestamp,
      txHash: hash(),
      migrated,
      migratedAtBlock: migrated ? createdAtBlock + 1_000 : null,
      migratedAtTimestamp: migrated ? createdAtTimestamp + 12_000 : null,
      quote,
      fees: { buyFeeBps: 100, sellFeeBps: 100, protocolBuyFeeBps: 25, protocolSellFeeBps: 25 }
    }
  }
  const position = (owner: string, index: number): Evm.EvmClaimablePosition => {
    const t = token(owner, index)
    const claimableWei = wei(10n ** 20n)
    const pendingWei = wei(10n ** 19n)
    const claimedWei = wei(10n ** 21n)
    return {
      token: t,
      feeShare: t.feeShare,
      version: versions[index % versions.length]!,
      claimableWei,
      pendingWei,
      actionableWei: claimableWei + pendingWei,
      claimedWei,
      lifetimeWei: claimedWei + claimableWei,
      isClaimer: true,
      isPartner: index % 4 === 3,
      userBps: 2_500 + (index % 4) * 1_000,
      quote
    }
  }
  const owned = new Map<string, ReadonlyArray<Evm.EvmClaimablePosition>>([
    [holder, versions.map((_, i) => position(holder, i))],
    [whale, Array.from({ length: discoveryBound + 5 }, (_, i) => position(whale, i))]
  ])
  return {
    indexTokens,
    plainTokens,
    holder,
    whale,
    creationFeeWei: 1_000_000_000_000_000n + wei(10n ** 15n),
    discoveryBound,
    indexStatus: (addresses) =>
      addresses.map((tokenAddress) => {
        const basket = byAddress.get(tokenAddress)
        return { tokenAddress, isIndexToken: basket !== undefined, tokens: basket ?? [] }
      }),
    positions: (owner) => {
      const all = owned.get(owner) ?? []
      return { positions: all.slice(0, discoveryBound), truncated: all.length > discoveryBound }
    }
  }
}
