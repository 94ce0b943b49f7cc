/**
 * LiteSVM transaction errors as the JSON value a Solana RPC reports (`"BlockhashNotFound"`,
 * `{ InstructionError: [0, { Custom: 1 }] }`, ...), which Kit's
 * `getSolanaErrorFromTransactionError` understands. LiteSVM's enums are `const enum`s with no
 * runtime object, so their names are listed here in declaration order.
 */
import type { FailedTransactionMetadata } from "litesvm"

const transactionErrors = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled"
] as const

const instructionErrors = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError"
] as const

/** A transaction error as JSON-RPC reports it. */
export type RpcTransactionError = string | { readonly [key: string]: unknown }

const hasMethod = (value: object, name: string): boolean =>
  name in value && typeof (value as Record<string, unknown>)[name] === "function"

const field = (value: object, name: string): unknown => (value as Record<string, unknown>)[name]

const instructionError = (err: unknown): unknown => {
  if (typeof err === "number") return instructionErrors[err] ?? `Unknown(${err})`
  if (typeof err === "object" && err !== null) {
    const code = field(err, "code")
    if (typeof code === "number") return { Custom: code }
    const msg = field(err, "msg")
    if (typeof msg === "string") return { BorshIoError: msg }
  }
  return String(err)
}

/** The RPC JSON form of a failed transaction's error. */
export const fromFailed = (failed: FailedTransactionMetadata): RpcTransactionError => {
  const err: unknown = failed.err()
  if (typeof err === "number") return transactionErrors[err] ?? `Unknown(${err})`
  if (typeof err === "object" && err !== null) {
    const index = field(err, "index")
    const accountIndex = field(err, "accountIndex")
    if (typeof index === "number" && hasMethod(err, "err")) {
      const inner = (err as { err: () => unknown }).err()
      return { InstructionError: [index, instructionError(inner)] }
    }
    if (typeof index === "number") return { DuplicateInstruction: index }
    if (typeof accountIndex === "number") {
      return String(err).includes("Restricted")
        ? { ProgramExecutionTemporarilyRestricted: { account_index: accountIndex } }
        : { InsufficientFundsForRent: { account_index: accountIndex } }
    }
  }
  return String(err)
}
