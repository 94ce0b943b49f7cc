/**
 * Typed access to an endpoint of `Api.Api` by group and name (the `groups` record of an
 * `HttpApi` is typed as the union of all groups).
 */
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Api } from "../src/index.js"

type Groups = typeof Api.Api extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never

/** The name of a group of the API. */
export type GroupName = HttpApiGroup.HttpApiGroup.Name<Groups>

type EndpointsOf<G extends GroupName> = HttpApiGroup.HttpApiGroup.Endpoints<
  HttpApiGroup.HttpApiGroup.WithName<Groups, G>
>

/** The name of an endpoint of group `G`. */
export type EndpointName<G extends GroupName> = HttpApiEndpoint.HttpApiEndpoint.Name<EndpointsOf<G>>

/** The endpoint `name` of group `group`. */
export const endpoint = <G extends GroupName, E extends EndpointName<G>>(
  group: G,
  name: E
): HttpApiEndpoint.HttpApiEndpoint.WithName<EndpointsOf<G>, E> => {
  const found = Api.Api.groups[group]?.endpoints[name]
  if (found === undefined) throw new Error(`no endpoint ${group}.${name}`)
  return found as HttpApiEndpoint.HttpApiEndpoint.WithName<EndpointsOf<G>, E>
}
