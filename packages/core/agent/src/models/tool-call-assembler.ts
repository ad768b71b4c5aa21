import type { ModelToolCall } from './model.js';
import { ModelError } from './model-error.js';

/** One piece of a streamed tool call, as chat-completions chunks carry it. */
export interface ToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface Draft {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles tool calls streamed in pieces: the id and name come first, the arguments in
 * fragments, and several calls interleave by `index`.
 */
export class ToolCallAssembler {
  private readonly drafts: Draft[] = [];
  private readonly byIndex = new Map<number, Draft>();

  /** Adds the tool-call deltas of one chunk. */
  add(deltas: readonly ToolCallDelta[]): void {
    deltas.forEach((delta, position) => {
      if (typeof delta !== 'object' || delta === null) return;
      const index = typeof delta.index === 'number' ? delta.index : position;
      const id = typeof delta.id === 'string' ? delta.id : '';
      let draft = this.byIndex.get(index);
      // Some servers send each complete call at index 0: a new id there is a new call.
      if (draft === undefined || (id !== '' && draft.id !== '' && id !== draft.id)) {
        draft = { id: '', name: '', arguments: '' };
        this.drafts.push(draft);
        this.byIndex.set(index, draft);
      }
      if (draft.id === '' && id !== '') draft.id = id;
      const name = delta.function?.name;
      if (draft.name === '' && typeof name === 'string') draft.name = name;
      const fragment = delta.function?.arguments;
      if (typeof fragment === 'string') draft.arguments += fragment;
    });
  }

  /** The complete calls, in the order they started. Throws `MODEL_BAD_RESPONSE` for a call without a name. */
  finish(server: string): ModelToolCall[] {
    return this.drafts.map((draft) => {
      if (draft.name === '') {
        throw new ModelError(
          `The model server at ${server} sent a tool call without a name. Try again.`,
          'MODEL_BAD_RESPONSE',
        );
      }
      // Ids must be unique in the whole conversation: a missing one gets a random one.
      const id = draft.id === '' ? `call_${globalThis.crypto.randomUUID()}` : draft.id;
      return { id, name: draft.name, arguments: draft.arguments };
    });
  }
}
