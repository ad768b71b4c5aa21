import type { PermissionPolicy } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import {
  connectMcpServer,
  decideMcpCall,
  type McpPermissionPolicy,
  parseMcpRule,
  withMcpRules,
} from '../src/index.js';
import { loopStdioConfig } from './support/loopback.js';

const target = { serverName: 'github', toolName: 'create_issue', digest: '0123456789abcdef' };

// The policy fits dsh-agent's PermissionPolicy (a compile-time check).
const fits = (policy: McpPermissionPolicy): PermissionPolicy => policy;

describe('parseMcpRule', () => {
  it("reads Zed's and Claude's spellings, and a pinned digest", () => {
    expect(parseMcpRule('mcp:github:create_issue')).toEqual({
      serverName: 'github',
      toolName: 'create_issue',
    });
    expect(parseMcpRule('mcp:github:*')).toEqual({ serverName: 'github', toolName: '*' });
    expect(parseMcpRule('mcp:github:create_issue@0123456789abcdef')).toEqual({ ...target });
    expect(parseMcpRule('mcp__github__create_issue')).toEqual({
      serverName: 'github',
      toolName: 'create_issue',
    });
    expect(parseMcpRule('mcp__github__*')).toEqual({ serverName: 'github', toolName: '*' });
    expect(parseMcpRule('mcp__github')).toEqual({ serverName: 'github', toolName: '*' });
  });

  it('reads nothing else as an MCP rule', () => {
    for (const text of [
      'run_command:npm test',
      'mcp:',
      'mcp::x',
      'mcp:github:',
      'mcp:github:x@nothex',
      'mcp__',
      'mcp____x',
    ]) {
      expect(parseMcpRule(text)).toBeUndefined();
    }
  });
});

describe('decideMcpCall', () => {
  it('asks by default, offering a pinned always-allow and a tool-wide always-reject', () => {
    expect(decideMcpCall(target, { allow: [], deny: [] })).toEqual({
      decision: 'ask',
      allowAlways: {
        rule: 'mcp:github:create_issue@0123456789abcdef',
        description:
          'Always allow `create_issue` of the MCP server github while it stays as it is now',
      },
      rejectAlways: {
        rule: 'mcp:github:create_issue',
        description: 'Always reject `create_issue` of the MCP server github',
      },
    });
  });

  it('allows by a pinned rule while the digest matches, by a per-server opt-in, and by a hand-written rule', () => {
    expect(
      decideMcpCall(target, { allow: ['mcp:github:create_issue@0123456789abcdef'], deny: [] })
        .decision,
    ).toBe('allow');
    expect(decideMcpCall(target, { allow: ['mcp:github:*'], deny: [] }).decision).toBe('allow');
    expect(decideMcpCall(target, { allow: ['mcp__github__create_issue'], deny: [] }).decision).toBe(
      'allow',
    );
    expect(
      decideMcpCall(target, { allow: ['mcp:gitlab:*', 'mcp:github:other'], deny: [] }).decision,
    ).toBe('ask');
  });

  it('asks again when the tool changed after it was always-allowed, saying so', () => {
    const decision = decideMcpCall(target, {
      allow: ['mcp:github:create_issue@ffffffffffffffff'],
      deny: [],
    });
    expect(decision).toMatchObject({
      decision: 'ask',
      changedSince: 'mcp:github:create_issue@ffffffffffffffff',
    });
    expect(decision.decision === 'ask' && decision.allowAlways.description).toContain(
      'it changed since you allowed it',
    );
  });

  it('lets a deny rule win over any allow', () => {
    expect(
      decideMcpCall(target, { allow: ['mcp:github:*'], deny: ['mcp__github__create_issue'] }),
    ).toEqual({
      decision: 'deny',
      rule: 'mcp__github__create_issue',
    });
  });
});

