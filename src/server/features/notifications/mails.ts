import { ALERT_KIND_LABELS, ALERT_KINDS, isMandatoryMailKind, type AlertKind } from '../../../shared/schemas/notifications.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The part of a notification a mail shows. */
export interface MailedItem {
  kind: string;
  title: string;
  body: string;
  link: string;
}

const absolute = (appUrl: string, link: string) =>
  /^https?:\/\//.test(link) ? link : `${appUrl}${link.startsWith('/') ? '' : '/'}${link}`;

/** Whether a user gets this kind by mail: the mandatory kinds always; the others unless they turned them off. */
export function mailsKind(settings: ReadonlyMap<string, boolean>, kind: string): boolean {
  if ((ALERT_KINDS as readonly string[]).includes(kind) && isMandatoryMailKind(kind as AlertKind)) return true;
  return settings.get(kind) ?? true;
}

/** The one mail of a loss or failed check, sent as soon as it opens. */
export function alertMail(item: MailedItem, appUrl: string): { subject: string; text: string; html: string } {
  const url = absolute(appUrl, item.link);
  return {
    subject: `PadTrack: ${item.title}`,
    text: `${item.title}\n\n${item.body}\n\n${url}\n`,
    html: `<p><strong>${escapeHtml(item.title)}</strong></p><p>${escapeHtml(item.body)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  };
}

/** The 07:00 digest: each open item once, grouped by kind, each with its link. */
export function digestMail(
  name: string,
  day: string,
  items: MailedItem[],
  appUrl: string,
): { subject: string; text: string; html: string } {
  const kinds = [...new Set(items.map((item) => item.kind))];
  const label = (kind: string) => ALERT_KIND_LABELS[kind as AlertKind] ?? kind;
  const textParts = kinds.map(
    (kind) =>
      `${label(kind)}\n${items
        .filter((item) => item.kind === kind)
        .map((item) => `- ${item.title}: ${item.body}\n  ${absolute(appUrl, item.link)}`)
        .join('\n')}`,
  );
  const htmlParts = kinds.map(
    (kind) =>
      `<h3>${escapeHtml(label(kind))}</h3><ul>${items
        .filter((item) => item.kind === kind)
        .map(
          (item) => `<li><a href="${escapeHtml(absolute(appUrl, item.link))}">${escapeHtml(item.title)}</a>: ${escapeHtml(item.body)}</li>`,
        )
        .join('')}</ul>`,
  );
  const what = `${items.length} open item${items.length === 1 ? '' : 's'}`;
  return {
    subject: `PadTrack: ${what} for ${day}`,
    text: `Hello ${name},\n\nWhat is open for you in PadTrack on ${day} (${what}):\n\n${textParts.join('\n\n')}\n\nAll notifications: ${appUrl}/notifications\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>What is open for you in PadTrack on ${day} (${what}):</p>${htmlParts.join('')}<p><a href="${escapeHtml(`${appUrl}/notifications`)}">All notifications</a></p>`,
  };
}
