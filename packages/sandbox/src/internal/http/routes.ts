import { HttpApi, HttpApiSchema, type Multipart } from "@effect/platform"
import { Api } from "@feeshare/domain"
import { Context, Option } from "effect"

/** Where a request goes, read from the `HttpApi` definition (never a second copy of the paths). */
export interface Route {
  readonly group: string
  readonly endpoint: string
  readonly operation: string
  /** The statuses whose failure body carries the message in `response` (`Api.MessageInResponse`). */
  readonly messageInResponse: ReadonlyArray<number>
  /** The multipart limits of a multipart/form-data route (`HttpApiSchema.Multipart`); none for JSON routes. */
  readonly multipart: Multipart.withLimits.Options | undefined
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
        operation: Api.operationName(group.identifier, endpoint.name),
        messageInResponse: Option.getOrElse(Context.getOption(endpoint.annotations, Api.MessageInResponse), () => []),
        multipart: Option.getOrUndefined(
          Option.flatMapNullable(endpoint.payloadSchema, (schema) => HttpApiSchema.getMultipart(schema.ast))
        )
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
