/**
 * The runner socket behind the cluster's secret: a raw client on loopback without the secret
 * gets a challenge it cannot answer and is dropped before anything it sent is read (so it can
 * deliver no message and take no shard); a peer with the secret is read as before.
 */
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SocketServer from "@effect/platform/SocketServer"
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Either, Layer, Option, Redacted } from "effect"
import * as Net from "node:net"
import * as ClusterAuth from "../src/ClusterAuth.js"

const secret = Redacted.make("a-cluster-secret-of-32-characters")

/** A free loopback port. */
const freePort = Effect.async<number>((resume) => {
  const server = Net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0)))
  })
})

/** The runner's socket server behind the secret; everything any connection delivers goes to `received`. */
const serve = Effect.gen(function*() {
  const port = yield* freePort
  const received: Array<string> = []
  const delivered = yield* Deferred.make<void>()
  const config = ShardingConfig.layer({ runnerListenAddress: Option.some(RunnerAddress.make("127.0.0.1", port)) })
  const server = yield* Layer.build(ClusterAuth.layerServer(secret).pipe(Layer.provide(config)))
  const socketServer = yield* Effect.provide(SocketServer.SocketServer, server)
  yield* Effect.forkScoped(
    socketServer.run((socket) =>
      socket.run((data) =>
        Effect.zipRight(
          Effect.sync(() => void received.push(Buffer.from(data).toString("utf8"))),
          Deferred.succeed(delivered, void 0)
        )
      )
    )
  )
  return { port, received, delivered }
})

/** A raw TCP client: connects, reads the challenge, lets `speak` answer; resolves when the server closes. */
const rawClient = (port: number, speak: (conn: Net.Socket, challenge: Buffer) => void) =>
  Effect.async<{ readonly challenge: Buffer; readonly closedByServer: boolean }>((resume) => {
    const conn = Net.createConnection({ host: "127.0.0.1", port })
    let buffered = Buffer.alloc(0)
    let spoke = false
    conn.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      if (!spoke && buffered.length >= 32) {
        spoke = true
        speak(conn, buffered.subarray(0, 32))
      }
    })
    conn.on("error", () => {})
    conn.on("close", () => resume(Effect.succeed({ challenge: buffered.subarray(0, 32), closedByServer: true })))
    return Effect.sync(() => conn.destroy())
  })

describe("the runner socket behind the cluster's secret", () => {
  it.scoped("a raw client without the secret is dropped; nothing it sent is read", () =>
    Effect.gen(function*() {
      const { port, received } = yield* serve
      // a guessed answer followed by what would be a message
      const outcome = yield* rawClient(port, (conn) => {
        conn.write(Buffer.alloc(32, 7))
        conn.write("a message for a runner")
      })
      assert.strictEqual(outcome.challenge.length, 32)
      assert.isTrue(outcome.closedByServer)
      // an answer made with another secret
      yield* rawClient(port, (conn, challenge) => {
        conn.write(ClusterAuth.answer(Redacted.make("not-the-cluster-secret"), challenge))
        conn.write("another message")
      })
      assert.deepStrictEqual(received, [])
    }))

  it.scoped("a peer with the secret is read; the secret itself never crosses the wire", () =>
    Effect.gen(function*() {
      const { delivered, port, received } = yield* serve
      const conn = Net.createConnection({ host: "127.0.0.1", port })
      yield* Effect.addFinalizer(() => Effect.sync(() => conn.destroy()))
      yield* Effect.promise(() => new Promise<void>((resolve) => conn.once("connect", () => resolve())))
      yield* Effect.promise(() => ClusterAuth.respond(conn, secret))
      const wire: Array<Buffer> = []
      conn.on("data", (chunk: Buffer) => wire.push(chunk))
      conn.write("hello runner")
      // the runner reads it
      yield* Deferred.await(delivered)
      assert.include(received.join(""), "hello runner")
      assert.notInclude(Buffer.concat(wire).toString("utf8"), Redacted.value(secret))
    }))

  it.effect("the secret comes from the environment or a file; a short one is refused", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* ClusterAuth.fromEnvironment({})))
      const some = yield* ClusterAuth.fromEnvironment({ FEESHARE_KEEPER_CLUSTER_SECRET: "0123456789abcdef" })
      assert.strictEqual(Option.map(some, Redacted.value).pipe(Option.getOrNull), "0123456789abcdef")
      const short = yield* Effect.either(ClusterAuth.fromEnvironment({ FEESHARE_KEEPER_CLUSTER_SECRET: "short" }))
      assert.isTrue(Either.isLeft(short))
      assert.notInclude(String(some), "0123456789abcdef")
    }))
})
