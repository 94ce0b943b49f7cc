/**
 * The history's bounded collections: a ring of the newest entries, and a map that forgets its
 * oldest keys.
 */

/** Appends to a ring of at most `max` entries. */
export const push = <A>(ring: Array<A>, entry: A, max: number): void => {
  ring.push(entry)
  if (ring.length > max) ring.splice(0, ring.length - max)
}

/** Sets `key` as the newest entry of a map of at most `max` entries (the oldest go first). */
export const remember = <V>(map: Map<string, V>, key: string, value: V, max: number): void => {
  map.delete(key)
  map.set(key, value)
  for (const oldest of map.keys()) {
    if (map.size <= max) break
    map.delete(oldest)
  }
}
