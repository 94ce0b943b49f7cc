/**
 * The demo's token image: the bytes of `packages/cli/assets/demo-token.png` (a 32×32 PNG made
 * for this project), inlined so that the bundled CLI carries it (a test checks they are the
 * file's bytes).
 */
const base64 =
  "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAiklEQVR42mNgGEpgQ4XIf2LwgFhKE8dQajlFjsBm0Id9NkRhih1BrsWEHEJXy8lyBLUtJ8kRtLKcaEcQY3mFGxfRmJAjBpcDiA16Sh2A0xHkOIAaaWHUAVRPA6MOGE2EQ9cB5BTFVLV80DlgQKrjAW+QDIom2aBolA6KZvmg6JgMiq7ZoOic0hoAAKugYCzWhcj/AAAAAElFTkSuQmCC"

/** The PNG's bytes. */
export const demoImage: Uint8Array = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
