import { randomUUID } from 'node:crypto';

// A lowercase UUID: the only shape of id the store makes, and the only one that reaches a path
// (no separators, no dots, no names a system reserves).
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a session id the store could have made: a lowercase UUID. */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID.test(value);
}

/** A fresh session id. */
export function newSessionId(): string {
  return randomUUID();
}
