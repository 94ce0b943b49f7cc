import { Schema } from "effect"

/** A field that may be absent or null; absence and null both survive a round trip. */
export const optionalNullable = <S extends Schema.Schema.All>(schema: S) =>
  Schema.optionalWith(Schema.NullOr(schema), { exact: true })

/** A field that may be absent; `undefined` is not accepted in its place. */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** A non-empty string with a rule message. */
export const NonEmptyText = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must be a non-empty string" })
)

/** Keeps every property that is not declared, so that a re-encode gives back the same JSON. */
export const KeepUnknown = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** An array of `min..max` items whose length rule is reported by name. */
export const ArrayBetween = <S extends Schema.Schema.Any>(item: S, min: number, max: number) =>
  Schema.Array(item).pipe(
    Schema.filter((items) => items.length >= min && items.length <= max, {
      message: () => min === 0 ? `must have at most ${max} entries` : `must have ${min} to ${max} entries`
    })
  )
