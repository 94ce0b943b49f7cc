// Types of scripts/pack.mjs (plain JavaScript, run by node without a build), for the consumer test.
export declare const workspaceRoot: string
export declare const defaultOut: string
export declare const publishablePackages: (
  root?: string
) => Promise<ReadonlyArray<{ readonly name: string; readonly folder: string }>>
export declare const packAll: (
  options?: { readonly out?: string; readonly root?: string }
) => Promise<ReadonlyMap<string, string>>
