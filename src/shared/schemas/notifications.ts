import { z } from 'zod';
import { id, isoDate } from './fields.ts';

/** Issue 37: the kinds of alert, each computed from the live tables and the ledger (docs/design.md "Alerts"). */
export const ALERT_KINDS = [
  'overdue_return',
  'waiting_acceptance',
  'courier_stale',
  'raaf_due',
  'count_due',
  'low_stock',
  'series_used_up',
  'loss_reported',
  'check_failed',
  'paper_use_exception',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const alertKind = z.enum(ALERT_KINDS);

/** The names people read for each kind (the Notifications page filter, the settings, the digest's headings). */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  overdue_return: 'Overdue return',
  waiting_acceptance: 'Waiting to be accepted',
  courier_stale: 'Courier custody stale',
  raaf_due: 'RAAF due',
  count_due: 'Count due',
  low_stock: 'Low stock',
  series_used_up: 'Registered series nearly used up',
  loss_reported: 'Loss reported',
  check_failed: 'Ledger check or backup failed',
  paper_use_exception: 'Paper number used outside an outage',
};

/** Issue 37: these kinds are always mailed; a user may not turn their mail off. */
export const MANDATORY_MAIL_KINDS = ['overdue_return', 'raaf_due', 'loss_reported'] as const satisfies readonly AlertKind[];
export const isMandatoryMailKind = (kind: AlertKind) => (MANDATORY_MAIL_KINDS as readonly AlertKind[]).includes(kind);

/** Kinds mailed as soon as they open (dedupe `alert:<notification id>`), as issue 37 and the research ask; the others wait for the 07:00 digest. */
export const IMMEDIATE_MAIL_KINDS = ['loss_reported', 'check_failed', 'paper_use_exception'] as const satisfies readonly AlertKind[];

