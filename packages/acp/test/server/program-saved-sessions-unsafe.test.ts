import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import {
  removeTemporaryStateFolders,
  savedSessionText,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, initializeClient } from '../../src/testing.js';
import { withProgramClient } from '../support/program-client.js';
import { rejectionOf } from '../support/rejection-of.js';

afterEach(removeTemporaryStateFolders);

const GOOD = '1c6f9b7f-4d2e-4f30-8b8c-7d6e5f4a3b2c';
const LOCKED_BY_FIFO = '2d7a0c8a-5e3f-4a41-9c9d-8e7f6a5b4c3d';
const FIFOS = [
  '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b',
  '3e8b1d9b-6f4a-4b52-8dae-9f8a7b6c5d4e',
  '4f9c2eac-7a5b-4c63-9ebf-a09b8c7d6e5f',
  '5a0d3fbd-8b6c-4d74-8fc0-b1ac9d8e7f6a',
];

describe('saved sessions in a state folder as someone else left it, against the dsh-acp program', () => {
  it('FIFOs named like sessions or locks block nothing: list, load and new all answer, and the server ends with its input', async () => {
    const stateDir = temporaryStateFolder();
    const sessions = join(stateDir, 'sessions');
    mkdirSync(sessions, { mode: 0o700 });
    const cwd = stateDir;
    for (const id of FIFOS) execFileSync('mkfifo', [join(sessions, `${id}.jsonl`)]);
    for (const id of [GOOD, LOCKED_BY_FIFO]) {
      writeFileSync(join(sessions, `${id}.jsonl`), savedSessionText(id, cwd, 'hello'), {
        mode: 0o600,
      });
    }
    execFileSync('mkfifo', [join(sessions, `${LOCKED_BY_FIFO}.1.lock`)]);

    const client = createTestClient();
    const { program: bin } = await withProgramClient(
      ['--state-dir', stateDir],
      client,
      async (agent) => {
        await initializeClient(agent);
        const { sessions: listed } = await agent.request(methods.agent.session.list, { cwd });
        expect(listed.map((info) => info.sessionId).sort()).toEqual([GOOD, LOCKED_BY_FIFO].sort());
        const refused = await rejectionOf(
          agent.request(methods.agent.session.load, {
            sessionId: FIFOS[0] ?? '',
            cwd,
            mcpServers: [],
          }),
        );
        expect(refused).toMatchObject({ code: -32603, data: { code: 'SESSION_UNSAFE' } });
        expect((refused as Error).message).toContain('is not a regular file');
        for (const sessionId of [GOOD, LOCKED_BY_FIFO]) {
          await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
        }
        expect(client.updates.text(GOOD)).toContain('Hi.');
        const { sessionId } = await agent.request(methods.agent.session.new, {
          cwd,
          mcpServers: [],
        });
        expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      },
    );
    expect(bin.stderr().match(/is not a regular file/g)).toHaveLength(FIFOS.length);
  });

  it('refuses to list or load from a sessions folder others can write, naming the fix', async () => {
    const stateDir = temporaryStateFolder();
    const sessions = join(stateDir, 'sessions');
    mkdirSync(sessions);
    writeFileSync(join(sessions, `${GOOD}.jsonl`), savedSessionText(GOOD, stateDir, 'hello'), {
      mode: 0o600,
    });
    chmodSync(sessions, 0o777);
    const client = createTestClient();
    await withProgramClient(['--state-dir', stateDir], client, async (agent) => {
      await initializeClient(agent);
      for (const request of [
        agent.request(methods.agent.session.list, { cwd: stateDir }),
        agent.request(methods.agent.session.load, {
          sessionId: GOOD,
          cwd: stateDir,
          mcpServers: [],
        }),
      ]) {
        const error = await rejectionOf(request);
        expect(error).toMatchObject({ code: -32603, data: { code: 'SESSION_UNSAFE' } });
        expect((error as Error).message).toContain(`chmod 700 ${sessions}`);
      }
    });
  });
});
