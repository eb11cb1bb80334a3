/**
 * The spec digest (docs/tasks-2026-07-28.md) as the page shows it: read
 * from its Markdown text into headings, paragraphs and rules, each rule by
 * its id (C1..C10, T1..T22, M1..M9), and a text split into plain text,
 * `code` and rule ids, so every id the page shows can link to its rule.
 * Pure: the page imports the text at build time and parses it here; tests
 * parse the same file in Node.
 *
 * The digest's Markdown is small and regular: `# title`, `## section`, a
 * short line naming a group of rules ("Negotiation"), rules as list items
 * `- T12 text` continued on indented lines, other list items and
 * paragraphs. Nothing else is needed, so no Markdown library.
 */
import { SPEC_IDS, type SpecId } from './learn-ids.ts';

export type DigestBlock =
  | { kind: 'title'; text: string }
  | { kind: 'section'; text: string }
  | { kind: 'group'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'item'; text: string }
  | { kind: 'rule'; id: SpecId; text: string };

export interface SpecDigest {
  blocks: DigestBlock[];
  /** Every rule by id, in the digest's order. */
  rules: Map<SpecId, Extract<DigestBlock, { kind: 'rule' }>>;
}

/** A rule id where it stands alone: `T6`, `(M4)`, `T2-T4`; never `AT6` or `T6x`. */
const RULE_ID = /(?<![A-Za-z0-9_])([CTM][1-9]\d?)(?![A-Za-z0-9_])/g;
const RULE_LINE = /^- ([CTM][1-9]\d?) (.*)$/;

/** Parses the digest's Markdown (HTML comments dropped). */
export function parseDigest(markdown: string): SpecDigest {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  const blocks: DigestBlock[] = [];
  let open: DigestBlock | undefined;
  const close = (): void => {
    if (open) blocks.push(open);
    open = undefined;
  };
  for (const [i, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (line.trim() === '') {
      close();
      continue;
    }
    const rule = RULE_LINE.exec(line);
    if (line.startsWith('# ')) {
      close();
      blocks.push({ kind: 'title', text: line.slice(2) });
    } else if (line.startsWith('## ')) {
      close();
      blocks.push({ kind: 'section', text: line.slice(3) });
    } else if (rule) {
      close();
      open = { kind: 'rule', id: rule[1] as SpecId, text: rule[2]! };
    } else if (line.startsWith('- ')) {
      close();
      open = { kind: 'item', text: line.slice(2) };
    } else if (open && (raw.startsWith(' ') || open.kind === 'paragraph')) {
      open.text += ` ${line.trim()}`;
    } else {
      close();
      // A short line right before a list, not ending a sentence, names the group of rules below it.
      const next = lines[i + 1] ?? '';
      if (next.startsWith('- ') && !/[.:;,]$/.test(line))
        blocks.push({ kind: 'group', text: line });
      else open = { kind: 'paragraph', text: line.trim() };
    }
  }
  close();
  const rules = new Map<SpecId, Extract<DigestBlock, { kind: 'rule' }>>();
  for (const block of blocks) if (block.kind === 'rule') rules.set(block.id, block);
  return { blocks, rules };
}

/** Every rule id a text mentions, in order, once each. */
export function specIdsIn(text: string): SpecId[] {
  return [...new Set([...text.matchAll(RULE_ID)].map((m) => m[1] as SpecId))];
}

export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'emphasis'; text: string }
  | { kind: 'rule'; id: SpecId };

/**
 * A text split for the page: `backticked` names as code, `*a word*` as
 * emphasis, and each id of a digest rule ({@link SPEC_IDS}) on its own, to
 * link to its rule. An unpaired backtick stays text; ids inside code stay
 * code; an id the digest lacks stays text.
 */
export function textParts(text: string): TextPart[] {
  const pieces = text.split('`');
  const paired = pieces.length % 2 === 1;
  const parts: TextPart[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (piece === '') continue;
    if (paired && i % 2 === 1) {
      parts.push({ kind: 'code', text: piece });
      continue;
    }
    const plain = paired ? piece : pieces.join('`');
    for (const [j, run] of plain.split(/\*([^*\s][^*]*)\*/).entries()) {
      if (j % 2 === 1) parts.push({ kind: 'emphasis', text: run });
      else parts.push(...idsSplit(run));
    }
    if (!paired) break;
  }
  return parts;
}

const KNOWN = new Set<string>(SPEC_IDS);

function idsSplit(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(RULE_ID)) {
    if (!KNOWN.has(match[1]!)) continue;
    if (match.index > at) parts.push({ kind: 'text', text: text.slice(at, match.index) });
    parts.push({ kind: 'rule', id: match[1] as SpecId });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
