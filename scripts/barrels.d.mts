import type { Plugin } from "esbuild"
/** The source text with its barrel imports of Effect's modules turned into namespace imports. */
export declare const rewrite: (text: string, folders: ReadonlyMap<string, string>) => string
/** The esbuild plugin: the workspace's `.ts` sources (not node_modules) get `rewrite`. */
export declare const plugin: (workspace: string) => Plugin
