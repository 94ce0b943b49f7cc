// The facade never carries the API key to another origin: a redirect there rejects with
// UnexpectedResponse naming the Location, over the default Node transport and over a given
// fetch alike, and the other origin receives nothing.
import { Api } from "@feeshare/domain"
import { FeeShare, UnexpectedResponse } from "feeshare"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"

const key = "fs-redirect-test-key-0a1b2c3d"
const servers: Array<Server> = []

const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    )
  )
})

describe("redirects to another origin", () => {
  it.each([
    { transport: "default (undici)", fetch: undefined },
    { transport: "a given fetch", fetch: globalThis.fetch }
  ])("$transport: rejected, naming the Location; the key is not sent there", async ({ fetch }) => {
    const stolen: Array<string | undefined> = []
    const otherPort = await listen((request, response) => {
      stolen.push(request.headers[Api.apiKeyHeader]?.toString())
      response.end("{}")
    })
    const location = `http://localhost:${otherPort}/collect`
    const port = await listen((_request, response) => {
      response.writeHead(302, { location }).end()
    })
    const feeshare = new FeeShare({ baseUrl: `http://127.0.0.1:${port}${Api.basePath}`, apiKey: key, fetch })
    try {
      const error = await feeshare.analytics.pools({ onlyMigrated: false }).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(UnexpectedResponse)
      expect((error as UnexpectedResponse).message).toContain(location)
      expect((error as UnexpectedResponse).status).toBe(302)
      expect(stolen).toEqual([])
    } finally {
      await feeshare.close()
    }
  })
})
