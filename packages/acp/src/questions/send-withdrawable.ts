import type { SendRequestOptions } from '@agentclientprotocol/sdk';

/** Sends one request to the client, with the options that withdraw it. */
export type SendQuestion = (options: SendRequestOptions) => Promise<unknown>;

/** Waits for the client's reply to one request; withdrawing the question withdraws the request. */
export type SendWithdrawable = (send: SendQuestion) => Promise<unknown>;
