import type { DashboardContext, DashboardFastify } from "../http/dashboard-context.js";
import { registerAccountRoutes } from "./account/account-routes.js";
import { registerAccountSecurityRoutes } from "./account/account-security-routes.js";
import { registerAllowedOriginsRoutes } from "./allowed-origins-routes.js";
import { registerApiKeysRoutes } from "./api-keys/api-keys-routes.js";
import { registerKeySwitchRoutes } from "./api-keys/key-switch-routes.js";
import { registerRotateKeyRoutes } from "./api-keys/rotate-key-routes.js";
import { registerAssetRoutes } from "./asset-routes.js";
import { registerAuditLogRoutes } from "./audit-log-routes.js";
import { registerDocsRoutes } from "./docs-routes.js";
import { registerHealthRoutes } from "./health-routes.js";
import { registerMemberChangeRoutes } from "./members/member-change-routes.js";
import { registerMembersRoutes } from "./members/members-routes.js";
import { registerOperatorsRoutes } from "./operator/operators-routes.js";
import { registerOrganizationInviteRoutes } from "./operator/organization-invite-routes.js";
import { registerOrganizationRoutes } from "./operator/organization-routes.js";
import { registerOrganizationsRoutes } from "./operator/organizations-routes.js";
import { registerReservationsRoutes } from "./operator/reservations-routes.js";
import { registerOverviewRoutes } from "./overview-routes.js";
import { registerInviteLinkRoutes } from "./sign-in/invite-link-routes.js";
import { registerSignInCodeRoutes } from "./sign-in/sign-in-code-routes.js";
import { registerSignInRoutes } from "./sign-in/sign-in-routes.js";
import { registerUsageRoutes } from "./usage-routes.js";

/** Every page and action of the dashboard, in the order of its menus. */
export function registerDashboardRoutes(app: DashboardFastify, context: DashboardContext): void {
  registerAssetRoutes(app);
  registerHealthRoutes(app);

  registerSignInRoutes(app, context);
  registerSignInCodeRoutes(app, context);
  registerInviteLinkRoutes(app, context);

  registerOverviewRoutes(app, context);
  registerApiKeysRoutes(app, context);
  registerRotateKeyRoutes(app, context);
  registerKeySwitchRoutes(app, context);
  registerAllowedOriginsRoutes(app, context);
  registerAccountRoutes(app, context);
  registerAccountSecurityRoutes(app, context);

  registerOrganizationsRoutes(app, context);
  registerOrganizationRoutes(app, context);
  registerOrganizationInviteRoutes(app, context);
  registerOperatorsRoutes(app, context);
  registerReservationsRoutes(app, context);

  registerUsageRoutes(app, context);
  registerMembersRoutes(app, context);
  registerMemberChangeRoutes(app, context);
  registerAuditLogRoutes(app, context);
  registerDocsRoutes(app, context);
}
