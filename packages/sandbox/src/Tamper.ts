/**
 * Hostile claim plans on demand (`--tamper KIND[=N|=P]`, `Options.tamper`): the claim-plan
 * endpoint serves a plan with one stage tampered in one way, for every plan, the next N
 * plans, or with probability P. The `tx-*` kinds do the same to the transactions served
 * without plan metadata: one entry of config creation's answer (`POST /fee-share/config`)
 * and the launch transaction (each kind's `endpoints`), counted per answer. Each kind breaks exactly one thing a client checks before it
 * signs (`PlanExecutor.verify`/`execute` of @feeshare/solana, `Plan.validate` of the domain),
 * so that a client in another process (a keeper, an MCP server, an explorer) can prove it
 * refuses the plan, and which refusal it gives.
 *
 * The kinds are pure functions over a plan and a seeded byte stream; which plans are
 * tampered, which stage, and the bytes used all come from `Options.seed`.
 *
 * @since 0.1.0
 */
export * from "./internal/model/tamper.js"
