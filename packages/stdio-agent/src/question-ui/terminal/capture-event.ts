type Emit = (event: string | symbol, ...args: unknown[]) => boolean;

/** Anything with an `emit` method: a stream, a readline Interface. */
export interface EventSource {
  emit: Emit;
}

/**
 * Delivers every `event` that `source` emits to `handler` alone, until the returned function
 * is called. The listeners stay registered and untouched: they simply do not hear the event
 * meanwhile, so a readline Interface sharing the stream keeps its state exactly as it was.
 */
export function captureEvent(
  source: EventSource,
  event: string,
  handler: (...args: never[]) => void,
): () => void {
  const own = Object.hasOwn(source, 'emit');
  const previous = source.emit;
  let active = true;
  const emit: Emit = function (this: unknown, name, ...args) {
    if (active && name === event) {
      (handler as (...args: unknown[]) => void)(...args);
      return true;
    }
    return previous.call(this, name, ...args);
  };
  source.emit = emit;
  return () => {
    active = false;
    // If someone wrapped `emit` after us, ours stays in their chain, passing everything on.
    if (source.emit !== emit) return;
    if (own) source.emit = previous;
    else delete (source as { emit?: Emit }).emit;
  };
}
