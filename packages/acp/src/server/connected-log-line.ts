import type { InitializeRequest } from '@agentclientprotocol/sdk';
import { supportsFormElicitation } from '../questions/supports-form-elicitation.js';
import { logText } from '../stdio/log-text.js';

/** The log line of a client's `initialize`: who connected, and how its questions will be asked. */
export function connectedLogLine(
  params: InitializeRequest,
  questionsAsPermissions: boolean,
): string {
  const client = params.clientInfo
    ? `${logText(params.clientInfo.name)} ${logText(params.clientInfo.version)}`
    : 'a client';
  const questions = supportsFormElicitation(params.clientCapabilities)
    ? 'questions as forms'
    : questionsAsPermissions
      ? 'no form elicitation: questions with options as permission requests'
      : 'no form elicitation: the model asks in its replies';
  return `${client} connected (protocol ${params.protocolVersion}; ${questions})`;
}
