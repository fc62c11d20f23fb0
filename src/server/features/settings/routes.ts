import { can } from '../../../shared/permissions.ts';
import { IDENTITY_MSG, logoInput, operatorIdentityInput, operatorIdentityResponse } from '../../../shared/schemas/operator-identity.ts';
import { dataResponse, ok, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize, currentUser } from '../../lib/auth.ts';
import * as service from './service.ts';

const PATH = '/api/settings/operator-identity';
const onRequest = authorize((user) => can(user, 'settings.manage'));

export function settingsRoutes(app: App, ctx: AppContext) {
  app.get(
    PATH,
    {
      schema: {
        operationId: 'getOperatorIdentity',
        summary: "Gets the operator's identity every document prints",
        tags: ['settings'],
        response: ok(dataResponse(operatorIdentityResponse)),
      },
      onRequest,
    },
    async () => ({ data: await service.get(ctx) }),
  );

  app.put(
    PATH,
    {
      schema: {
        operationId: 'saveOperatorIdentity',
        summary: "Saves the operator's names, TIN, address and signatories",
        tags: ['settings'],
        body: operatorIdentityInput,
        response: ok(savedResponse(operatorIdentityResponse)),
      },
      onRequest,
    },
    async (request) => ({ message: IDENTITY_MSG.saved, data: await service.save(ctx, currentUser(request), request.body) }),
  );

  app.put(
    `${PATH}/logo`,
    {
      schema: {
        operationId: 'saveOperatorLogo',
        summary: "Replaces the operator's logo (a PNG, base64)",
        tags: ['settings'],
        body: logoInput,
        response: ok(savedResponse(operatorIdentityResponse), 409),
      },
      onRequest,
    },
    async (request) => ({ message: IDENTITY_MSG.logoSaved, data: await service.setLogo(ctx, currentUser(request), request.body.png) }),
  );

  app.delete(
    `${PATH}/logo`,
    {
      schema: {
        operationId: 'removeOperatorLogo',
        summary: "Removes the operator's logo",
        tags: ['settings'],
        response: ok(savedResponse(operatorIdentityResponse), 409),
      },
      onRequest,
    },
    async (request) => ({ message: IDENTITY_MSG.logoRemoved, data: await service.removeLogo(ctx, currentUser(request)) }),
  );
}
