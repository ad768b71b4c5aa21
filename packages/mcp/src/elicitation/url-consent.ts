import { domainToUnicode } from 'node:url';
import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { serverHeader } from './ask-form.js';
import { clip } from './field-question.js';

/** The consent question for a URL-mode elicitation, or why the URL is refused unasked. */
export type UrlConsent =
  | { readonly question: Omit<AskUserQuestionRequest, 'signal' | 'agent'>; readonly url: URL }
  | { readonly reason: string };

/** Whether a host name holds a Punycode label (`xn--`), which may display as look-alike letters. */
export function isPunycodeHost(hostname: string): boolean {
  return hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
}

/**
 * What the person is told of a URL besides the address itself: the server's message, the domain
 * on a line of its own, and a warning for Punycode, for text before an `@` (which hides the real
 * domain) and for plain `http`. Shared by the consent question and an editor's URL elicitation.
 */
export function urlNotes(url: URL, message: string): string[] {
  const lines = [clip(message, 1500), '', `Domain: ${url.hostname}`];
  if (isPunycodeHost(url.hostname)) {
    lines.push(
      `Warning: this domain is written in Punycode; it displays as "${domainToUnicode(url.hostname)}",` +
        ' which may imitate a domain you know.',
    );
  }
  if (url.username !== '' || url.password !== '')
    lines.push('Warning: the address puts text before an "@"; the real domain is the one above.');
  if (url.protocol === 'http:') lines.push('Warning: the page is not encrypted (http).');
  return lines;
}

/** A server's address read and checked: only `https:` and `http:` are offered to the person. */
export function checkedUrl(rawUrl: string): URL | { readonly reason: string } {
  if (!URL.canParse(rawUrl)) return { reason: 'the server sent an address that cannot be read' };
  const url = new URL(rawUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { reason: `the server sent a ${url.protocol} address; only web addresses are opened` };
  return url;
}

/**
 * The question that asks the person's consent before a server's URL is opened: the full address,
 * its domain on a line of its own, a warning for Punycode and for text before an `@` (which
 * hides the real domain). The URL is only parsed, never fetched. Only `https:` and `http:`
 * addresses are offered; anything else (`javascript:`, `file:`) is refused with the reason.
 */
export function urlConsent(
  rawUrl: string,
  message: string,
  serverName: string,
  opensBrowser: boolean,
): UrlConsent {
  const url = checkedUrl(rawUrl);
  if (!(url instanceof URL)) return url;
  const lines = [`${serverName} asks you to open a web page.`, ...urlNotes(url, message)];
  lines.push('', `Full address: ${clip(rawUrl, 2000)}`);
  return {
    url,
    question: {
      question: lines.join('\n'),
      header: serverHeader(serverName),
      options: [
        {
          label: opensBrowser ? 'Open in my browser' : 'I will open it in my browser',
          value: 'open',
        },
        { label: 'Decline', value: 'decline' },
      ],
      allowCustom: false,
    },
  };
}