export const NOTIFICATION_STATES = ['open', 'resolved'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** 0: the first person told; 1 and 2: each escalation (branch head or custodian, then Accounting or Admin). */
export const NOTIFICATION_LEVELS = [0, 1, 2] as const;

export const NOTIFICATION_MSG = {
  mandatory: (kind: AlertKind) => `${ALERT_KIND_LABELS[kind]} is always mailed and cannot be turned off.`,
  unknownKind: `The kind must be one of: ${ALERT_KINDS.join(', ')}`,
  duplicateKind: 'Each kind may appear once.',
  duplicateReorderPoint: 'Each branch and route may have one reorder point.',
  escalateAfterFirst: (later: string, first: string) => `${later} may not be less than ${first}.`,
  mailNotConfigured: 'Mail not configured: alerts are in-app only.',
} as const;

export const notificationItem = z
  .object({
    id: z.number(),
    kind: alertKind,
    kind_label: z.string(),
    title: z.string(),
    body: z.string(),
    /** The screen with the thing open, e.g. /invoices?invoice=12. */
    link: z.string(),
    level: z.number().describe('0 for the first person told, 1 and 2 for escalations'),
    state: z.enum(NOTIFICATION_STATES),
    created_at: z.string(),
    read_at: z.string().nullable(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'Notification' });
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationListQuery = z.object({
  state: z.enum(NOTIFICATION_STATES, { error: 'State must be open or resolved' }).optional(),
  kind: z.preprocess((v) => (v === '' ? undefined : v), alertKind.optional()),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

/** A page of the signed-in user's notifications (newest first) and how many of their open ones are unread (the bell). */
export const notificationList = z
  .object({
    data: z.array(notificationItem),
    current_page: z.number(),
    last_page: z.number(),
    per_page: z.number(),
    total: z.number(),
    total_capped: z.boolean(),
    total_is_estimate: z.boolean(),
    unread: z.number().describe('open and unread notifications of the signed-in user, whatever the filter'),
  })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationList>;

export const notificationKindSetting = z
  .object({
    kind: alertKind,
    label: z.string(),
    email: z.boolean(),
    /** True for overdue return, RAAF due and loss reported: always mailed. */
    mandatory: z.boolean(),
  })
  .meta({ id: 'NotificationKindSetting' });

export const notificationSettings = z
  .object({ kinds: z.array(notificationKindSetting), mail_configured: z.boolean() })
  .meta({ id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** PUT /api/notification-settings: the kinds whose mail changes; absent kinds keep their setting. */
export const notificationSettingsInput = z.object({
  kinds: z
    .array(
      z.object({
        kind: z.enum(ALERT_KINDS, { error: NOTIFICATION_MSG.unknownKind }),
        email: z.boolean({ error: 'Email must be true or false' }),
      }),
    )
    .max(ALERT_KINDS.length * 2)
    .superRefine((rows, ctx) => {
      const seen = new Set<AlertKind>();
      rows.forEach((row, i) => {
        if (seen.has(row.kind)) ctx.addIssue({ code: 'custom', message: NOTIFICATION_MSG.duplicateKind, path: [i, 'kind'] });
        seen.add(row.kind);
        if (!row.email && isMandatoryMailKind(row.kind))
          ctx.addIssue({ code: 'custom', message: NOTIFICATION_MSG.mandatory(row.kind), path: [i, 'email'] });
      });
    }),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInput>;

/** The thresholds Admin and Accounting may change (issue 37's table); `count_due_days` defaults to COUNT_EVERY_DAYS. */
export interface AlertThresholds {
  overdue_head_days: number;
  overdue_accounting_days: number;
  waiting_hours: number;
  waiting_escalate_hours: number;
  courier_stale_hours: number;
  raaf_due_day: number;
  raaf_escalate_day: number;
  count_due_days: number;
  count_escalate_days: number;
  low_stock_minimum: number;
  low_stock_lead_days: number;
  low_stock_escalate_days: number;
  series_cover_days: number;
}

/** The defaults of the issue's table; the server puts its COUNT_EVERY_DAYS into `count_due_days`. */
export const defaultAlertThresholds = (countEveryDays = 90): AlertThresholds => ({
  overdue_head_days: 3,
  overdue_accounting_days: 7,
  waiting_hours: 24,
  waiting_escalate_hours: 72,
  courier_stale_hours: 48,
  raaf_due_day: 3,
  raaf_escalate_day: 6,
  count_due_days: countEveryDays,
  count_escalate_days: 30,
  low_stock_minimum: 0,
  low_stock_lead_days: 14,
  low_stock_escalate_days: 3,
  series_cover_days: 60,
});

export const ALERT_THRESHOLD_LABELS: Record<keyof AlertThresholds, string> = {
  overdue_head_days: 'Overdue: tell the branch head after (days)',
  overdue_accounting_days: 'Overdue: tell Accounting after (days)',
  waiting_hours: 'Waiting to be accepted after (hours)',
  waiting_escalate_hours: 'Waiting: tell Custodian and Accounting after (hours)',
  courier_stale_hours: 'Courier custody stale after (hours)',
  raaf_due_day: 'RAAF due: day of the month',
  raaf_escalate_day: 'RAAF due: tell Accounting on day',
  count_due_days: 'Count due after (days)',
  count_escalate_days: 'Count due: tell Accounting after (more days)',
  low_stock_minimum: 'Low stock: default minimum (numbers)',
  low_stock_lead_days: 'Low stock: default lead time (days)',
  low_stock_escalate_days: 'Low stock: tell Accounting after (days)',
  series_cover_days: 'Series nearly used up: cover under (days)',
};

const BOUNDS: Record<keyof AlertThresholds, { min: number; max: number }> = {
  overdue_head_days: { min: 0, max: 365 },
  overdue_accounting_days: { min: 0, max: 365 },
  waiting_hours: { min: 0, max: 24 * 90 },
  waiting_escalate_hours: { min: 0, max: 24 * 90 },
  courier_stale_hours: { min: 0, max: 24 * 90 },
  raaf_due_day: { min: 0, max: 28 },
  raaf_escalate_day: { min: 0, max: 28 },
  count_due_days: { min: 0, max: 3650 },
  count_escalate_days: { min: 0, max: 3650 },
  low_stock_minimum: { min: 0, max: 10_000_000 },
  low_stock_lead_days: { min: 0, max: 365 },
  low_stock_escalate_days: { min: 0, max: 365 },
  series_cover_days: { min: 0, max: 3650 },
};

const threshold = (key: keyof AlertThresholds) => {
  const { min, max } = BOUNDS[key];
  const label = ALERT_THRESHOLD_LABELS[key];
  return z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} may not be greater than ${max}`);
};

export const alertThresholds = z
  .object({
    overdue_head_days: threshold('overdue_head_days'),
    overdue_accounting_days: threshold('overdue_accounting_days'),
    waiting_hours: threshold('waiting_hours'),
    waiting_escalate_hours: threshold('waiting_escalate_hours'),
    courier_stale_hours: threshold('courier_stale_hours'),
    raaf_due_day: threshold('raaf_due_day'),
    raaf_escalate_day: threshold('raaf_escalate_day'),
    count_due_days: threshold('count_due_days'),
    count_escalate_days: threshold('count_escalate_days'),
    low_stock_minimum: threshold('low_stock_minimum'),
    low_stock_lead_days: threshold('low_stock_lead_days'),
    low_stock_escalate_days: threshold('low_stock_escalate_days'),
    series_cover_days: threshold('series_cover_days'),
  })
  .meta({ id: 'AlertThresholds' });

export const reorderPoint = z
  .object({
    branch_id: z.number(),
    branch_name: z.string(),
    route_id: z.number(),
    route_name: z.string(),
    minimum: z.number(),
    lead_days: z.number(),
    /** No low-stock alert for this branch and route until this day has passed. */
    snoozed_until: z.string().nullable(),
  })
  .meta({ id: 'ReorderPoint' });
export type ReorderPoint = z.infer<typeof reorderPoint>;

export const alertSettings = z
  .object({
    thresholds: alertThresholds,
    defaults: alertThresholds,
    reorder_points: z.array(reorderPoint),
    /** False when no SMTP host is set: mails go to .eml files and the alerts are in-app only. */
    mail_configured: z.boolean(),
    mail_message: z.string().nullable().describe('"Mail not configured: alerts are in-app only." when mail_configured is false'),
  })
  .meta({ id: 'AlertSettings' });
export type AlertSettings = z.infer<typeof alertSettings>;

export const reorderPointInput = z.object({
  branch_id: id('Branch is required'),
  route_id: id('Route is required'),
  minimum: z
    .number({ error: 'Minimum must be a whole number' })
    .int('Minimum must be a whole number')
    .min(0, 'Minimum must be at least 0')
    .max(10_000_000, 'Minimum may not be greater than 10000000'),
  lead_days: z
    .number({ error: 'Lead days must be a whole number' })
    .int('Lead days must be a whole number')
    .min(0, 'Lead days must be at least 0')
    .max(365, 'Lead days may not be greater than 365'),
  snoozed_until: isoDate('Snoozed until').nullable().optional(),
});

/** PUT /api/alert-settings: the thresholds (all of them) and, when given, the whole list of reorder points (replaces it). */
export const alertSettingsInput = z
  .object({
    thresholds: alertThresholds,
    reorder_points: z
      .array(reorderPointInput)
      .max(10_000)
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, i) => {
          const key = `${row.branch_id}:${row.route_id}`;
          if (seen.has(key)) ctx.addIssue({ code: 'custom', message: NOTIFICATION_MSG.duplicateReorderPoint, path: [i, 'route_id'] });
          seen.add(key);
        });
      })
      .optional(),
  })
  .superRefine((input, ctx) => {
    const t = input.thresholds;
    const order: [keyof AlertThresholds, keyof AlertThresholds][] = [
      ['overdue_accounting_days', 'overdue_head_days'],
      ['waiting_escalate_hours', 'waiting_hours'],
      ['raaf_escalate_day', 'raaf_due_day'],
    ];
    for (const [later, first] of order)
      if (t[later] < t[first])
        ctx.addIssue({
          code: 'custom',
          message: NOTIFICATION_MSG.escalateAfterFirst(ALERT_THRESHOLD_LABELS[later], ALERT_THRESHOLD_LABELS[first]),
          path: ['thresholds', later],
        });
  });
export type AlertSettingsInput = z.infer<typeof alertSettingsInput>;
