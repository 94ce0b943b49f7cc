/**
 * Sandbox-only operations, under `{root_url}/sandbox/...`: set-up steps the real service
 * performs elsewhere (create a token, a fee-share config, a holding, airdrop SOL, list the
 * quote mints and change the Token-2022 quote mint's transfer fee, move the block clock,
 * read the ledger state) and test helpers (enable MFA for a wallet, revoke a key,
 * list the EVM fixtures). They need no API key and are never rate-limited. NOT part of the
 * service contract: nothing outside the sandbox answers them.
 *
 * @since 0.1.0
 */
export * from "./internal/http/sandboxApi.js"
