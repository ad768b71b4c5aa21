import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptToolCall } from 'dsh-agent';
import { sessionFileLines, temporaryStateFolder, writeScriptFile } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { BIN, hasStackTrace, startBin } from '../support/bin-process.js';
import { setUpBinTerminalTests } from '../support/bin-terminal-tests.js';
import { runProgram } from '../support/program-run.js';
import { startPtySession } from '../support/pty-session.js';

setUpBinTerminalTests();

// dsh-mcp's loopback servers, written with the SDK's own server package: one of 2026-07-28 whose
// `wipe` asks in two rounds and keeps what the first proved in a sealed `requestState` (its key
// given here, so that the server started again after the kill accepts it), one of 2025 only.
const fixtures = (name: string) =>
  fileURLToPath(new URL(`../../../mcp/test/fixtures/${name}`, import.meta.url));
const ROUNDS = fixtures('rounds-server.mjs');
const LEGACY = fixtures('legacy-stdio-server.mjs');

/** A project folder with a script calling `call` and an MCP config naming `server` "srv". */
function project(server: string, call: ScriptToolCall) {
  const stateDir = temporaryStateFolder();
  const cwd = mkdtempSync(join(stateDir, 'project-'));
  const script = writeScriptFile(cwd, {
    steps: [{ text: 'Calling.', toolCalls: [call] }, { text: 'Done.' }],
  });
  const env = { LOOPBACK_STATE_KEY: 'a-key-of-the-test-that-is-32-bytes!' };
  const mcpServers = { srv: { command: process.execPath, args: [server], env } };
  writeFileSync(join(cwd, 'mcp.json'), JSON.stringify({ mcpServers }));
  const args = [
    ...['--state-dir', stateDir],
    ...['--script', script, '--mcp-config', join(cwd, 'mcp.json')],
  ];
  return { stateDir, cwd, args };
}

function onlySessionId(stateDir: string): string {
  const ids = readdirSync(join(stateDir, 'sessions')).flatMap(
    (file) => /^([0-9a-f-]{36})\.jsonl$/.exec(file)?.[1] ?? [],
  );
  expect(ids).toHaveLength(1);
  return ids[0] ?? '';
}

// Each case starts the agent twice (the bin, then the bin or the program again) and the MCP
// server with each: 10-13 s under a busy core, 18.8 s in a whole run on a busy machine, against
// the 20 s default. Every step waits on output, so the limit is headroom for that work alone.
const PROCESSES = { timeout: 60_000 };

describe('an MCP question pending when the terminal agent is killed (-9)', PROCESSES, () => {
  it('of a 2026-07-28 server: --continue asks it again, and the call is retried with its requestState; its result reaches the conversation', async () => {
    const call = { id: 'w1', name: 'mcp__srv__wipe', arguments: { cache: 'cache-a' } };
    const { stateDir, cwd, args } = project(ROUNDS, call);
    const first = startBin(args, {}, { cwd });
    first.write('wipe the cache\n');
    await first.waitForOutput('Allow? y, n or always');
    first.write('y\n');
    await first.waitForOutput('srv asks: Really wipe cache-a?');
    first.write('1\n');
    await first.waitForOutput('Send these answers to srv?');
    first.write('1\n');
    // On the screen only once durably stored (synced) with the server's requestState.
    await first.waitForOutput('srv asks: Which scope?');
    first.kill();
    expect((await first.done).signal).toBe('SIGKILL');
    const id = onlySessionId(stateDir);
    const posed = sessionFileLines(stateDir, id).filter((entry) => entry.type === 'posed');
    expect(JSON.parse(String(posed.at(-1)?.state))).toMatchObject({
      server: 'srv',
      tool: 'wipe',
      inputRequests: { scope: { params: { message: 'Which scope?' } } },
      requestState: expect.any(String),
    });

    const resumed = startPtySession(`node '${BIN}' ${args.join(' ')} --plain --continue`, {
      columns: 120,
      rows: 40,
      scrollback: 500,
      cwd,
    });
    await resumed.waitFor(/srv asks: Which scope\?[\s\S]*Choose 1-2[^\n]*:$/);
    resumed.write('1\r');
    await resumed.waitFor(/Send these answers to srv\?[\s\S]*Choose 1-2[^\n]*:$/);
    resumed.write('1\r');
    await resumed.waitFor(/Done\.[^\n]*\n(.*\n)*>$/);
    resumed.write('\u0004');
    const screen = await resumed.waitFor(/\ndone$/);
    expect(screen).toContain('exit=0');
    expect(hasStackTrace(screen)).toBe(false);
    expect(screen).toContain(
      'The agent stopped while a question waited for you: it is asked again, and the turn goes on.',
    );
    // Not asked to confirm again: the new server process took the first round's requestState.
    expect(screen.split('Resumed conversation')[1]).not.toContain('Really wipe');
    await resumed.finish();
    const lines = sessionFileLines(stateDir, id);
    expect(lines.filter((entry) => entry.type === 'tool-result')).toEqual([
      expect.objectContaining({
        toolCallId: 'w1',
        result: { ok: true, output: 'Wiped sessions of cache-a' },
      }),
    ]);
    // One approval (before the kill): the call went on under it.
    expect(lines.filter((entry) => entry.type === 'approval')).toHaveLength(1);
    expect(lines.filter((entry) => entry.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });

  it('of a 2025 server: the call is closed honestly as interrupted on --continue, never run again', async () => {
    const schema = JSON.stringify({
      type: 'object',
      properties: { env: { type: 'string', enum: ['staging', 'prod'] } },
      required: ['env'],
    });
    const call = {
      id: 'c1',
      name: 'mcp__srv__ask_form',
      arguments: { message: 'Where to deploy?', schema },
    };
    const { stateDir, cwd, args } = project(LEGACY, call);
    const first = startBin(args, {}, { cwd });
    first.write('deploy\n');
    await first.waitForOutput('Allow? y, n or always');
    first.write('y\n');
    await first.waitForOutput('srv asks: Where to deploy?');
    first.kill();
    expect((await first.done).signal).toBe('SIGKILL');

    // The next message closes the turn the kill cut short (as any turn a stop left).
    const again = await runProgram([...args, '--continue'], 'what happened?\n', {}, { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('srv asks: Where to deploy?');
    const lines = sessionFileLines(stateDir, onlySessionId(stateDir));
    expect(lines.filter((entry) => entry.type === 'tool-result')).toEqual([
      expect.objectContaining({
        toolCallId: 'c1',
        result: expect.objectContaining({
          ok: false,
          error: expect.objectContaining({ code: 'TOOL_INTERRUPTED' }),
        }),
      }),
    ]);
    expect(lines.filter((entry) => entry.type === 'turn-end')).toEqual([
      { v: 1, type: 'turn-end', reason: 'cancelled', interrupted: true },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });
});
