import { describe, expect, it } from 'vitest';
import {
  createUserInteraction,
  type PermissionRequest,
  type UserInteractionProvider,
} from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { validatePermissionRequest } from '../src/validation/validate-permission-request.js';

const EDIT: PermissionRequest = {
  toolCallId: 'call_1',
  title: 'Edit src/app.ts',
  kind: 'edit',
  paths: ['/work/project/src/app.ts'],
  edit: { path: '/work/project/src/app.ts', oldText: 'a\n', newText: 'b\n' },
  allowAlways: { rule: 'edit_file:src/*.ts', description: 'Always allow edits to src/*.ts' },
};

function withProvider(provider: UserInteractionProvider) {
  const interaction = createUserInteraction();
  interaction.registerProvider(provider);
  return interaction;
}

describe('requestPermission()', () => {
  it('returns the person’s choice as an outcome, with the rule an "always" writes', async () => {
    const provider = createScriptedProvider({
      answers: [{ choice: 'allow_once' }, { choice: 'allow_always' }, { choice: 'reject_once' }],
    });
    const interaction = withProvider(provider);
    expect(await interaction.requestPermission(EDIT)).toEqual({
      allowed: true,
      decidedBy: { kind: 'person', choice: 'allow_once' },
    });
    expect(await interaction.requestPermission(EDIT)).toEqual({
      allowed: true,
      decidedBy: { kind: 'person', choice: 'allow_always', rule: 'edit_file:src/*.ts' },
    });
    expect(await interaction.requestPermission(EDIT)).toEqual({
      allowed: false,
      decidedBy: { kind: 'person', choice: 'reject_once' },
    });
    // The provider got a frozen snapshot, never the caller's object.
    expect(provider.permissions[0]).not.toBe(EDIT);
    expect(Object.isFrozen(provider.permissions[0])).toBe(true);
    expect(provider.requests).toHaveLength(0);
  });

  it('denies, with a code, when nobody can approve: never an approval', async () => {
    const none = createUserInteraction();
    expect(await none.requestPermission(EDIT)).toMatchObject({
      allowed: false,
      decidedBy: { kind: 'unanswered', code: 'NO_PROVIDER' },
    });
    // A UI that shows questions only is never asked an approval as a question.
    let asked = 0;
    const questionsOnly = withProvider({
      ask: async () => {
        asked++;
        return { answer: 'yes' };
      },
    });
    expect(await questionsOnly.requestPermission(EDIT)).toMatchObject({
      allowed: false,
      decidedBy: { kind: 'unanswered', code: 'UNSUPPORTED' },
    });
    expect(asked).toBe(0);
    const notNow = withProvider({
      ask: async () => ({ answer: 'x' }),
      requestPermission: async () => ({ choice: 'allow_once' }),
      capabilities: { freeForm: true, customAnswer: true, permissions: false },
    });
    expect((await notNow.requestPermission(EDIT)).allowed).toBe(false);
    for (const code of ['INPUT_CLOSED', 'ASK_CANCELLED', 'ASK_FAILED'] as const) {
      const failing = withProvider(createScriptedProvider({ answers: [{ error: code }] }));
      expect(await failing.requestPermission(EDIT)).toMatchObject({
        allowed: false,
        decidedBy: { kind: 'unanswered', code },
      });
    }
    const throwing = withProvider({
      ask: async () => ({ answer: 'x' }),
      requestPermission() {
        throw new Error('boom /secret/path');
      },
    });
    const outcome = await throwing.requestPermission(EDIT);
    expect(outcome).toMatchObject({ allowed: false, decidedBy: { code: 'ASK_FAILED' } });
    expect(JSON.stringify(outcome)).not.toContain('secret');
  });

  it('refuses a choice that was not offered', async () => {
    const { allowAlways: _, ...once } = EDIT;
    for (const choice of ['allow_always', 'reject_always', 'yes']) {
      const interaction = withProvider(createScriptedProvider({ answers: [{ raw: { choice } }] }));
      expect(await interaction.requestPermission(once)).toMatchObject({
        allowed: false,
        decidedBy: { kind: 'unanswered', code: 'INVALID_ANSWER' },
      });
    }
  });

  it('denies on an abort before or during the wait, and at the time limit', async () => {
    const provider = createScriptedProvider();
    const interaction = withProvider(provider);
    const aborted = AbortSignal.abort(new Error('stop'));
    expect(await interaction.requestPermission({ ...EDIT, signal: aborted })).toMatchObject({
      allowed: false,
      decidedBy: { code: 'ASK_ABORTED' },
    });
    const controller = new AbortController();
    const held = provider.hold<PermissionRequest>();
    const waiting = interaction.requestPermission({ ...EDIT, signal: controller.signal });
    await held;
    controller.abort();
    expect(await waiting).toMatchObject({ allowed: false, decidedBy: { code: 'ASK_ABORTED' } });
    const late = provider.hold<PermissionRequest>();
    const timed = interaction.requestPermission({ ...EDIT, timeoutMs: 5 });
    (await late).aborted.then(() => {});
    expect(await timed).toMatchObject({ allowed: false, decidedBy: { code: 'ASK_TIMEOUT' } });
  });

  it('refuses an invalid or hostile request as a denial naming the field', async () => {
    const interaction = withProvider(
      createScriptedProvider({ answers: [{ choice: 'allow_once' }] }),
    );
    const cases: [unknown, string][] = [
      [{ ...EDIT, paths: ['relative/path'] }, 'paths[0]'],
      [{ ...EDIT, kind: 'write' }, 'kind'],
      [{ ...EDIT, title: '  \u200b ' }, 'title'],
      [{ ...EDIT, edit: { ...EDIT.edit, extra: 1 } }, 'edit.extra'],
      [{ ...EDIT, command: { command: 'ls', cwd: '/tmp\u001b[2J' } }, 'command.cwd'],
      [
        { ...EDIT, command: { command: 'ls', cwd: '/tmp', sandbox: { confinement: 'off' } } },
        'command.sandbox.confinement',
      ],
      [
        {
          ...EDIT,
          command: { command: 'ls', cwd: '/tmp', sandbox: { confinement: 'none', note: ' ' } },
        },
        'command.sandbox.note',
      ],
      [
        {
          ...EDIT,
          command: {
            command: 'ls',
            cwd: '/tmp',
            sandbox: { confinement: 'none', note: 'x', y: 1 },
          },
        },
        'command.sandbox.y',
      ],
      [{ ...EDIT, toolCallID: 'x' }, 'toolCallID'],
      [
        new Proxy(EDIT, {
          get() {
            throw new Error('trap');
          },
        }),
        'signal',
      ],
    ];
    for (const [request, field] of cases) {
      const outcome = await interaction.requestPermission(request as PermissionRequest);
      expect(outcome, field).toMatchObject({
        allowed: false,
        decidedBy: { kind: 'unanswered', code: 'INVALID_REQUEST' },
      });
      expect((outcome.decidedBy as { message: string }).message).toContain(`\`${field}\``);
    }
    expect(() => validatePermissionRequest({ ...EDIT, paths: ['/a', 'b'] })).toThrow(/paths\[1\]/);
    // Whether a command is sandboxed reaches the UI as the tool said it.
    const sandbox = { confinement: 'network', note: 'sandboxed, with the network' };
    expect(
      validatePermissionRequest({ ...EDIT, command: { command: 'ls', cwd: '/tmp', sandbox } })
        .command,
    ).toEqual({ command: 'ls', cwd: '/tmp', sandbox });
    // A getter is read once: what is checked is what the UI sees.
    let reads = 0;
    const request = {
      ...EDIT,
      get title() {
        reads++;
        return reads === 1 ? 'Edit src/app.ts' : 'rm -rf /';
      },
    };
    expect(validatePermissionRequest(request).title).toBe('Edit src/app.ts');
    expect(reads).toBe(1);
  });
});
