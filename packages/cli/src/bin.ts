#!/usr/bin/env node
/**
 * The `feeshare` executable: global options accepted anywhere, `sandbox` handed to the
 * sandbox's own flag parser, every failure printed as one line on stderr (and, with
 * `--json`, as one JSON document on stdout), and an exit code per error class.
 *
 * @since 0.1.0
 */
import { main } from "./internal/main.js"

main()
