import type {
  PermissionCheck,
  PermissionPolicy,
  PermissionVerdict,
} from 'dsh-user-interaction/agent-tool';
import type { McpToolInfo, McpToolSet } from '../tools/mcp-tool-set.js';
import { decideMcpCall, type McpRules } from './decide-mcp-call.js';
import { parseMcpRule } from './mcp-rule.js';
import { type PinnedTools, pinnedToolsIn } from './pinned-tools.js';
import { toolChanges } from './tool-changes.js';

/** A call the policy decides: the contract's `PermissionCheck` (the port `dsh-agent` calls). */
export type McpPermissionCheck = PermissionCheck;

/** What the policy says: the contract's `PermissionVerdict`. */
export type McpPermissionVerdict = PermissionVerdict;

/** A permission policy: the contract's `PermissionPolicy`, which `createAgent` takes. */
export type McpPermissionPolicy = PermissionPolicy;

/**
 * A rules file that "always" writes to and that is read back at the next start: the workspace
 * policy of `dsh-tools` (`createPermissionPolicy`) is one. Its `rules()` lists every rule in
 * force (`--allow`, `--deny`, the files'); `remember` adds one to the workspace's file.
 */
export interface McpRulesFile {
  rules(): readonly { readonly rule: string; readonly effect: 'allow' | 'deny' }[];
  remember(rule: string, effect: 'allow' | 'deny'): void | Promise<void>;
  /** `workspace`: the path of the workspace's rules file (pinned definitions are kept beside it). */
  readonly files: { readonly workspace: string };
}

/** `policy` as a rules file when it is one (it lists its rules and keeps them in a file). */
export function asMcpRulesFile(policy: unknown): McpRulesFile | undefined {
  const candidate = policy as Partial<McpRulesFile> | null | undefined;
  return typeof candidate?.rules === 'function' &&
    typeof candidate.remember === 'function' &&
    typeof candidate.files?.workspace === 'string'
    ? (candidate as McpRulesFile)
    : undefined;
}

/** What `withMcpRules` composes. */
export interface WithMcpRulesOptions {
  /** The servers whose tools these rules cover (read at each decision: servers come and go). */
  readonly toolSets: () => readonly McpToolSet[];
  /** The MCP rules in force (read at each decision); "always" answers of this session are added. */
  readonly rules?: () => McpRules;
  /** Where the rules live, as the person is told ("~/.dsh/rules"); default "MCP rules". */
  readonly source?: string;
  /** The policy for every other tool (the workspace's); without it, other calls ask. */
  readonly fallback?: McpPermissionPolicy;
  /** Keeps an MCP "always" rule beyond this session (a rules file); failures are the caller's to report. */
  readonly remember?: (rule: string, effect: 'allow' | 'deny') => void | Promise<void>;
  /**
   * The rules file "always" writes MCP rules to, and reads them back from (with `--allow` and
   * `--deny`): an "always" outlives the session. The definition of each tool allowed "always" is
   * kept beside it (`<rules file>.mcp-tools/<digest>.json`), so that when its server changes the
   * tool, the person asked again is told what changed.
   */
  readonly rulesFile?: McpRulesFile;
  /**
   * The servers whose `readOnlyHint` the person trusts (`--mcp-trust-read-only`): a tool of one
   * of them that says it only reads runs unasked, unless a deny rule names it. Annotations of
   * every other server are never read: a hint alone never skips an approval.
   */
  readonly trustReadOnlyHint?: readonly string[];
}

/** The rules a rules file holds, as allow and deny lists. */
function rulesIn(file: McpRulesFile | undefined): McpRules {
  const listed = file?.rules() ?? [];
  return {
    allow: listed.filter((entry) => entry.effect === 'allow').map((entry) => entry.rule),
    deny: listed.filter((entry) => entry.effect === 'deny').map((entry) => entry.rule),
  };
}

/** Whether the person trusts `info`'s server to say truly that the tool only reads, and it says so. */
function trustsReadOnly(info: McpToolInfo, trusted: readonly string[] | undefined): boolean {
  return (
    trusted?.includes(info.serverName) === true &&
    info.definition.annotations?.readOnlyHint === true
  );
}

/**
 * A permission policy that decides MCP tool calls by MCP rules (`decideMcpCall`: digest-pinned
 * "always", per-server opt-in, annotations trusted only for the servers the person names) and hands every other call to
 * `fallback`. "Always" answers for MCP tools are kept for the session and passed to `remember`.
 */
export function withMcpRules(options: WithMcpRulesOptions): McpPermissionPolicy {
  const session: { allow: string[]; deny: string[] } = { allow: [], deny: [] };
  const source = options.source ?? 'MCP rules';
  const { rulesFile } = options;
  const pinned: PinnedTools | undefined =
    rulesFile === undefined
      ? undefined
      : pinnedToolsIn(`${rulesFile.files.workspace.replace(/\.json$/, '')}.mcp-tools`);
  const infoOf = (toolName: string) =>
    options
      .toolSets()
      .map((set) => set.info(toolName))
      .find((found) => found !== undefined);
  return {
    decide(check) {
      const info = infoOf(check.toolName);
      if (info === undefined) return options.fallback?.decide(check) ?? { decision: 'ask' };
      const kept = options.rules?.() ?? { allow: [], deny: [] };
      const filed = rulesIn(rulesFile);
      const decision = decideMcpCall(
        info,
        {
          allow: [...filed.allow, ...kept.allow, ...session.allow],
          deny: [...filed.deny, ...kept.deny, ...session.deny],
        },
        {
          whatChanged: (digest) => {
            const before = pinned?.read(digest);
            return before === undefined ? undefined : toolChanges(before, info.definition);
          },
        },
      );
      if (decision.decision === 'ask' && trustsReadOnly(info, options.trustReadOnlyHint))
        return {
          decision: 'allow',
          decidedBy: {
            kind: 'policy',
            reason: `\`${info.toolName}\` of ${info.serverName} says it only reads (readOnlyHint), and you trust ${info.serverName}'s hints (--mcp-trust-read-only)`,
          },
        };
      if (decision.decision === 'ask')
        return {
          decision: 'ask',
          allowAlways: decision.allowAlways,
          rejectAlways: decision.rejectAlways,
        };
      return {
        decision: decision.decision,
        decidedBy: { kind: 'rule', rule: decision.rule, source },
      };
    },
    async remember(rule, effect) {
      const parsed = parseMcpRule(rule);
      if (parsed === undefined) return options.fallback?.remember?.(rule, effect);
      session[effect].push(rule);
      if (parsed.digest !== undefined) {
        // The definition as it is now, to tell the person later what its server changed.
        const definition = options
          .toolSets()
          .flatMap((set) => set.tools.map((tool) => set.info(tool.name)))
          .find(
            (info) =>
              info?.serverName === parsed.serverName &&
              info.toolName === parsed.toolName &&
              info.digest === parsed.digest,
          )?.definition;
        if (definition !== undefined) pinned?.keep(definition);
      }
      await options.remember?.(rule, effect);
      await rulesFile?.remember(rule, effect);
    },
  };
}
