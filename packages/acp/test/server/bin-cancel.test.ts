import { methods } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { createTestClient, prompt, startSession } from '../../src/testing.js';
import { hasStackTrace, jsonRpcLine, startBin } from '../support/bin-process.js';

// How the process ends when its client goes away; cancels and time limits are tested in-process
// (program-cancel.test.ts).

describe('disconnect, against the bin', () => {
  it.each([
    ['its stdin ends', 'stdin'],
    ['its stdout breaks, and the next write fails', 'stdout'],
  ] as const)(
    'the client disconnecting mid-question (%s): the agent exits 0 without waiting for a reply, and without a stack trace',
    async (_, broken) => {
      const bin = startBin();
      const testClient = createTestClient();
      const connection = testClient.app.connect(bin.stream);
      const sessionId = await startSession(connection.agent);
      prompt(connection.agent, sessionId, 'Start.').catch(() => {});
      await testClient.forms.next();

      // No reply to the form ever comes: an agent that waited for one would never exit.
      if (broken === 'stdin') {
        bin.child.stdin.end();
      } else {
        bin.child.stdout.destroy();
        // Withdrawing the form makes the agent write to the broken pipe; its stdin stays open.
        await connection.agent.notify(methods.agent.session.cancel, { sessionId });
      }
      expect(await bin.exited).toEqual({ code: 0, signal: null });
      expect(hasStackTrace(bin.stderr()), bin.stderr()).toBe(false);
      for (const line of bin.lines.all) jsonRpcLine(line);
      connection.close();
    },
  );
});
