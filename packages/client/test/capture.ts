/**
 * Recording tracer and logger for tests.
 */
import { Cause, Effect, type Exit, HashMap, List, Logger, LogLevel, Option, Tracer } from "effect"

export interface RecordedSpan {
  readonly name: string
  readonly kind: Tracer.SpanKind
  readonly attributes: Map<string, unknown>
  readonly events: Array<{ readonly name: string; readonly attributes: Record<string, unknown> | undefined }>
  exit: Exit.Exit<unknown, unknown> | undefined
}

let ids = 0

/** A tracer that keeps every span it creates. */
export const recordingTracer = () => {
  const spans: Array<RecordedSpan> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      const record: RecordedSpan = { name, kind, attributes: new Map(), events: [], exit: undefined }
      spans.push(record)
      const id = String(++ids)
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: id,
        traceId: Option.match(parent, { onNone: () => id, onSome: (p) => p.traceId }),
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes: record.attributes,
        links: [...links],
        sampled: true,
        kind,
        end: (_endTime, exit) => {
          record.exit = exit
        },
        attribute: (key, value) => {
          record.attributes.set(key, value)
        },
        event: (eventName, _startTime, attributes) => {
          record.events.push({ name: eventName, attributes })
        },
        addLinks: () => {}
      }
      return span
    },
    context: (f) => f()
  })
  return { spans, tracer }
}

/** A logger at every level that keeps each line as text (message, annotations, spans, cause). */
export const capturingLogger = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans }) => {
    const parts = [
      logLevel.label,
      Array.isArray(message) ? message.map(String).join(" ") : String(message),
      JSON.stringify(Object.fromEntries(HashMap.toEntries(annotations))),
      List.toArray(spans).map((span) => span.label).join(","),
      Cause.isEmpty(cause) ? "" : Cause.pretty(cause, { renderErrorCause: true })
    ]
    lines.push(parts.join(" | "))
  })
  const layer = Logger.replace(Logger.defaultLogger, logger)
  const provide = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.All))
  return { lines, provide }
}