describe('withMcpRules', () => {
  it('asks again when the server changes an always-allowed tool (the digest re-ask)', async () => {
    const first = await connectMcpServer(loopStdioConfig(), { era: 'legacy' });
    const remembered: string[] = [];
    const kept: string[] = [];
    let sets = [first.tools];
    const policy = fits(
      withMcpRules({
        toolSets: () => sets,
        rules: () => ({ allow: kept, deny: [] }),
        remember: (rule) => {
          remembered.push(rule);
        },
      }),
    );
    const check = {
      toolName: 'mcp__loop__echo',
      args: { text: 'x' },
      description: { kind: 'other' as const },
    };
    try {
      const asked = await policy.decide(check);
      expect(asked.decision).toBe('ask');
      const rule = asked.decision === 'ask' ? (asked.allowAlways?.rule ?? '') : '';
      expect(rule).toMatch(/^mcp:loop:echo@[0-9a-f]{16}$/);
      await policy.remember?.(rule, 'allow');
      expect(remembered).toEqual([rule]);
      expect(await policy.decide(check)).toEqual({
        decision: 'allow',
        decidedBy: { kind: 'rule', rule, source: 'MCP rules' },
      });
      // A later session: the rule is kept, and the server now says something else of the tool.
      kept.push(rule);
      const changed = await connectMcpServer(
        loopStdioConfig({ LOOPBACK_ECHO_DESCRIPTION: 'Now also deletes files.' }),
        {
          era: 'legacy',
        },
      );
      try {
        sets = [changed.tools];
        const fresh = fits(
          withMcpRules({ toolSets: () => sets, rules: () => ({ allow: kept, deny: [] }) }),
        );
        const again = await fresh.decide(check);
        expect(again).toMatchObject({ decision: 'ask' });
        expect(again.decision === 'ask' && again.allowAlways?.description).toContain(
          'it changed since you allowed it',
        );
      } finally {
        await changed.close();
      }
    } finally {
      await first.close();
    }
  });

  it('never lets an annotation such as readOnlyHint skip the approval', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era: 'legacy' });
    try {
      expect(connection.tools.info('mcp__loop__echo')?.definition.annotations?.readOnlyHint).toBe(
        true,
      );
      const policy = withMcpRules({ toolSets: () => [connection.tools] });
      expect(
        (
          await policy.decide({
            toolName: 'mcp__loop__echo',
            args: {},
            description: { kind: 'other' },
          })
        ).decision,
      ).toBe('ask');
    } finally {
      await connection.close();
    }
  });

  it('trusts readOnlyHint only of the servers the person names, and never past a deny rule', async () => {
    const connection = await connectMcpServer(loopStdioConfig(), { era: 'legacy' });
    const call = (toolName: string) => ({
      toolName,
      args: {},
      description: { kind: 'other' as const },
    });
    try {
      const tools = connection.tools;
      expect(tools.info('mcp__loop__echo')?.definition.annotations?.readOnlyHint).toBe(true);
      const readOnlyLess = tools.tools
        .map((tool) => tools.info(tool.name))
        .find((info) => info !== undefined && info.definition.annotations?.readOnlyHint !== true);
      expect(readOnlyLess).toBeDefined();
      const trusting = withMcpRules({ toolSets: () => [tools], trustReadOnlyHint: ['loop'] });
      expect(await trusting.decide(call('mcp__loop__echo'))).toEqual({
        decision: 'allow',
        decidedBy: {
          kind: 'policy',
          reason:
            "`echo` of loop says it only reads (readOnlyHint), and you trust loop's hints (--mcp-trust-read-only)",
        },
      });
      // A tool of the same server that does not say it only reads is asked.
      const other = `mcp__loop__${readOnlyLess?.toolName}`;
      expect((await trusting.decide(call(other))).decision).toBe('ask');
      // Another server's name, or a look-alike of this one, trusts nothing here.
      for (const names of [['github'], ['Loop'], ['loop ']]) {
        const policy = withMcpRules({ toolSets: () => [tools], trustReadOnlyHint: names });
        expect((await policy.decide(call('mcp__loop__echo'))).decision).toBe('ask');
      }
      // A deny rule still denies a trusted server's read-only tool.
      const denying = withMcpRules({
        toolSets: () => [tools],
        trustReadOnlyHint: ['loop'],
        rules: () => ({ allow: [], deny: ['mcp:loop:echo'] }),
      });
      expect((await denying.decide(call('mcp__loop__echo'))).decision).toBe('deny');
    } finally {
      await connection.close();
    }
  });

  it('hands other tools to the fallback policy, and their rules to its remember', async () => {
    const seen: string[] = [];
    const policy = withMcpRules({
      toolSets: () => [],
      fallback: {
        decide: () => ({ decision: 'allow', decidedBy: { kind: 'policy', reason: 'reads' } }),
        remember: (rule) => {
          seen.push(rule);
        },
      },
    });
    expect(
      (await policy.decide({ toolName: 'read_file', args: {}, description: { kind: 'read' } }))
        .decision,
    ).toBe('allow');
    await policy.remember?.('run_command:npm test', 'allow');
    expect(seen).toEqual(['run_command:npm test']);
  });
});
