import type { SandboxConfinement } from 'dsh-user-interaction';

/** What a failing command's output says the sandbox stopped, and what it was. */
const BLOCKS = [
  {
    seen: /Read-only file system|EROFS/,
    network: false,
    what: 'a write outside the workspace (the rest of the file system is read-only in the sandbox)',
  },
  {
    seen: /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo E(?:NOTFOUND|AI_AGAIN)|EAI_AGAIN|No address associated with hostname/,
    network: true,
    what: 'the network (a sandboxed command has none)',
  },
] as const;

/**
 * A note for the model and the person when a sandboxed command failed in a way the sandbox
 * causes, naming what was blocked and how to ask for more: a new call of `tool` (the command
 * tool's name as the model knows it) with `sandbox: "network"` or `"none"`, which the person is
 * always asked to approve. `undefined` when nothing points at the sandbox.
 */
export function blockedNote(
  output: string,
  confinement: SandboxConfinement,
  tool: string,
): { readonly blocked: string; readonly note: string } | undefined {
  if (confinement === 'none') return undefined;
  const blocked = BLOCKS.filter(
    (block) => block.seen.test(output) && !(block.network && confinement === 'network'),
  );
  if (blocked.length === 0) return undefined;
  const needsNetwork = blocked.every((block) => block.network);
  const what = blocked.map((block) => block.what).join(' and ');
  const note = [
    `[sandbox] This command ran in the sandbox, which blocked ${what}.`,
    needsNetwork
      ? `If it needs the network, call ${tool} again with the same command and sandbox: "network"; the person will be asked.`
      : `If it must write there, call ${tool} again with sandbox: "none" (outside the sandbox); the person will be asked, and may refuse. Prefer writing inside the workspace.`,
  ].join('\n');
  return { blocked: what, note };
}
