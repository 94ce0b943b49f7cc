/** A system part the tests start for real, from its Debian package. */
export interface SystemPart {
  readonly name: PartName
  readonly debianPackage: string
  readonly usedBy: string
  readonly locate: (env?: NodeJS.ProcessEnv) => string | undefined
}

/** The parts: `redis-server`, PostgreSQL's server binaries, `chromium`, `tmux`. */
export type PartName = "redis-server" | "postgresql" | "chromium" | "tmux"

export declare const parts: ReadonlyArray<SystemPart>
/** The command that installs these Debian packages. */
export declare const installCommand: (debianPackages: ReadonlyArray<string>) => string
/** The line that names a missing part and how to install it. */
export declare const missingLine: (part: SystemPart) => string
/** Where the part is (an executable, or PostgreSQL's binaries folder), or `undefined`. */
export declare const locate: (name: PartName, env?: NodeJS.ProcessEnv) => string | undefined
/** Where the part is; throws an `Error` with the missing part's line when it is not there. */
export declare const requirePart: (name: PartName, env?: NodeJS.ProcessEnv) => string
/** Finds every part, installs the missing ones when it can; returns those still missing. */
export declare const ensureParts: (env?: NodeJS.ProcessEnv, log?: (line: string) => void) => ReadonlyArray<SystemPart>
