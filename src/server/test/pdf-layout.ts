import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordLayout, type LayoutMark } from '../lib/pdf/layout-log.ts';

export interface Box {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface Word extends Box {
  text: string;
}

export interface PrintedPage {
  width: number;
  height: number;
  words: Word[];
}

/** Points two boxes may share before they count as overlapping: poppler rounds glyph boxes, and kerning nudges them. */
const SLACK = 0.6;

/** Text drawn this large is a watermark, drawn across the page on purpose. */
const WATERMARK_HEIGHT = 40;

/** Every printed word with its box, as poppler's `pdftotext -bbox` reads the file: a page's top left is (0, 0). */
export function printedWords(pdf: Buffer): PrintedPage[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-layout-'));
  const file = path.join(dir, 'document.pdf');
  fs.writeFileSync(file, pdf);
  let html: string;
  try {
    html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const pages: PrintedPage[] = [];
  const tag =
    /<page width="([\d.]+)" height="([\d.]+)">|<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g;
  for (const match of html.matchAll(tag)) {
    if (match[1]) pages.push({ width: Number(match[1]), height: Number(match[2]), words: [] });
    else
      pages.at(-1)?.words.push({
        xMin: Number(match[3]),
        yMin: Number(match[4]),
        xMax: Number(match[5]),
        yMax: Number(match[6]),
        text: unescapeHtml(match[7]),
      });
  }
  return pages;
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * A document drawn with its layout recorded: what every Pdf made while `draw` runs filled, boxed as table cells and
 * wrote, in order. Documents drawn at the same time would share the log: draw one at a time.
 */
export async function drawnWithLayout(draw: () => Promise<Buffer>): Promise<{ pdf: Buffer; marks: LayoutMark[] }> {
  const log: { marks: LayoutMark[][] } = { marks: [] };
  recordLayout(log);
  try {
    const pdf = await draw();
    return { pdf, marks: log.marks.flat() };
  } finally {
    recordLayout(null);
  }
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin) > SLACK && Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > SLACK;

const inside = (word: Box, box: Box) =>
  word.xMin >= box.xMin - SLACK && word.xMax <= box.xMax + SLACK && word.yMin >= box.yMin - SLACK && word.yMax <= box.yMax + SLACK;

const boxOf = (mark: LayoutMark): Box => ({ xMin: mark.x, yMin: mark.y, xMax: mark.x + mark.width, yMax: mark.y + mark.height });

const squeezed = (text: string) => text.replace(/\s+/g, '');

/**
 * What is wrong with a document's layout, one line per fault: a word off the page, two words over each other, a word
 * that runs out of the table cell it touches, or a word a fill drawn after it covers. `marks` are the drawing steps
 * recorded while it was drawn (empty for a document not drawn through Pdf: then only the words are checked).
 */
export function layoutFaults(pdf: Buffer, marks: LayoutMark[]): string[] {
  const faults: string[] = [];
  printedWords(pdf).forEach((page, index) => {
    const number = index + 1;
    const words = page.words.filter((word) => word.yMax - word.yMin < WATERMARK_HEIGHT);
    const at = (word: Word) => `page ${number}: "${word.text}" at (${word.xMin.toFixed(1)}, ${word.yMin.toFixed(1)})`;
    const onPage = marks.map((mark, order) => ({ mark, order })).filter(({ mark }) => mark.page === number);
    const cells = onPage.filter(({ mark }) => mark.kind === 'cell').map(({ mark }) => boxOf(mark));
    const fills = onPage.filter(({ mark }) => mark.kind === 'fill');
    const texts = onPage.filter(({ mark }) => mark.kind === 'text');
    words.forEach((word, i) => {
      if (word.xMin < -SLACK || word.yMin < -SLACK || word.xMax > page.width + SLACK || word.yMax > page.height + SLACK)
        faults.push(`${at(word)} leaves the page`);
      for (const other of words.slice(i + 1)) if (overlaps(word, other)) faults.push(`${at(word)} overlaps "${other.text}"`);
      const touched = cells.filter((cell) => overlaps(word, cell));
      if (touched.length > 0 && !touched.some((cell) => inside(word, cell))) faults.push(`${at(word)} runs out of its table cell`);
      const drawer = drawerOf(word, texts);
      for (const fill of fills)
        if (drawer !== null && drawer < fill.order && overlaps(word, boxOf(fill.mark))) faults.push(`${at(word)} lies under a later fill`);
    });
  });
  return faults;
}

/** The order of the text drawing a word came from: the nearest one above and left of it whose text holds the word. */
function drawerOf(word: Word, texts: Array<{ mark: LayoutMark; order: number }>): number | null {
  let best: { order: number; distance: number } | null = null;
  const wanted = squeezed(word.text).replace(/\u2026$/, '');
  for (const { mark, order } of texts) {
    if (mark.x > word.xMin + SLACK || mark.y > word.yMin + SLACK) continue;
    if (!squeezed(mark.text).includes(wanted)) continue;
    const distance = (word.yMin - mark.y) * 1000 + (word.xMin - mark.x);
    if (!best || distance < best.distance) best = { order, distance };
  }
  return best?.order ?? null;
}
