/**
 * An instruction named for the explorer, as far as the sandbox knows its program (System,
 * Token, Token-2022, Associated Token, Memo, Compute Budget, Address Lookup Table); any other
 * shows its program id and first data bytes. Bounded: 32 instructions of 24 accounts each.
 */
import { getCompiledTransactionMessageDecoder } from "@solana/kit"
import type { DecodedInstruction } from "./models.js"

const messageDecoder = getCompiledTransactionMessageDecoder()

const programNames: Readonly<Record<string, string>> = {
  "11111111111111111111111111111111": "System",
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: "Token",
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: "Token-2022",
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: "Associated Token",
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: "Memo",
  ComputeBudget111111111111111111111111111111: "Compute Budget",
  AddressLookupTab1e1111111111111111111111111: "Address Lookup Table"
}

const systemInstructions: Readonly<Record<number, string>> = {
  0: "createAccount",
  1: "assign",
  2: "transfer",
  3: "createAccountWithSeed",
  8: "allocate",
  11: "transferWithSeed"
}

const tokenInstructions: Readonly<Record<number, string>> = {
  0: "initializeMint",
  1: "initializeAccount",
  3: "transfer",
  7: "mintTo",
  8: "burn",
  9: "closeAccount",
  12: "transferChecked",
  17: "syncNative",
  18: "initializeAccount3",
  20: "initializeMint2",
  26: "transferFeeExtension"
}

const computeBudgetInstructions: Readonly<Record<number, string>> = {
  2: "setComputeUnitLimit",
  3: "setComputeUnitPrice",
  4: "setLoadedAccountsDataSizeLimit"
}

const lookupTableInstructions: Readonly<Record<number, string>> = {
  0: "create",
  2: "extend",
  3: "deactivate",
  4: "close"
}

const hex = (bytes: Uint8Array, max: number): string =>
  Buffer.from(bytes.subarray(0, max)).toString("hex") + (bytes.length > max ? "…" : "")

const instructionName = (programName: string, data: Uint8Array): string => {
  const first = data[0]
  const named = (table: Readonly<Record<number, string>>, code: number | undefined) =>
    code === undefined ? undefined : table[code]
  const u32 = data.length >= 4 ? Buffer.from(data).readUInt32LE(0) : undefined
  const name = programName === "System"
    ? named(systemInstructions, u32)
    : programName === "Token" || programName === "Token-2022"
    ? named(tokenInstructions, first)
    : programName === "Compute Budget"
    ? named(computeBudgetInstructions, first)
    : programName === "Address Lookup Table"
    ? named(lookupTableInstructions, u32)
    : programName === "Memo"
    ? `memo ${JSON.stringify(Buffer.from(data.subarray(0, 120)).toString("utf8"))}`
    : programName === "Associated Token"
    ? (first === 1 ? "createIdempotent" : "create")
    : undefined
  return name ?? `data 0x${hex(data, 16)}`
}

/** The instructions of a message (none for a v1 message, or one that does not decode). */
export const decodeInstructions = (message: Uint8Array): ReadonlyArray<DecodedInstruction> => {
  try {
    const compiled = messageDecoder.decode(message)
    // v1 messages lay their instructions out otherwise: shown by their logs only
    if (!("instructions" in compiled)) return []
    const keys: ReadonlyArray<string> = compiled.staticAccounts
    const account = (index: number) => keys[index] ?? `lookup #${index - keys.length}`
    return compiled.instructions.slice(0, 32).map((instruction) => {
      const program = account(instruction.programAddressIndex)
      const programName = programNames[program] ?? program
      return {
        program,
        programName,
        name: instructionName(programName, new Uint8Array(instruction.data ?? new Uint8Array())),
        accounts: (instruction.accountIndices ?? []).slice(0, 24).map(account)
      }
    })
  } catch {
    return []
  }
}
