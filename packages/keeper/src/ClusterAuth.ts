/**
 * The cluster's secret on the runner socket: before a runner reads any message from a
 * connection, the peer proves it holds the secret, by an HMAC challenge (the runner sends 32
 * random bytes; the peer answers HMAC-SHA256(secret, "feeshare-keeper-runner" ‖ challenge)
 * within `handshakeTimeout`). The secret never crosses the wire; a peer that answers wrong,
 * late or not at all is disconnected, and nothing it sent is read. Both sides of the socket
 * transport (`layerServer`, `layerClientProtocol`) speak it; `layer` is the cluster's socket
 * runner with them (as `NodeClusterSocket.layer` with its storage brought by the caller).
 *
 * The secret comes from `FEESHARE_KEEPER_CLUSTER_SECRET` or a file named by
 * `FEESHARE_KEEPER_CLUSTER_SECRET_FILE` (never a flag, which `ps` would show), as `Redacted`.
 *
 * @since 0.1.0
 */
import * as RunnerHealth from "@effect/cluster/RunnerHealth"
import * as Runners from "@effect/cluster/Runners"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SocketRunner from "@effect/cluster/SocketRunner"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import * as Socket from "@effect/platform/Socket"
import * as SocketServer from "@effect/platform/SocketServer"
import * as RpcClient from "@effect/rpc/RpcClient"
import * as RpcSerialization from "@effect/rpc/RpcSerialization"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { readFileSync } from "node:fs"
import * as Net from "node:net"

/**
 * The shortest secret accepted.
 *
 * @since 0.1.0
 * @category constants
 */
export const minSecretLength = 16

/**
 * How long a peer has to answer the challenge.
 *
 * @since 0.1.0
 * @category constants
 */
export const handshakeTimeoutMillis = 5_000

const challengeBytes = 32
const context = Buffer.from("feeshare-keeper-runner\u0000")

/**
 * The answer to `challenge` under `secret`.
 *
 * @since 0.1.0
 * @category handshake
 */
export const answer = (secret: Redacted.Redacted<string>, challenge: Uint8Array): Buffer =>
  createHmac("sha256", Redacted.value(secret)).update(context).update(challenge).digest()

/**
 * The cluster's secret is missing, too short, or unreadable; or a runner would listen off
 * loopback without one.
 *
 * @since 0.1.0
 * @category errors
 */
export class ClusterSecretError extends Schema.TaggedError<ClusterSecretError>()("ClusterSecretError", {
  message: Schema.String
}) {}

/**
 * The secret from `FEESHARE_KEEPER_CLUSTER_SECRET`, or the file `FEESHARE_KEEPER_CLUSTER_SECRET_FILE`
 * names (its content, trimmed); `None` when neither is set.
 *
 * @since 0.1.0
 * @category secret
 */
export const fromEnvironment = (
  env: Readonly<Record<string, string | undefined>> = process.env
): Effect.Effect<Option.Option<Redacted.Redacted<string>>, ClusterSecretError> =>
  Effect.gen(function*() {
    const file = env.FEESHARE_KEEPER_CLUSTER_SECRET_FILE
    const text = file !== undefined && file !== ""
      ? yield* Effect.try({
        try: () => readFileSync(file, "utf8").trim(),
        catch: () => new ClusterSecretError({ message: `cannot read the cluster secret file ${file}` })
      })
      : env.FEESHARE_KEEPER_CLUSTER_SECRET
    if (text === undefined || text === "") return Option.none()
    if (text.length < minSecretLength) {
      return yield* new ClusterSecretError({
        message: `the cluster secret is ${text.length} characters; it needs at least ${minSecretLength}`
      })
    }
    return Option.some(Redacted.make(text))
  })

/** Reads exactly `length` bytes from `conn` (no more is consumed: the rest is put back). */
const readExactly = (conn: Net.Socket, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0)
    const timer = setTimeout(() => done(new Error("the cluster handshake timed out")), handshakeTimeoutMillis)
    const done = (error?: Error, value?: Buffer) => {
      clearTimeout(timer)
      conn.off("data", onData)
      conn.off("error", onError)
      conn.off("close", onClose)
      if (error !== undefined) reject(error)
      else resolve(value ?? Buffer.alloc(0))
    }
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      if (buffered.length < length) return
      // paused until the next reader listens (the RPC transport), then flowing again for it
      conn.pause()
      const resumeForReader = (event: string | symbol) => {
        if (event !== "data") return
        conn.off("newListener", resumeForReader)
        process.nextTick(() => conn.resume())
      }
      conn.on("newListener", resumeForReader)
      const rest = buffered.subarray(length)
      done(undefined, buffered.subarray(0, length))
      if (rest.length > 0) conn.unshift(rest)
    }
    const onError = (error: Error) => done(error)
    const onClose = () => done(new Error("the peer closed during the cluster handshake"))
    conn.on("data", onData)
    conn.once("error", onError)
    conn.once("close", onClose)
  })

