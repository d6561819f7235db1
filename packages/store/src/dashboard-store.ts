import { dashboardAccountQueries } from "./dashboard/dashboard-account-queries.js";
import { dashboardInviteQueries } from "./dashboard/dashboard-invite-queries.js";
import { dashboardMemberQueries } from "./dashboard/dashboard-member-queries.js";
import { dashboardPasswordQueries } from "./dashboard/dashboard-password-queries.js";
import { dashboardPendingSignInQueries } from "./dashboard/dashboard-pending-sign-in-queries.js";
import type { DashboardStore } from "./dashboard/dashboard-records.js";
import { dashboardSessionQueries } from "./dashboard/dashboard-session-queries.js";
import { dashboardTwoFactorQueries } from "./dashboard/dashboard-two-factor-queries.js";
import type { SqlClient } from "./sql-client.js";

export * from "./dashboard/dashboard-records.js";

/** The dashboard's accounts, members, two-factor, invitations and sessions: one module of queries each. */
export function createDashboardStore(sql: SqlClient): DashboardStore {
  return {
    ...dashboardAccountQueries(sql),
    ...dashboardPasswordQueries(sql),
    ...dashboardMemberQueries(sql),
    ...dashboardTwoFactorQueries(sql),
    ...dashboardPendingSignInQueries(sql),
    ...dashboardInviteQueries(sql),
    ...dashboardSessionQueries(sql),
  };
}
