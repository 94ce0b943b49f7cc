/**
 * Identity: the user that owns an API key.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The user's linked social account.
 *
 * @since 0.1.0
 * @category resources
 */
export const SocialData = Schema.Struct({
  verified: Schema.Boolean,
  followers_count: Schema.Int,
  following_count: Schema.Int,
  created_at: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "SocialData" })

/**
 * The user that owns the API key: the 17 fields the service always sends (text that a user
 * may not have set is `null`; counts are integers).
 *
 * @since 0.1.0
 * @category resources
 */
export const User = Schema.Struct({
  uuid: Schema.String,
  type: Schema.String,
  membership: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  ticker: Schema.NullOr(Schema.String),
  username: Schema.String,
  status: Schema.String,
  pref_name: Schema.NullOr(Schema.String),
  picture: Schema.NullOr(Schema.String),
  social_userID: Schema.NullOr(Schema.String),
  registered_at: Schema.String,
  profile_views: Schema.Int,
  invites: Schema.Int,
  invited_by: Schema.NullOr(Schema.String),
  social_data: Schema.NullOr(SocialData),
  points: Schema.Int,
  rank: Schema.NullOr(Schema.Int),
  referral_count: Schema.Int
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
