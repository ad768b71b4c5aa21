import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentToolName, toolDigest } from '../src/index.js';
import { lostConnectionCode } from '../src/tools/connection-lost.js';
import { IdleWatch } from '../src/tools/idle-watch.js';

describe('agentToolName', () => {
  it('is mcp__<server>__<tool> when that is safe and short', () => {
    expect(agentToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
  });

  it('makes unsafe or long names safe, at most 64 characters, and never equal for different tools', () => {
    const dotted = agentToolName('my.server', 'files/read');
    expect(dotted).toMatch(/^mcp__my_server__files_read_[0-9a-f]{8}$/);
    expect(agentToolName('my_server', 'files_read')).not.toBe(dotted);
    const long = agentToolName('s', 'x'.repeat(200));
    expect(long.length).toBe(64);
    expect(agentToolName('s', `${'x'.repeat(199)}y`)).not.toBe(long);
  });
});

describe('toolDigest', () => {
  it('changes when the description, schema or annotations change, not with key order', () => {
    const base = {
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    };
    const digest = toolDigest(base);
    expect(
      toolDigest({
        annotations: { readOnlyHint: true },
        inputSchema: { properties: { a: { type: 'string' } }, type: 'object' },
        description: 'd',
      }),
    ).toBe(digest);
    expect(toolDigest({ ...base, description: 'd!' })).not.toBe(digest);
    expect(toolDigest({ ...base, inputSchema: { type: 'object' } })).not.toBe(digest);
    expect(toolDigest({ ...base, annotations: { readOnlyHint: false } })).not.toBe(digest);
  });
});

describe('IdleWatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after the limit of silence, never while paused, and starts again on progress', () => {
    vi.useFakeTimers();
    const fired = vi.fn();
    const watch = new IdleWatch(1000, fired, false);
    vi.advanceTimersByTime(900);
    watch.touch();
    vi.advanceTimersByTime(900);
    expect(fired).not.toHaveBeenCalled();
    watch.pause(true);
    vi.advanceTimersByTime(60_000);
    expect(fired).not.toHaveBeenCalled();
    watch.pause(false);
    vi.advanceTimersByTime(999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
    watch.stop();
  });
});

describe('lostConnectionCode', () => {
  it('finds the socket code under fetch’s TypeError, ignores other errors, and stops on a cycle', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(lostConnectionCode(new TypeError('fetch failed', { cause: socket }))).toBe(
      'UND_ERR_SOCKET',
    );
    expect(lostConnectionCode(new TypeError('fetch failed'))).toBeUndefined();
    expect(lostConnectionCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBeUndefined();
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(lostConnectionCode(cyclic)).toBeUndefined();
  });
});
