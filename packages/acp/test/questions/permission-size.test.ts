import { methods } from '@agentclientprotocol/sdk';
import type { PermissionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { permissionRequestParams } from '../../src/permissions/permission-request-params.js';

/** The bytes of the line that sends `params`, as the SDK writes it (a long id). */
function lineBytes(params: unknown): number {
  const message = {
    jsonrpc: '2.0',
    id: 'x'.repeat(38),
    method: methods.client.session.requestPermission,
    params,
  };
  return Buffer.byteLength(`${JSON.stringify(message)}\n`, 'utf8');
}

const SCOPE = { sessionId: 'session-1', toolCallId: 'call-1' };

describe('the size of a permission request', () => {
  it('is sent whole when it fits', () => {
    const request: PermissionRequest = {
      toolCallId: 'call-1',
      title: 'Edit /work/a.txt',
      kind: 'edit',
      edit: { path: '/work/a.txt', oldText: 'a\n', newText: 'b\n' },
    };
    expect(permissionRequestParams(request, SCOPE, 10_000).toolCall.content).toEqual([
      { type: 'diff', path: '/work/a.txt', oldText: 'a\n', newText: 'b\n' },
    ]);
  });

  it('cuts an edit or a new file too large to send, from its first change, with a note; its options stay', () => {
    const oldText = '\u0001'.repeat(5_000);
    const edit: PermissionRequest = {
      toolCallId: 'call-1',
      title: 'Edit /work/a.txt',
      kind: 'edit',
      edit: { path: '/work/a.txt', oldText, newText: `${oldText}\nEND\n` },
      allowAlways: { rule: 'edit_file:a.txt', description: 'Always allow edit_file on `a.txt`' },
    };
    const created: PermissionRequest = {
      ...edit,
      edit: { path: '/work/a.txt', oldText: null, newText: oldText },
    };
    for (const request of [edit, created]) {
      const params = permissionRequestParams(request, SCOPE, 10_000);
      expect(lineBytes(params)).toBeLessThanOrEqual(10_000);
      // Well filled: the budget goes to the change.
      expect(lineBytes(params)).toBeGreaterThan(8_000);
      expect(params.options.map((option) => option.kind)).toEqual([
        'allow_once',
        'allow_always',
        'reject_once',
      ]);
      const [note, diff] = params.toolCall.content ?? [];
      expect(JSON.stringify(note)).toMatch(
        /This change is too large to show whole \(0\.\d MiB as a message, over the 0\.1 MiB limit of an ACP message\)\. Shown from the start: /,
      );
      expect(diff).toMatchObject({ type: 'diff', path: '/work/a.txt' });
      if (diff?.type !== 'diff') throw new Error('no diff');
      expect(diff.oldText === null).toBe(request.edit?.oldText === null);
    }
  });

  it('cuts a command too long to send, saying how much is left out', () => {
    const request: PermissionRequest = {
      toolCallId: 'call-1',
      title: 'Run echo',
      kind: 'execute',
      command: { command: `echo ${'\u0001'.repeat(5_000)}`, cwd: '/work' },
    };
    const params = permissionRequestParams(request, SCOPE, 10_000);
    expect(lineBytes(params)).toBeLessThanOrEqual(10_000);
    expect(JSON.stringify(params.toolCall.content)).toMatch(/more characters not shown: /);
  });
});
