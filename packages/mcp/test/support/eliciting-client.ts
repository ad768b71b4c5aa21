import type { Client } from '@modelcontextprotocol/client';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import {
  type AnswerElicitationsOptions,
  answerElicitations,
  type ElicitationRecord,
} from '../../src/index.js';
import { type Era, eraClient, stdioTransport } from './loopback.js';

/** What an eliciting client adds to `answerElicitations` for server `accounts`. */
export type ElicitingClientOptions = Partial<Omit<AnswerElicitationsOptions, 'onRecord'>>;

/**
 * A client of `era` connected over stdio to the loopback server, whose elicitations
 * `answerElicitations` answers as the server `accounts` through a scripted question UI that
 * gives `replies`. It joins `open` before it connects, so that a failed start is closed too.
 */
export async function elicitingStdioClient(
  era: Era,
  open: Client[],
  replies: readonly ScriptedAnswer[],
  options: ElicitingClientOptions = {},
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers: replies });
  interaction.registerProvider(provider);
  const records: ElicitationRecord[] = [];
  const client = eraClient(era);
  answerElicitations(client, interaction, {
    serverName: 'accounts',
    ...options,
    onRecord: (record) => records.push(record),
  });
  open.push(client);
  await client.connect(stdioTransport());
  return { client, provider, records };
}
