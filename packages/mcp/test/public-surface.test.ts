import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';

describe('the root of dsh-mcp', () => {
  it('exports what the README documents, and nothing more (a new export is a decision)', () => {
    expect(Object.keys(root).sort()).toEqual([
      'DEFAULT_IDLE_TIMEOUT_MS',
      'MCP_ERROR_CODES',
      'McpError',
      'agentToolName',
      'answerElicitations',
      'asMcpRulesFile',
      'connectMcpServer',
      'connectMcpServers',
      'createMcpToolSet',
      'decideMcpCall',
      'isMcpError',
      'isPunycodeHost',
      'isSensitiveName',
      'parseMcpRule',
      'pinnedRule',
      'readMcpConfig',
      'serverRule',
      'toolDigest',
      'toolRule',
      'trustedServerNames',
      'withMcpRules',
    ]);
  });
});
