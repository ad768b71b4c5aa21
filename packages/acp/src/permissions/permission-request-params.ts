import { methods, type RequestPermissionRequest, type ToolKind } from '@agentclientprotocol/sdk';
import type { PermissionRequest } from 'dsh-user-interaction';
import {
  MAX_MESSAGE_BYTES,
  mebibytes,
  requestByteLength,
  requestByteLengthBound,
} from '../stdio/message-size.js';
import { cutContent } from './cut-content.js';
import { permissionOptionsFor } from './permission-options.js';
import { changeContent } from './tool-call-content.js';

/** Where an approval is shown: its session, and the ACP id of the tool call it approves. */
export interface ApprovalScope {
  readonly sessionId: string;
  readonly toolCallId: string;
}

/**
 * The kind and title an approval is asked with. `read` and `search` are kinds a client may
 * approve by itself (acpx does by default), yet a read or a search that asks the person is one
 * the policy would not let run unasked: in dsh-tools, one outside the workspace. It goes as
 * `other`, its title saying so, so that only the person allows it.
 */
function askedKindAndTitle(request: Pick<PermissionRequest, 'kind' | 'title'>): {
  readonly kind: ToolKind;
  readonly title: string;
} {
  if (request.kind !== 'read' && request.kind !== 'search') {
    return { kind: request.kind, title: request.title };
  }
  const what = request.kind === 'read' ? 'a read' : 'a search';
  return { kind: 'other', title: `${request.title} (${what} outside the workspace)` };
}

/**
 * `params` as they can be sent: themselves when the request is within `limit` (the SDK reader's
 * 32 MiB: a longer line ends the connection, with every session), else with the change cut to
 * fit, a note saying what is left out (an edit of a file of megabytes dense in control
 * characters, each of which JSON writes in 6 bytes).
 */
function fitted(params: RequestPermissionRequest, limit: number): RequestPermissionRequest {
  const method = methods.client.session.requestPermission;
  // A bound first: nearly every request is far under the limit, and is then not counted exactly.
  if (requestByteLengthBound(method, params, limit) <= limit) return params;
  const bytes = requestByteLength(method, params);
  if (bytes <= limit) return params;
  const { content } = params.toolCall;
  if (content === undefined || content === null) return params;
  const why = `${mebibytes(bytes)} as a message, over the ${mebibytes(limit)} limit of an ACP message`;
  return {
    ...params,
    toolCall: { ...params.toolCall, content: cutContent(content, bytes - limit, why) },
  };
}

/**
 * The `session/request_permission` params of an approval: the tool call the editor already
 * shows (same id), with its title, kind and change (diff or command) again for clients that
 * show the request on its own (its locations, with lines, stay those of the `tool_call`), and
 * one option per choice the request offers. Never a kind a client approves by itself (see
 * `askedKindAndTitle`), and never over `limit`'s message size when its change can be cut to fit.
 */
export function permissionRequestParams(
  request: PermissionRequest,
  scope: ApprovalScope,
  limit = MAX_MESSAGE_BYTES,
): RequestPermissionRequest {
  const content = changeContent(request);
  const { kind, title } = askedKindAndTitle(request);
  return fitted(
    {
      sessionId: scope.sessionId,
      toolCall: {
        toolCallId: scope.toolCallId,
        title,
        kind,
        ...(content.length > 0 && { content }),
      },
      options: permissionOptionsFor(request),
    },
    limit,
  );
}
