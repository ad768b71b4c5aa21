import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as agentTool from '../src/agent-tool.js';
import * as host from '../src/host.js';
import * as inTurn from '../src/in-turn.js';
import * as root from '../src/index.js';
import * as provider from '../src/provider.js';
import * as testing from '../src/testing.js';
import * as text from '../src/text.js';

/** What a UI provider needs: the `provider` subpath, all of it also at the root. */
const PROVIDER_NAMES = [
  'FULL_CAPABILITIES',
  'PendingQuestions',
  'REQUEST_LIMITS',
  'UserInteractionError',
  'acceptsCustomAnswer',
  'answerForItem',
  'answerForOption',
  'askCancelledError',
  'askDeclinedError',
  'askFailedError',
  'hasOptions',
  'inertText',
  'inputClosedError',
  'invalidAnswerError',
  'invalidRequestError',
  'isBlankText',
  'isUserInteractionError',
  'offeredChoices',
  'optionValue',
  'recommendedOption',
  'refusalFor',
  'timeLimitSentence',
  'unsupportedError',
];

/** The rest of the root: the service, the tool, the checks and the vocabulary. */
const ROOT_ONLY_NAMES = [
  'ASK_USER_QUESTION_PARAMETERS',
  'ASK_USER_QUESTION_TOOL_NAME',
  'HarnessError',
  'INTERNAL_ERROR_CODE',
  'PERMISSION_CHOICES',
  'PERMISSION_KINDS',
  'USER_INTERACTION_ERROR_CODES',
  'askUserQuestionTool',
  'createUserInteraction',
  'describeAskUserQuestionTool',
  'executeAskUserQuestion',
  'isHarnessError',
  'isUserInteractionErrorCode',
  'parseAskUserQuestionArguments',
  'toToolError',
  'validateAnswer',
  'validateAnswers',
  'validateQuestionsRequest',
  'validateRequest',
];

// What a harness author can import is a promise we keep: a name added here is a decision (the
// README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  it('the root exports what the README documents, and nothing else', () => {
    expect(Object.keys(root).sort()).toEqual([...PROVIDER_NAMES, ...ROOT_ONLY_NAMES].sort());
  });

  it('stays small enough to read in a minute', () => {
    // 42 since `inertText` and `timeLimitSentence` joined it: the one text rule and time-limit wording
    // of every UI (they were one copy per package before).
    expect(Object.keys(root).length).toBeLessThanOrEqual(42);
  });

  it('the agent-tool subpath is types only; host and text hold their few names', () => {
    expect(Object.keys(agentTool)).toEqual([]);
    expect(Object.keys(host).sort()).toEqual([
      'API_KEY_VARIABLES',
      'OWN_FILE_FLAGS',
      'currentUser',
      'ownFileProblem',
      'readOpenFile',
      'writePrivateFile',
    ]);
    expect(Object.keys(text).sort()).toEqual(['formatDuration', 'routeConsole']);
  });

  it('the testing subpath holds the scripted provider', () => {
    expect(Object.keys(testing).sort()).toEqual(['createScriptedProvider']);
  });

  it('the provider subpath holds what a UI provider needs, the very values of the root', () => {
    expect(Object.keys(provider).sort()).toEqual(PROVIDER_NAMES);
    // One class and one function each, whichever path a provider imports them from.
    const rootValues = new Map(Object.entries(root));
    for (const [name, value] of Object.entries(provider))
      expect(rootValues.get(name), name).toBe(value);
  });

  it('in the build too, both paths give one class: the code they share is one chunk', async () => {
    const builtProvider = (await import(
      new URL('../dist/provider.js', import.meta.url).href
    )) as typeof provider;
    const builtRoot = (await import(
      new URL('../dist/index.js', import.meta.url).href
    )) as typeof root;
    expect(builtProvider.UserInteractionError).toBe(builtRoot.UserInteractionError);
    expect(builtProvider.PendingQuestions).toBe(builtRoot.PendingQuestions);
    expect(builtRoot.isUserInteractionError(builtProvider.askFailedError('x'))).toBe(true);
  });

  it('in the build, the provider subpath is its entry and one chunk that imports nothing', () => {
    // Each file is one more read and one more round of the module loader at a program's start
    // (a terminal UI pays for it before its first question): the subpath loads two files.
    const dist = fileURLToPath(new URL('../dist/', import.meta.url));
    const importsOf = (file: string) =>
      [
        ...readFileSync(join(dist, file), 'utf8').matchAll(
          // `… from "x"`, a bare `import "x"` and `import("x")`.
          /\bfrom\s*"([^"]+)"|\bimport\s*\(?\s*"([^"]+)"/g,
        ),
      ].map((match) => (match[1] ?? match[2]) as string);
    const chunks = importsOf('provider.js');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatch(/^\.\/chunk-[\w-]+\.js$/);
    expect(importsOf(chunks[0] as string)).toEqual([]);
  });

  it('in the build, the testing and in-turn subpaths use the provider subpath itself', () => {
    // In plain Node, as a harness author runs it (under Vitest, the package's own name would
    // resolve to its sources): the scripted provider's errors are the provider subpath's class,
    // not a copy of it, and the in-turn rule answers with the provider's helpers.
    const dist = new URL('../dist/', import.meta.url).href;
    const probe = `
      const provider = await import(${JSON.stringify(`${dist}provider.js`)});
      const { createScriptedProvider } = await import(${JSON.stringify(`${dist}testing.js`)});
      const { askEachInTurn } = await import(${JSON.stringify(`${dist}in-turn.js`)});
      const scripted = createScriptedProvider({ answers: [{ error: 'ASK_DECLINED' }] });
      const declined = await scripted.ask({ question: 'Which?' }).catch((error) => error);
      const set = await askEachInTurn(
        { questions: [{ question: 'Which?', options: [{ label: 'A' }, { label: 'B', value: 'b' }] }] },
        async () => ({ answer: 'b', option: { label: 'B', value: 'b' } }),
      );
      process.stdout.write(JSON.stringify({
        sameClass: declined instanceof provider.UserInteractionError,
        declined: provider.isUserInteractionError(declined, 'ASK_DECLINED'),
        answers: set.answers.map((answer) => answer.answers),
      }));
    `;
    const seen = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
    });
    expect(JSON.parse(seen)).toEqual({ sameClass: true, declined: true, answers: [['b']] });
  });

  it('the in-turn subpath holds the rule for asking a set one question at a time', () => {
    expect(Object.keys(inTurn).sort()).toEqual(['askEachInTurn']);
  });
});
