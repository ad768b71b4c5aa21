import { describe, expect, it } from 'vitest';
import { UndoStack } from '../../src/terminal-agent/undo-stack.js';

describe('UndoStack', () => {
  it('runs the cleanups last registered first', async () => {
    const undo = new UndoStack();
    const ran: string[] = [];
    undo.defer(() => ran.push('session'));
    undo.defer(() => ran.push('readline'));
    const value = undo.adopt({ name: 'listener' }, (listener) => ran.push(listener.name));
    expect(value).toEqual({ name: 'listener' });
    expect(ran).toEqual([]);
    await undo.undo();
    expect(ran).toEqual(['listener', 'readline', 'session']);
  });

  it('runs every cleanup even when one fails, and throws its error', async () => {
    const undo = new UndoStack();
    const ran: string[] = [];
    const failure = new Error('the output is gone');
    undo.defer(() => ran.push('first'));
    undo.defer(() => {
      throw failure;
    });
    undo.defer(() => ran.push('last'));
    await expect(undo.undo()).rejects.toBe(failure);
    expect(ran).toEqual(['last', 'first']);
  });

  it('reports every failure, in the order they ran, when several fail', async () => {
    const undo = new UndoStack();
    const ran: string[] = [];
    const rejected = new Error('the session did not close');
    const thrown = new Error('the listener was gone');
    undo.defer(async () => {
      ran.push('session');
      throw rejected;
    });
    undo.defer(() => ran.push('readline'));
    undo.defer(() => {
      ran.push('listener');
      throw thrown;
    });
    const error = await undo.undo().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ran).toEqual(['listener', 'readline', 'session']);
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors).toEqual([thrown, rejected]);
    expect((error as AggregateError).message).toBe('2 cleanups failed');
  });

  it('waits for a cleanup that returns a promise before the next, and runs the others at once', async () => {
    const undo = new UndoStack();
    const ran: string[] = [];
    let finishMcp!: () => void;
    undo.defer(() => ran.push('session'));
    undo.defer(
      () =>
        new Promise<void>((resolve) => {
          ran.push('mcp started closing');
          finishMcp = () => {
            ran.push('mcp closed');
            resolve();
          };
        }),
    );
    undo.defer(() => ran.push('readline'));
    undo.defer(() => ran.push('listener'));
    const undone = undo.undo();
    // The cleanups that return nothing ran in the same tick as the call, up to the promise.
    expect(ran).toEqual(['listener', 'readline', 'mcp started closing']);
    finishMcp();
    await undone;
    expect(ran).toEqual(['listener', 'readline', 'mcp started closing', 'mcp closed', 'session']);
  });

  it('runs each cleanup once, however often it is undone', async () => {
    const undo = new UndoStack();
    let runs = 0;
    undo.defer(() => {
      runs++;
    });
    await undo.undo();
    await undo.undo();
    expect(runs).toBe(1);
    undo.defer(() => {
      runs++;
    });
    await undo.undo();
    expect(runs).toBe(2);
  });
});
