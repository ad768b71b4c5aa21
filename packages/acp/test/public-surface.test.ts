import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as server from '../src/server.js';
import * as testing from '../src/testing.js';

// What a harness author can import is a promise we keep: a name added to a list below is a
// decision (its README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  it('the root exports what the README documents, and nothing else', () => {
    expect(Object.keys(root).sort()).toEqual([
      'acpStdioStream',
      'answerFromElicitation',
      'answerFromPermission',
      'answersFromElicitation',
      'createAcpQuestionProvider',
      'createStderrLog',
      'elicitationForQuestion',
      'elicitationForQuestions',
      'permissionRequestForQuestion',
      'routeConsoleToStderr',
      'supportsFormElicitation',
    ]);
  });

  it('`dsh-acp/server` exports the agent server and nothing else', () => {
    expect(Object.keys(server).sort()).toEqual(['serveAcpAgent']);
  });

  it('`dsh-acp/testing` exports its own part and nothing else', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'AsyncQueue',
      'HeldRequests',
      'SessionUpdates',
      'WITH_FORMS',
      'Wire',
      'answerEveryPermission',
      'cancelRequest',
      'createTestClient',
      'initializeClient',
      'newSession',
      'prompt',
      'startSession',
      'tappedPipe',
      'withServer',
    ]);
  });

  it('the root stays small enough to read in a minute', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(12);
  });
});
