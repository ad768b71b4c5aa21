/** A rule about MCP tools, read: which server, which tool (or every tool), which digest if pinned. */
export interface McpRule {
  readonly serverName: string;
  /** The tool's name as its server says it, or `*` for every tool of the server. */
  readonly toolName: string;
  /** The digest an "always" rule pinned (`toolDigest`); absent in a rule a person wrote. */
  readonly digest?: string;
}

/** The tool a call is for, as a rule is matched against it. */
export interface McpRuleTarget {
  readonly serverName: string;
  readonly toolName: string;
  readonly digest: string;
}

const DIGEST = /^[0-9a-f]{16}$/;

/**
 * Reads a rule's text: `mcp:<server>:<tool>`, `mcp:<server>:*` (Zed's spelling), the same with
 * `@<digest>` pinned, or Claude's `mcp__<server>__<tool>`, `mcp__<server>__*` and `mcp__<server>`.
 * Anything else is not an MCP rule (`undefined`): it never matches an MCP tool.
 */
export function parseMcpRule(text: string): McpRule | undefined {
  if (text.startsWith('mcp:')) {
    const rest = text.slice(4);
    const colon = rest.indexOf(':');
    if (colon <= 0) return undefined;
    const serverName = rest.slice(0, colon);
    let toolName = rest.slice(colon + 1);
    let digest: string | undefined;
    const at = toolName.lastIndexOf('@');
    if (at > 0) {
      digest = toolName.slice(at + 1);
      toolName = toolName.slice(0, at);
      if (!DIGEST.test(digest)) return undefined;
    }
    if (toolName === '') return undefined;
    return { serverName, toolName, ...(digest !== undefined && { digest }) };
  }
  if (text.startsWith('mcp__')) {
    const rest = text.slice(5);
    const split = rest.indexOf('__');
    if (split === -1) return rest === '' ? undefined : { serverName: rest, toolName: '*' };
    const serverName = rest.slice(0, split);
    const toolName = rest.slice(split + 2);
    if (serverName === '' || toolName === '') return undefined;
    return { serverName, toolName };
  }
  return undefined;
}

/** Whether `rule` names the tool (its server and name, or every tool of its server). */
export function ruleNames(rule: McpRule, target: McpRuleTarget): boolean {
  return (
    rule.serverName === target.serverName &&
    (rule.toolName === '*' || rule.toolName === target.toolName)
  );
}

/** The rule "always allow" writes for a tool: its server, its name and the digest of what it is now. */
export function pinnedRule(target: McpRuleTarget): string {
  return `mcp:${target.serverName}:${target.toolName}@${target.digest}`;
}

/** The rule for a tool whatever it says (what "always reject" writes). */
export function toolRule(target: Pick<McpRuleTarget, 'serverName' | 'toolName'>): string {
  return `mcp:${target.serverName}:${target.toolName}`;
}

/** The rule that opts a whole server in (or out). */
export function serverRule(serverName: string): string {
  return `mcp:${serverName}:*`;
}
