/**
 * A file part of a multipart/form-data body: the bytes, the file name and the media type it
 * is sent under. A multipart request's schema encodes each file field to a `FilePart`; the
 * client appends it to the form as a file, and servers hand the parts they receive to the
 * same schema in this shape.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilePart = Schema.Struct({
  bytes: Schema.Uint8ArrayFromSelf,
  filename: Schema.String,
  contentType: Schema.String
}).annotations({ identifier: "FilePart", jsonSchema: { type: "string", format: "binary" } })

/**
 * @since 0.1.0
 * @category models
 */
export type FilePart = typeof FilePart.Type

/**
 * `true` for a value in the shape of a `FilePart` (an encoded file field).
 *
 * @since 0.1.0
 * @category guards
 */
export const isFilePart = (value: unknown): value is FilePart =>
  typeof value === "object" && value !== null && "bytes" in value && value.bytes instanceof Uint8Array &&
  "filename" in value && typeof value.filename === "string" && "contentType" in value &&
  typeof value.contentType === "string"
