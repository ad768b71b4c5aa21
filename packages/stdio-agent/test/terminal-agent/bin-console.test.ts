// What a dependency prints through the console reaches the person's terminal inert: the MCP SDK
// warns with a server's tool name and `x-mcp-header` as sent, control characters included.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, fixture, runBin } from '../support/bin-process.js';

beforeAll(assertBuilt);

describe('dsh-stdio-agent, a dependency printing through the console', () => {
  it("shows the SDK's warning with a server's escape sequences inert", async () => {
    const { stderr } = await runBin(['--help'], '', {
      NODE_OPTIONS: `--import ${fixture('sdk-console-warning.mjs')}`,
    });
    expect(stderr).toContain(
      "[mcp-sdk] excluding tool 'evil^[]52;c;b3duZWQ=^G^[[2J↵dsh-stdio-agent: forged' from tools/list",
    );
    for (const live of ['\u001b', '\u0007', '\r']) expect(stderr).not.toContain(live);
    // A line break in the server's text cannot start a line that looks like one of ours.
    expect(stderr.split('\n').filter((line) => line.startsWith('dsh-stdio-agent: forged'))).toEqual(
      [],
    );
  });
});
