import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { PermissionRequest } from 'dsh-user-interaction';
import { permissionOptionsFor } from './permission-options.js';
import { changeContent } from './tool-call-content.js';

/** Where an approval is shown: its session, and the ACP id of the tool call it approves. */
export interface ApprovalScope {
  readonly sessionId: string;
  readonly toolCallId: string;
}

/**
 * The `session/request_permission` params of an approval: the tool call the editor already
 * shows (same id), with its title, kind and change (diff or command) again for clients that
 * show the request on its own (its locations, with lines, stay those of the `tool_call`), and one option per choice the request offers.
 */
export function permissionRequestParams(
  request: PermissionRequest,
  scope: ApprovalScope,
): RequestPermissionRequest {
  const content = changeContent(request);
  return {
    sessionId: scope.sessionId,
    toolCall: {
      toolCallId: scope.toolCallId,
      title: request.title,
      kind: request.kind,
      ...(content.length > 0 && { content }),
    },
    options: permissionOptionsFor(request),
  };
}