/**
 * The runner's side: challenges `conn` and resolves once the peer answered right; otherwise
 * destroys the connection and rejects.
 *
 * @since 0.1.0
 * @category handshake
 */
export const challenge = async (conn: Net.Socket, secret: Redacted.Redacted<string>): Promise<void> => {
  const nonce = randomBytes(challengeBytes)
  conn.write(nonce)
  try {
    const given = await readExactly(conn, challengeBytes)
    if (!timingSafeEqual(given, answer(secret, nonce))) throw new Error("wrong answer to the cluster challenge")
  } catch (error) {
    conn.destroy()
    throw error
  }
}

/**
 * The peer's side: answers the runner's challenge on `conn`.
 *
 * @since 0.1.0
 * @category handshake
 */
export const respond = async (conn: Net.Socket, secret: Redacted.Redacted<string>): Promise<void> => {
  const nonce = await readExactly(conn, challengeBytes)
  conn.write(answer(secret, nonce))
}

/**
 * The runner's socket server: every connection answers the challenge before the runner reads
 * anything from it; one that does not is dropped unread.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerServer = (secret: Redacted.Redacted<string>) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const config = yield* ShardingConfig.ShardingConfig
    const listen = Option.orElse(config.runnerListenAddress, () => config.runnerAddress)
    if (Option.isNone(listen)) return yield* Effect.die("ClusterAuth.layerServer: no runner listen address")
    return Layer.scoped(
      SocketServer.SocketServer,
      Effect.map(NodeSocketServer.make(listen.value), (server) =>
        SocketServer.SocketServer.of({
          address: server.address,
          run: (handler) =>
            server.run((socket) =>
              // the raw connection, which the Node socket server provides to each handler
              Effect.flatMap(Effect.serviceOption(NodeSocket.NetSocket), (conn) =>
                Option.isNone(conn) ? Effect.void : Effect.tryPromise(() => challenge(conn.value, secret)).pipe(
                  Effect.matchEffect({
                    // the peer failed the challenge: dropped, nothing read
                    onFailure: () => Effect.void,
                    onSuccess: () => Effect.asVoid(handler(socket))
                  })
                ))
            )
        }))
    )
  }))

/**
 * The client side of the runner socket: connects, answers the challenge, then speaks RPC.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerClientProtocol = (secret: Redacted.Redacted<string>) =>
  Layer.effect(
    Runners.RpcClientProtocol,
    Effect.gen(function*() {
      const serialization = yield* RpcSerialization.RpcSerialization
      return Effect.fnUntraced(function*(address) {
        const socket = yield* NodeSocket.fromDuplex(
          Effect.acquireRelease(
            Effect.tryPromise({
              try: () =>
                new Promise<Net.Socket>((resolve, reject) => {
                  const conn = Net.createConnection({ host: address.host, port: address.port, timeout: 5500 })
                  conn.once("error", reject)
                  conn.once("connect", () => {
                    respond(conn, secret).then(() => {
                      conn.off("error", reject)
                      resolve(conn)
                    }, (error: unknown) => {
                      conn.destroy()
                      reject(error)
                    })
                  })
                }),
              catch: (cause) => new Socket.SocketGenericError({ reason: "Open", cause })
            }),
            (conn) => Effect.sync(() => conn.destroySoon())
          ),
          { openTimeout: handshakeTimeoutMillis + 1000 }
        )
        return yield* RpcClient.makeProtocolSocket().pipe(
          Effect.provideService(Socket.Socket, socket),
          Effect.provideService(RpcSerialization.RpcSerialization, serialization)
        )
      }, Effect.orDie)
    })
  )

/**
 * The cluster's socket runner (as `NodeClusterSocket.layer({ storage: "byo" })`) with both
 * sides of the socket behind the secret.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  secret: Redacted.Redacted<string>,
  shardingConfig: Partial<ShardingConfig.ShardingConfig["Type"]>
) => {
  const client = layerClientProtocol(secret)
  return Layer.provide(SocketRunner.layer, [layerServer(secret), client]).pipe(
    Layer.provide(RunnerHealth.layerPing.pipe(Layer.provide(Runners.layerRpc), Layer.provide(client))),
    Layer.provide(ShardingConfig.layerFromEnv(shardingConfig)),
    Layer.provide(RpcSerialization.layerMsgPack)
  )
}
