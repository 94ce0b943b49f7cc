import { HttpApi } from "@effect/platform"
import { Api } from "@feeshare/domain"

/** Where a request goes, read from the `HttpApi` definition (never a second copy of the paths). */
export interface Route {
  readonly group: string
  readonly endpoint: string
  readonly operation: string
}

export type Table = ReadonlyMap<string, Route>

export const key = (method: string, path: string): string => `${method} ${path}`

export const table = (api: HttpApi.HttpApi.Any): Table => {
  const out = new Map<string, Route>()
  HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => {
      out.set(key(endpoint.method, endpoint.path), {
        group: group.identifier,
        endpoint: endpoint.name,
        operation: Api.operationName(group.identifier, endpoint.name)
      })
    }
  })
  return out
}

/** The path of a request URL (which may carry a query string). */
export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query < 0 ? url : url.slice(0, query)
}
