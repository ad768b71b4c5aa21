import { afterEach, describe, expect, it, vi } from 'vitest';
import { SilenceWatch } from '../../src/models/silence-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('SilenceWatch', () => {
  it('aborts once nothing was heard for the limit, each sound starting the wait again', () => {
    vi.useFakeTimers();
    const watch = new SilenceWatch(1_000, new AbortController().signal);
    vi.advanceTimersByTime(900);
    watch.heard();
    vi.advanceTimersByTime(900);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(100);
    expect(watch.signal.aborted).toBe(true);
    expect(watch.silent).toBe(true);
    watch.stop();
  });

  it('does not count the time the reader holds what arrived', () => {
    vi.useFakeTimers();
    const watch = new SilenceWatch(1_000, new AbortController().signal);
    watch.hold();
    vi.advanceTimersByTime(5_000);
    expect(watch.signal.aborted).toBe(false);
    watch.heard();
    vi.advanceTimersByTime(999);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.silent).toBe(true);
    watch.stop();
  });

  it("aborts with the caller's signal, which is not silence", () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const watch = new SilenceWatch(1_000, caller.signal);
    caller.abort(new Error('cancelled'));
    expect(watch.signal.aborted).toBe(true);
    expect(watch.silent).toBe(false);
    expect(new SilenceWatch(1_000, AbortSignal.abort()).signal.aborted).toBe(true);
    watch.stop();
  });

  it('leaves no timer or listener once stopped, even if something arrives later', () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const added = vi.spyOn(caller.signal, 'addEventListener');
    const removed = vi.spyOn(caller.signal, 'removeEventListener');
    const watch = new SilenceWatch(1_000, caller.signal);
    watch.stop();
    watch.heard();
    expect(vi.getTimerCount()).toBe(0);
    expect(removed).toHaveBeenCalledWith('abort', added.mock.calls[0]?.[1]);
    vi.advanceTimersByTime(5_000);
    expect(watch.signal.aborted).toBe(false);
  });

  it('hears a response and every piece of its body through its fetch', async () => {
    vi.useFakeTimers();
    const watch = new SilenceWatch(1_000, new AbortController().signal);
    let push!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
      },
    });
    const fetch = watch.fetch(async () => new Response(body, { status: 200, headers: { a: 'b' } }));
    vi.advanceTimersByTime(900);
    const response = await fetch('http://127.0.0.1/v1');
    expect(response.status).toBe(200);
    expect(response.headers.get('a')).toBe('b');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    vi.advanceTimersByTime(900);
    push(': keep-alive\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': keep-alive\n\n');
    vi.advanceTimersByTime(900);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(100);
    expect(watch.silent).toBe(true);
    watch.stop();
  });
});
