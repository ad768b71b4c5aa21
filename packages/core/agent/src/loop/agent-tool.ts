// The port between the loop and its tools lives in the contract, so that a package of tools
// (`dsh-tools`, `dsh-mcp`) implements it without depending on the loop.
export type * from 'dsh-user-interaction/agent-tool';
