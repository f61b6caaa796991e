// Every mail as HTML and plain text, built with react-email (React elements
// without JSX). React escapes every text it is given, so what users typed
// (names, site names) can never become markup in the HTML part.
import { mailWords, type MailKind, type MailLanguage } from './messages.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailInput {
  kind: MailKind;
  language: MailLanguage;
  site: string;
  /** The account's address (or, for an address change, the new one). */
  email: string;
  /** The link the button opens, for mails that carry one. */
  link?: string;
  /** More placeholders (the passkey's name, the two-step state). */
  vars?: Record<string, string>;
}

const bodyStyle = { backgroundColor: '#f6f8fa', fontFamily: '-apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif' };
const cardStyle = { backgroundColor: '#ffffff', borderRadius: '8px', margin: '24px auto', padding: '24px 32px', maxWidth: '520px' };
const buttonStyle = { backgroundColor: '#228be6', borderRadius: '6px', color: '#ffffff', fontWeight: 600, padding: '12px 20px' };

/**
 * react-email, React and what @react-email/components brings along
 * (Tailwind, Prettier, marked, Prism) are about 12 MB of heap, held for the
 * life of the process once loaded. Mail is rare, so they load with the first
 * one instead of at start-up (issue 19's memory target; docs/benchmarks.md).
 */
let toolkit: Promise<typeof import('@react-email/components') & { h: typeof import('react').createElement; render: typeof import('@react-email/render').render }> | undefined;
function loadToolkit() {
  toolkit ??= Promise.all([import('react'), import('@react-email/components'), import('@react-email/render')]).then(([react, components, { render }]) => ({
    ...components,
    h: react.createElement,
    render,
  }));
  return toolkit;
}

export async function renderMail(input: MailInput): Promise<RenderedMail> {
  const { h, render, Body, Button, Container, Head, Heading, Hr, Html, Link, Section, Text } = await loadToolkit();
  const words = mailWords(input.language, input.kind, { site: input.site, email: input.email, ...input.vars });
  const element = h(
    Html,
    { lang: input.language },
    h(Head, null),
    h(
      Body,
      { style: bodyStyle },
      h(
        Container,
        { style: cardStyle },
        h(Heading, { as: 'h2' }, words.heading),
        ...words.lines.map((line, i) => h(Text, { key: `l${i}` }, line)),
        input.link && words.action
          ? h(
              Section,
              null,
              h(Button, { href: input.link, style: buttonStyle }, words.action),
              h(Text, { style: { fontSize: '12px', color: '#666' } }, h(Link, { href: input.link }, input.link)),
            )
          : null,
        words.footer ? h(Hr, null) : null,
        words.footer ? h(Text, { style: { fontSize: '12px', color: '#666' } }, words.footer) : null,
        h(Text, { style: { fontSize: '12px', color: '#999' } }, input.site),
      ),
    ),
  );
  const html = await render(element);
  // The text part is written out rather than derived from the HTML: the link appears once, whole, on its own line.
  const text = [
    words.heading,
    '',
    ...words.lines,
    ...(input.link && words.action ? ['', `${words.action}:`, input.link] : []),
    ...(words.footer ? ['', words.footer] : []),
    '',
    '-- ',
    input.site,
    '',
  ].join('\n');
  return { subject: words.subject, text, html };
}
