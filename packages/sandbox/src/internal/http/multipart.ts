/**
 * Multipart/form-data bodies, read once and bounded (the caller read at most the route's
 * total size): parsed by the runtime's own form parser into the record the endpoint's
 * payload schema decodes, a text part as a string and a file part as a `FilePart` (bytes,
 * file name, declared media type). The route's part count, field size and file size limits
 * (`HttpApiSchema.Multipart` options) are enforced here.
 */
import type { FileSystem, Multipart } from "@effect/platform"
import type { FilePart } from "@feeshare/domain"
import { Effect, Either, Option } from "effect"

/** Why a multipart body was refused: 400 (malformed or over a part limit) or 413 (a file too large). */
export interface Refused {
  readonly status: 400 | 413
  readonly message: string
}

/** What a form decodes to: one value per field. */
export type Fields = Record<string, string | FilePart.FilePart>

const size = (input: FileSystem.SizeInput | undefined): number | undefined =>
  input === undefined ? undefined : Number(input)

const optionSize = (input: Option.Option<FileSystem.SizeInput> | undefined): number | undefined =>
  input === undefined ? undefined : Option.match(input, { onNone: () => undefined, onSome: size })

/** The largest body a multipart route reads, from its limits (or `fallback`). */
export const maxTotal = (limits: Multipart.withLimits.Options, fallback: number): number =>
  optionSize(limits.maxTotalSize) ?? fallback

/** Sets a field by definition: a part named `__proto__` is a field like any other, never the prototype. */
const define = (fields: Fields, name: string, value: string | FilePart.FilePart) =>
  Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true })

/**
 * Parses `bytes` as a multipart/form-data body with the boundary of `contentType`. A field
 * given twice, more parts than `maxParts`, a text part over `maxFieldSize` are a 400; a file
 * over `maxFileSize` is a 413 with `fileTooLarge`.
 */
export const parse = (
  bytes: Uint8Array,
  contentType: string,
  limits: Multipart.withLimits.Options,
  fileTooLarge: string
): Effect.Effect<Either.Either<Fields, Refused>> =>
  Effect.promise(async (): Promise<Either.Either<Fields, Refused>> => {
    let form: FormData
    try {
      form = await new Response(bytes.slice(), { headers: { "content-type": contentType } }).formData()
    } catch {
      return Either.left({ status: 400, message: "the body is not a valid multipart/form-data body" })
    }
    const maxParts = limits.maxParts === undefined ? undefined : Option.getOrUndefined(limits.maxParts)
    const maxField = size(limits.maxFieldSize)
    const maxFile = optionSize(limits.maxFileSize)
    const fields: Fields = {}
    const entries: Array<readonly [string, FormDataEntryValue]> = []
    form.forEach((value, name) => {
      entries.push([name, value])
    })
    let parts = 0
    for (const [name, value] of entries) {
      if (maxParts !== undefined && ++parts > maxParts) {
        return Either.left({ status: 400, message: `the form has more than ${maxParts} parts` })
      }
      if (Object.hasOwn(fields, name)) return Either.left({ status: 400, message: `${name}: given more than once` })
      if (typeof value === "string") {
        if (maxField !== undefined && Buffer.byteLength(value) > maxField) {
          return Either.left({ status: 400, message: `${name}: a text part of at most ${maxField} bytes` })
        }
        define(fields, name, value)
      } else {
        if (maxFile !== undefined && value.size > maxFile) return Either.left({ status: 413, message: fileTooLarge })
        define(fields, name, {
          bytes: new Uint8Array(await value.arrayBuffer()),
          filename: value.name,
          contentType: value.type
        })
      }
    }
    return Either.right(fields)
  })
