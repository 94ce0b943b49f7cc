/**
 * A libsql client whose SQLite runs on a worker thread. libsql runs every statement, and every
 * commit's fsync, synchronously on the thread that calls it: on the main thread a commit stops
 * every fiber of the process (the claims in flight, an in-process sandbox) until the disk
 * answers. Here the main thread posts each statement to the worker and goes on; the worker runs
 * the same `@libsql/client` (the same file, `synchronous=FULL`), so a commit resolves only once
 * it is durable, as before. `@effect/sql-libsql` takes the client as its `liveClient`.
 *
 * @since 0.1.0
 */
import type { Client, InStatement, ResultSet, Row, Transaction, TransactionMode } from "@libsql/client"
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"

/** What crosses from the worker: a result set's fields, each row as its array of values. */
interface PlainResultSet {
  readonly columns: Array<string>
  readonly columnTypes: Array<string>
  readonly rows: Array<Array<Row[number]>>
  readonly rowsAffected: number
  readonly lastInsertRowid: bigint | undefined
}

/** A failure from the worker: the libsql error's message and codes. */
interface PlainError {
  readonly message: string
  readonly name?: string
  readonly code?: string
  readonly rawCode?: number
}

type Reply =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly error: PlainError }

// CommonJS, run with `eval`: the worker needs no file of its own, in the package or in a bundle
// of it. Requests are handled in the order they arrive; libsql runs each synchronously here.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads")
const { createClient } = require(workerData.clientPath)
const client = createClient({ url: workerData.url, intMode: workerData.intMode })
const transactions = new Map()
let nextTransaction = 0
const plain = (result) => ({
  columns: result.columns,
  columnTypes: result.columnTypes,
  rows: result.rows.map((row) => Array.from(row)),
  rowsAffected: result.rowsAffected,
  lastInsertRowid: result.lastInsertRowid
})
const target = (transaction) => {
  if (transaction === undefined) return client
  const found = transactions.get(transaction)
  if (found === undefined) throw new Error("the transaction has ended")
  return found
}
const end = (transaction) => {
  const found = target(transaction)
  transactions.delete(transaction)
  return found
}
const operations = {
  execute: ({ transaction, statement }) => target(transaction).execute(statement).then(plain),
  batch: ({ transaction, statements, mode }) =>
    (transaction === undefined ? client.batch(statements, mode) : target(transaction).batch(statements))
      .then((results) => results.map(plain)),
  executeMultiple: ({ transaction, sql }) => target(transaction).executeMultiple(sql),
  transaction: ({ mode }) => client.transaction(mode).then((opened) => {
    const id = ++nextTransaction
    transactions.set(id, opened)
    return id
  }),
  commit: ({ transaction }) => end(transaction).commit(),
  rollback: ({ transaction }) => end(transaction).rollback(),
  closeTransaction: ({ transaction }) => {
    if (transactions.has(transaction)) end(transaction).close()
  },
  close: () => {
    for (const opened of transactions.values()) opened.close()
    transactions.clear()
    client.close()
  }
}
parentPort.on("message", ({ id, operation, ...args }) => {
  Promise.resolve().then(() => operations[operation](args)).then(
    (value) => parentPort.postMessage({ id, value }),
    (error) => parentPort.postMessage({
      id,
      error: {
        message: String(error && error.message !== undefined ? error.message : error),
        name: error && error.name,
        code: error && error.code,
        rawCode: error && error.rawCode
      }
    })
  )
})
`

const toRow = (values: Array<Row[number]>, columns: Array<string>): Row => {
  // the shape @libsql/client gives a row: values by index (with a length) and by column name
  const row: Row = {} as Row
  Object.defineProperty(row, "length", { value: values.length })
  values.forEach((value, i) => {
    Object.defineProperty(row, i, { value })
    const column = columns[i]
    if (column !== undefined && !Object.hasOwn(row, column)) {
      Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true })
    }
  })
  return row
}

const toResultSet = (plain: PlainResultSet): ResultSet => {
  const rows = plain.rows.map((values) => toRow(values, plain.columns))
  return {
    columns: plain.columns,
    columnTypes: plain.columnTypes,
    rows,
    rowsAffected: plain.rowsAffected,
    lastInsertRowid: plain.lastInsertRowid,
    toJSON: () => ({ ...plain, lastInsertRowid: plain.lastInsertRowid?.toString() ?? null })
  }
}

const toError = (error: PlainError): Error =>
  Object.assign(new Error(error.message), {
    name: error.name ?? "LibsqlError",
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.rawCode === undefined ? {} : { rawCode: error.rawCode })
  })

/**
 * A libsql client on a worker thread, and how to stop it.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorkerClient {
  readonly client: Client
  /** Closes the database and ends the worker; every request still waiting fails. */
  readonly shutdown: () => Promise<void>
}

/**
 * Starts the worker for `url` (`file:...`). Opening the database happens in the worker: a
 * database that cannot be opened fails the first request.
 *
 * @since 0.1.0
 * @category constructors
 */
export const open = (options: { readonly url: string; readonly intMode: "number" | "bigint" | "string" }) => {
  const require = createRequire(import.meta.url)
  const clientPath = require.resolve("@libsql/client")
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { clientPath, url: options.url, intMode: options.intMode }
  })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 0
  let stopped: Error | undefined
  // the worker keeps the process alive only while a request waits on it
  worker.unref()
  const failAll = (error: Error) => {
    stopped ??= error
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  worker.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id)
    if (waiting === undefined) return
    pending.delete(reply.id)
    if (pending.size === 0) worker.unref()
    if ("error" in reply) waiting.reject(toError(reply.error))
    else waiting.resolve(reply.value)
  })
  worker.on("error", (error) => failAll(error))
  worker.on("exit", (code) => failAll(new Error(`the SQLite worker stopped (exit code ${code})`)))

  const request = (operation: string, args: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (stopped !== undefined) return reject(stopped)
      const id = ++nextId
      pending.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ id, operation, ...args })
    })
  const execute = (statement: InStatement, transaction?: number) =>
    request("execute", { statement, transaction }).then((plain) => toResultSet(plain as PlainResultSet))
  const batch = (statements: Array<InStatement>, mode: TransactionMode | undefined, transaction?: number) =>
    request("batch", { statements, mode, transaction }).then((plain) =>
      (plain as Array<PlainResultSet>).map(toResultSet)
    )

  let closed = false
  const client: Client = {
    execute: (statement) => execute(statement),
    batch: (statements, mode) => batch(statements, mode),
    migrate: (statements) => batch(statements, "deferred"),
    transaction: (mode?: TransactionMode) =>
      request("transaction", { mode: mode ?? "write" }).then((id) => {
        const transaction = id as number
        let ended = false
        const finish = (operation: "commit" | "rollback") => () => {
          ended = true
          return request(operation, { transaction }).then(() => undefined)
        }
        const opened: Transaction = {
          execute: (statement) => execute(statement, transaction),
          batch: (statements) => batch(statements, undefined, transaction),
          executeMultiple: (sql) => request("executeMultiple", { sql, transaction }).then(() => undefined),
          commit: finish("commit"),
          rollback: finish("rollback"),
          close: () => {
            if (ended) return
            ended = true
            request("closeTransaction", { transaction }).catch(() => undefined)
          },
          get closed() {
            return ended
          }
        }
        return opened
      }),
    executeMultiple: (sql) => request("executeMultiple", { sql }).then(() => undefined),
    sync: () => Promise.reject(new Error("sync is not supported on a local SQLite file")),
    close: () => {
      if (closed) return
      closed = true
      request("close").catch(() => undefined)
    },
    get closed() {
      return closed
    },
    protocol: "file"
  }
  const shutdown = async (): Promise<void> => {
    if (stopped !== undefined) return
    closed = true
    await request("close").catch(() => undefined)
    await worker.terminate()
  }
  const opened: WorkerClient = { client, shutdown }
  return opened
}
