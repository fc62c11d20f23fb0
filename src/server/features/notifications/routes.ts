import { can } from '../../../shared/permissions.ts';
import { idParam } from '../../../shared/schemas/common.ts';
import {
  alertSettings,
  alertSettingsInput,
  notificationItem,
  notificationList,
  notificationListQuery,
  notificationSettings,
  notificationSettingsInput,
} from '../../../shared/schemas/notifications.ts';
import { dataResponse, ok, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const TAGS = ['notifications'];
const manageAlerts = authorize((user) => can(user, 'alertSettings.manage'));

export function notificationRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/notifications',
    {
      schema: {
        operationId: 'listNotifications',
        summary: "Lists the signed-in user's notifications, newest first, with the unread count",
        tags: TAGS,
        querystring: notificationListQuery,
        response: ok(notificationList),
      },
      onRequest: authorize(),
    },
    async (request) => service.list(ctx, currentUser(request), request.query),
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        operationId: 'readNotification',
        summary: 'Marks one of your notifications read',
        tags: TAGS,
        params: idParam,
        response: ok(dataResponse(notificationItem), 404),
      },
      onRequest: authorize(),
    },
    async (request) => ({ data: await service.markRead(ctx, currentUser(request), request.params.id) }),
  );

  mailSettingRoutes(app, ctx);
  alertSettingRoutes(app, ctx);
}

function mailSettingRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/notification-settings',
    {
      schema: {
        operationId: 'getNotificationSettings',
        summary: 'Which alert kinds you get by mail',
        tags: TAGS,
        response: ok(dataResponse(notificationSettings)),
      },
      onRequest: authorize(),
    },
    async (request) => ({ data: await service.getMailSettings(ctx, currentUser(request)) }),
  );

  app.put(
    '/api/notification-settings',
    {
      schema: {
        operationId: 'saveNotificationSettings',
        summary: 'Turns the mail of optional alert kinds on or off (overdue return, RAAF due and loss reported stay on)',
        tags: TAGS,
        body: notificationSettingsInput,
        response: ok(savedResponse(notificationSettings)),
      },
      onRequest: authorize(),
    },
    async (request) => ({
      message: 'Notification settings saved.',
      data: await service.saveMailSettings(ctx, currentUser(request), request.body),
    }),
  );
}

function alertSettingRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/alert-settings',
    {
      schema: {
        operationId: 'getAlertSettings',
        summary: 'The alert thresholds, the reorder points and whether mail is configured (Admin, Accounting)',
        tags: TAGS,
        response: ok(dataResponse(alertSettings), 403),
      },
      onRequest: manageAlerts,
    },
    async () => ({ data: await service.getAlertSettings(ctx) }),
  );

  app.put(
    '/api/alert-settings',
    {
      schema: {
        operationId: 'saveAlertSettings',
        summary: 'Saves the alert thresholds and, when given, replaces the reorder points (Admin, Accounting)',
        tags: TAGS,
        body: alertSettingsInput,
        response: ok(savedResponse(alertSettings), 403, 422),
      },
      onRequest: manageAlerts,
    },
    async (request) => ({
      message: 'Alert settings saved.',
      data: await service.saveAlertSettings(ctx, currentUser(request), request.body),
    }),
  );
}
