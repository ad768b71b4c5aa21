// One MCP tool call over stdio to the same loopback server (written with the SDK's server
// package): through dsh-mcp (`connectMcpServer`, the agent tool's `execute`: idle watch, call
// context, result text) against the bare SDK client's `callTool`. Each side has its own server
// process, both on the 2026-07-28 era; calls are interleaved after a warm-up, and the figures are
// medians and tails of the same run.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectMcpServer } from 'dsh-mcp';

const WARM_UP = 200;
const CALLS = 2_000;
const SERVER = fileURLToPath(
  new URL('../packages/mcp/test/fixtures/stdio-server.mjs', import.meta.url),
);

function percentile(times: readonly number[], fraction: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

export async function run(): Promise<void> {
  const bare = new Client(
    { name: 'bench', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await bare.connect(
    new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'pipe' }),
  );
  const ours = await connectMcpServer({
    name: 'loop',
    transport: 'stdio',
    command: process.execPath,
    args: [SERVER],
    env: {},
  });
  const echo = ours.tools.tools.find((tool) => tool.name === 'mcp__loop__echo');
  if (echo === undefined) throw new Error('the loopback server offers no echo tool');
  const context = {
    signal: new AbortController().signal,
    toolCallId: 'bench',
    agent: { id: 'bench' },
  };
  const args = { text: 'hello' };
  const times = { bare: [] as number[], dsh: [] as number[] };
  try {
    for (let index = 0; index < WARM_UP + CALLS; index++) {
      let start = performance.now();
      await bare.callTool({ name: 'echo', arguments: args });
      const bareTime = performance.now() - start;
      start = performance.now();
      await echo.execute(args, context);
      const dshTime = performance.now() - start;
      if (index >= WARM_UP) {
        times.bare.push(bareTime);
        times.dsh.push(dshTime);
      }
    }
  } finally {
    await Promise.all([bare.close(), ours.close()]);
  }
  console.log(
    `An MCP tool call (echo) over stdio, ${CALLS.toLocaleString('en')} interleaved calls each after ${WARM_UP} to warm up:`,
  );
  console.log('| client | p50 | p99 |');
  console.log('| --- | --- | --- |');
  for (const [name, list] of Object.entries(times)) {
    console.log(
      `| ${name} | ${(percentile(list, 0.5) * 1000).toFixed(0)} µs | ${(percentile(list, 0.99) * 1000).toFixed(0)} µs |`,
    );
  }
  const ratio = (fraction: number) =>
    (percentile(times.dsh, fraction) / percentile(times.bare, fraction)).toFixed(2);
  console.log(
    `\ndsh-mcp / bare SDK client: p50 ${ratio(0.5)}x, p99 ${ratio(0.99)}x (goal: within 1.2x)`,
  );
}
