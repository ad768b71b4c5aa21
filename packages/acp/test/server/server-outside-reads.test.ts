import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { workspaceAgentTools } from 'dsh-tools';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestClient, prompt, withServer } from '../../src/testing.js';
import { openEditorSession } from '../support/editor-session.js';

afterEach(removeWorkFolders);

/**
 * What acpx's default mode (`--approve-reads`) answers: a request of kind `read` or `search`
 * (its title's first word tells the kind when none is given) is allowed by the client itself.
 */
function approvesByItself(params: RequestPermissionRequest): boolean {
  const { kind, title } = params.toolCall;
  const head = (title ?? '').trim().toLowerCase().split(':', 1)[0] ?? '';
  const inferred =
    kind ??
    (head.includes('read') || head.includes('cat')
      ? 'read'
      : head.includes('search') || head.includes('find') || head.includes('grep')
        ? 'search'
        : 'other');
  return inferred === 'read' || inferred === 'search';
}

describe('a read or a search outside the workspace, in the editor', () => {
  it('is never sent as a kind a client approves by itself, and its title says it is outside', async () => {
    const base = workFolder('dsh-acp-outside-');
    const project = join(base, 'project');
    const outside = join(base, 'elsewhere');
    mkdirSync(project);
    mkdirSync(outside);
    writeFileSync(join(project, 'inside.txt'), 'in the workspace\n');
    writeFileSync(join(outside, 'secret.txt'), 'SECRET-VALUE\n');
    const model = createScriptedModel({
      steps: [
        {
          text: 'Reading.',
          toolCalls: [
            { id: 'r0', name: 'read_file', arguments: { path: 'inside.txt' } },
            { id: 'r1', name: 'read_file', arguments: { path: join(outside, 'secret.txt') } },
            { id: 's1', name: 'search', arguments: { pattern: 'SECRET', path: outside } },
          ],
        },
        { text: 'Done.' },
      ],
    });
    const testClient = createTestClient();
    await withServer(
      {
        model,
        toolsFor: async (cwd) => {
          const { tools, permissions } = await workspaceAgentTools({
            folder: cwd,
            stateDir: join(base, 'state'),
          });
          return { tools, permissions };
        },
      },
      testClient,
      async ({ agent }) => {
        const { sessionId } = await openEditorSession(agent, { cwd: project });
        const response = prompt(agent, sessionId, 'Read them.');
        const asked: RequestPermissionRequest[] = [];
        for (let index = 0; index < 2; index++) {
          const request = await testClient.permissions.next();
          asked.push(request.params);
          // An acpx client in its default mode: it allows what it takes for a read by itself.
          const answer: RequestPermissionResponse = {
            outcome: {
              outcome: 'selected',
              optionId: approvesByItself(request.params) ? 'allow_once' : 'reject_once',
            },
          };
          request.reply(answer);
        }
        expect(await response).toEqual({ stopReason: 'end_turn' });
        // Only the two outside the workspace asked; the read inside ran unasked.
        expect(asked.map((params) => params.toolCall.toolCallId)).toEqual(['r1', 's1']);
        for (const params of asked) {
          expect(params.toolCall.kind).toBe('other');
          expect(approvesByItself(params)).toBe(false);
        }
        expect(asked[0]?.toolCall.title).toBe(
          `Read ${join(outside, 'secret.txt')} (a read outside the workspace)`,
        );
        expect(asked[1]?.toolCall.title).toMatch(/ \(a search outside the workspace\)$/);
        // Neither ran: nothing of the secret reached the client.
        const updates: SessionUpdate[] = testClient.updates.of(sessionId).all;
        expect(JSON.stringify(updates)).not.toContain('SECRET-VALUE');
        expect(JSON.stringify(updates)).toContain('in the workspace');
      },
    );
  });
});
