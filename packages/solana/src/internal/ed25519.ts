/**
 * Ed25519 signature checks in WebCrypto, with the imported public keys cached (at most 1024;
 * the cache starts over past it).
 */
import { getPublicKeyFromAddress } from "@solana/kit"

const publicKeys = new Map<string, Promise<CryptoKey>>()
const importPublicKey = (address: string): Promise<CryptoKey> => {
  let key = publicKeys.get(address)
  if (key === undefined) {
    if (publicKeys.size >= 1024) publicKeys.clear()
    key = getPublicKeyFromAddress(address as Parameters<typeof getPublicKeyFromAddress>[0])
    publicKeys.set(address, key)
  }
  return key
}

/** Whether `signature` is `address`'s signature of `message` (`false` for any malformed input). */
export const verifySignatureOf = async (
  address: string,
  signature: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>
): Promise<boolean> => {
  try {
    const key = await importPublicKey(address)
    return await globalThis.crypto.subtle.verify("Ed25519", key, signature, message)
  } catch {
    return false
  }
}
