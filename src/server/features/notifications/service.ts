import { routeLabel } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  NOTIFICATION_MSG,
  isMandatoryMailKind,
  type AlertKind,
  type AlertSettings,
  type AlertSettingsInput,
  type NotificationItem,
  type NotificationList,
  type NotificationListQuery,
  type NotificationSettings,
  type NotificationSettingsInput,
} from '../../../shared/schemas/notifications.ts';
import type { AppContext } from '../../context.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { branchNames } from '../branches/read-model.ts';
import { routeInfos } from '../routes/read-model.ts';
import { mailsKind } from './mails.ts';
import * as repo from './repo.ts';
import { currentThresholds, defaultThresholds } from './thresholds.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function toItem(row: repo.NotificationRow): NotificationItem {
  const kind = row.kind as AlertKind;
  return {
    id: row.id,
    kind,
    kind_label: ALERT_KIND_LABELS[kind] ?? row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    level: row.level,
    state: row.resolved_at ? 'resolved' : 'open',
    created_at: row.created_at.toISOString(),
    read_at: iso(row.read_at),
    resolved_at: iso(row.resolved_at),
  };
}

/** The signed-in user's notifications, newest first, and the bell's count of their open unread ones. */
export async function list(ctx: AppContext, actor: Actor, query: NotificationListQuery): Promise<NotificationList> {
  const { rows, total } = await repo.listNotifications(ctx.db, {
    userId: actor.id,
    state: query.state,
    kind: query.kind,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  return { ...paginated(rows.map(toItem), total, query.page, query.per_page), unread: await repo.unreadCount(ctx.db, actor.id) };
}

/** Marks one of the user's own notifications read; someone else's is a 404, as if it did not exist. */
export async function markRead(ctx: AppContext, actor: Actor, id: number): Promise<NotificationItem> {
  const row = await repo.markRead(ctx.db, actor.id, id, new Date());
  if (!row) throw notFound('Notification not found.');
  return toItem(row);
}

const mailConfigured = (ctx: AppContext) => ctx.config.smtpUrl !== null;

/** Which kinds the user gets by mail; the mandatory ones always. */
export async function getMailSettings(ctx: AppContext, actor: Actor): Promise<NotificationSettings> {
  const stored = new Map((await repo.mailSettingsOf(ctx.db, [actor.id])).map((row) => [row.kind, row.email]));
  return {
    kinds: ALERT_KINDS.map((kind) => ({
      kind,
      label: ALERT_KIND_LABELS[kind],
      email: mailsKind(stored, kind),
      mandatory: isMandatoryMailKind(kind),
    })),
    mail_configured: mailConfigured(ctx),
  };
}

/** Saves the user's own mail choices (the schema already refused turning a mandatory kind off). */
export async function saveMailSettings(ctx: AppContext, actor: Actor, input: NotificationSettingsInput): Promise<NotificationSettings> {
  await repo.saveMailSettings(ctx.db, actor.id, input.kinds);
  return getMailSettings(ctx, actor);
}

/** The thresholds in force, their defaults, the reorder points and whether mail is set up (Admin, Accounting). */
export async function getAlertSettings(ctx: AppContext): Promise<AlertSettings> {
  const points = await repo.listReorderPoints(ctx.db);
  const branches = new Map((await branchNames(ctx.db, [...new Set(points.map((p) => p.branch_id))])).map((b) => [b.id, b.name]));
  const routes = new Map((await routeInfos(ctx.db, [...new Set(points.map((p) => p.route_id))])).map((r) => [r.id, routeLabel(r)]));
  return {
    thresholds: await currentThresholds(ctx),
    defaults: defaultThresholds(ctx),
    reorder_points: points.map((p) => ({
      branch_id: p.branch_id,
      branch_name: branches.get(p.branch_id) ?? '',
      route_id: p.route_id,
      route_name: routes.get(p.route_id) ?? '',
      minimum: p.minimum,
      lead_days: p.lead_days,
      snoozed_until: p.snoozed_until,
    })),
    mail_configured: mailConfigured(ctx),
    mail_message: mailConfigured(ctx) ? null : NOTIFICATION_MSG.mailNotConfigured,
  };
}

/** Saves the thresholds and, when given, replaces the reorder points; an unknown branch or route is a 422. */
export async function saveAlertSettings(ctx: AppContext, actor: Actor, input: AlertSettingsInput): Promise<AlertSettings> {
  const points = input.reorder_points;
  if (points) {
    const branchIds = new Set((await branchNames(ctx.db, [...new Set(points.map((p) => p.branch_id))])).map((b) => b.id));
    const routeIds = new Set((await routeInfos(ctx.db, [...new Set(points.map((p) => p.route_id))])).map((r) => r.id));
    const badBranch = points.findIndex((p) => !branchIds.has(p.branch_id));
    if (badBranch >= 0) throw invalid(`reorder_points.${badBranch}.branch_id`, 'The branch does not exist.');
    const badRoute = points.findIndex((p) => !routeIds.has(p.route_id));
    if (badRoute >= 0) throw invalid(`reorder_points.${badRoute}.route_id`, 'The route does not exist.');
  }
  await ctx.db.transaction(async (tx) => {
    await repo.saveThresholds(tx, input.thresholds, actor.id);
    if (points)
      await repo.replaceReorderPoints(
        tx,
        points.map((p) => ({
          branch_id: p.branch_id,
          route_id: p.route_id,
          minimum: p.minimum,
          lead_days: p.lead_days,
          snoozed_until: p.snoozed_until ?? null,
        })),
      );
  });
  return getAlertSettings(ctx);
}
