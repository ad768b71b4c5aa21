import { isUserInteractionError, type PermissionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { answerFromPermission } from '../../src/index.js';
import { choiceFromPermissionReply } from '../../src/permissions/permission-options.js';
import { selectedOptionId } from '../../src/permissions/selected-option-id.js';
import { thrownCode } from '../support/code-of.js';

// One reader of the client's `session/request_permission` reply: for a tool call's approval
// (choiceFromPermissionReply) and for a question asked as a permission request
// (answerFromPermission). The two must agree on everything but which ids they offered.

const approval: PermissionRequest = {
  toolCallId: 'call-1',
  title: 'Run npm test',
  kind: 'execute',
};
const question = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', value: 'pg' }, { label: 'SQLite' }],
};

const readers = [
  ['selectedOptionId', (reply: unknown) => selectedOptionId(reply)],
  ['an approval', (reply: unknown) => choiceFromPermissionReply(approval, reply)],
  ['a question', (reply: unknown) => answerFromPermission(question, reply)],
] as const;

function selected(optionId: unknown): unknown {
  return { outcome: { outcome: 'selected', optionId } };
}

/** A reply whose every property read throws `thrown`. */
function throwingProxy(thrown: unknown): unknown {
  return new Proxy(
    {},
    {
      get: () => {
        throw thrown;
      },
    },
  );
}

function revokedProxy(): unknown {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('the permission reply', () => {
  it('gives the id of the selected option', () => {
    expect(selectedOptionId(selected('allow_once'))).toBe('allow_once');
    expect(choiceFromPermissionReply(approval, selected('reject_once'))).toEqual({
      choice: 'reject_once',
    });
    expect(answerFromPermission(question, selected('option-1'))).toMatchObject({
      answer: 'SQLite',
    });
  });

  // A getter that throws an error carrying a look-alike code: what it throws must not pass.
  const lookAlike = Object.assign(new Error('forged'), { code: 'ASK_CANCELLED' });
  const hostile: [string, () => unknown, string][] = [
    ['cancelled', () => ({ outcome: { outcome: 'cancelled' } }), 'ASK_CANCELLED'],
    [
      'cancelled, with an option id',
      () => ({ outcome: { outcome: 'cancelled', optionId: 'allow_once' } }),
      'ASK_CANCELLED',
    ],
    [
      'an unknown outcome',
      () => ({ outcome: { outcome: 'approved', optionId: 'allow_once' } }),
      'INVALID_ANSWER',
    ],
    ['an outcome that is text', () => ({ outcome: 'selected' }), 'INVALID_ANSWER'],
    ['an outcome that is a list', () => ({ outcome: ['selected'] }), 'INVALID_ANSWER'],
    ['no outcome', () => ({}), 'INVALID_ANSWER'],
    ['a null reply', () => null, 'INVALID_ANSWER'],
    ['a reply that is text', () => 'allow_once', 'INVALID_ANSWER'],
    ['no option id', () => ({ outcome: { outcome: 'selected' } }), 'INVALID_ANSWER'],
    ['a numeric option id', () => selected(0), 'INVALID_ANSWER'],
    [
      'an option id that is an object',
      () => selected({ toString: () => 'allow_once' }),
      'INVALID_ANSWER',
    ],
    [
      'a reply whose outcome getter throws',
      () => ({
        get outcome() {
          throw lookAlike;
        },
      }),
      'INVALID_ANSWER',
    ],
    [
      'an outcome whose optionId getter throws',
      () => ({
        outcome: {
          outcome: 'selected',
          get optionId() {
            throw new Error('boom');
          },
        },
      }),
      'INVALID_ANSWER',
    ],
    ['a Proxy whose every read throws', () => throwingProxy(lookAlike), 'INVALID_ANSWER'],
    [
      'an outcome that is a throwing Proxy',
      () => ({ outcome: throwingProxy('boom') }),
      'INVALID_ANSWER',
    ],
    ['a revoked Proxy', () => revokedProxy(), 'INVALID_ANSWER'],
    ['an outcome that is a revoked Proxy', () => ({ outcome: revokedProxy() }), 'INVALID_ANSWER'],
  ];

  describe.each(readers)('read as %s', (_name, read) => {
    // The reply is made inside the test: even formatting a test's title would read it.
    it.each(hostile)('%s', (_case, reply, code) => {
      let thrown: unknown;
      try {
        read(reply());
      } catch (error) {
        thrown = error;
      }
      expect(isUserInteractionError(thrown)).toBe(true);
      expect(thrown).not.toBe(lookAlike);
      expect((thrown as { code: string }).code).toBe(code);
    });
  });

  it('reads each field once: a getter cannot say selected to one check and something else to the next', () => {
    let reads = 0;
    const outcome = {
      get outcome() {
        reads++;
        return reads === 1 ? 'selected' : 'cancelled';
      },
      optionId: 'allow_once',
    };
    expect(selectedOptionId({ outcome })).toBe('allow_once');
    expect(reads).toBe(1);
  });

  it.each([
    ['an approval', (id: string) => choiceFromPermissionReply(approval, selected(id))],
    ['a question', (id: string) => answerFromPermission(question, selected(id))],
  ])('%s refuses an option id it did not offer with INVALID_ANSWER', (_name, read) => {
    // "always" is not offered without the rule it would write; a question's ids are its own.
    const refused = ['allow_always', 'reject_always', 'option-2', 'constructor', '__proto__', ''];
    for (const id of refused)
      expect(
        thrownCode(() => read(id)),
        id,
      ).toBe('INVALID_ANSWER');
  });

  it("an approval's ids are not a question's, nor the other way round", () => {
    expect(thrownCode(() => choiceFromPermissionReply(approval, selected('option-0')))).toBe(
      'INVALID_ANSWER',
    );
    expect(thrownCode(() => answerFromPermission(question, selected('allow_once')))).toBe(
      'INVALID_ANSWER',
    );
  });
});
