/**
 * Identity: the user that owns an API key.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import { optionalNullable } from "./internal/schema.js"

/**
 * @since 0.1.0
 * @category resources
 */
export const SocialData = Schema.Struct({
  verified: optionalNullable(Schema.Boolean),
  followers_count: optionalNullable(Schema.Number),
  following_count: optionalNullable(Schema.Number),
  created_at: optionalNullable(Schema.String),
  url: optionalNullable(Schema.String)
}).annotations({ identifier: "SocialData" })

/**
 * The user that owns the API key. Only `uuid` is always present.
 *
 * @since 0.1.0
 * @category resources
 */
export const User = Schema.Struct({
  uuid: Schema.String,
  type: optionalNullable(Schema.String),
  membership: optionalNullable(Schema.Unknown),
  ticker: optionalNullable(Schema.String),
  username: optionalNullable(Schema.String),
  status: optionalNullable(Schema.String),
  pref_name: optionalNullable(Schema.String),
  picture: optionalNullable(Schema.String),
  social_userID: optionalNullable(Schema.String),
  registered_at: optionalNullable(Schema.String),
  profile_views: optionalNullable(Schema.Number),
  invites: optionalNullable(Schema.Number),
  invited_by: optionalNullable(Schema.String),
  social_data: optionalNullable(SocialData),
  points: optionalNullable(Schema.Number),
  rank: optionalNullable(Schema.Number),
  referral_count: optionalNullable(Schema.Number)
}).annotations({ identifier: "User" })

/**
 * @since 0.1.0
 * @category resources
 */
export type User = typeof User.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const Me = Schema.Struct({ user: User }).annotations({ identifier: "Me" })
