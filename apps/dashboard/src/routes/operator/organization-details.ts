import { AdminRefusal, type ApiKeyInfo, type MemberInfo, type Organization, type Project } from "@hub/admin";
import type { Viewer } from "../../auth/viewer.js";
import type { DashboardContext } from "../../http/dashboard-context.js";

export interface OrganizationDetails {
  organization: Organization;
  project: Project | null;
  keys: ApiKeyInfo[];
  members: MemberInfo[];
}

/** What an organization's page shows an operator; undefined when there is no such organization. */
export async function organizationDetails(
  context: DashboardContext,
  viewer: Viewer,
  orgId: string,
): Promise<OrganizationDetails | undefined> {
  const admin = context.adminFor(viewer);
  try {
    const [{ organization, project }, { apiKeys }, { members }] = await Promise.all([
      admin.showOrganization({ orgId }),
      admin.listKeys({ orgId }),
      admin.listMembers({ orgId }),
    ]);
    return { organization, project, keys: apiKeys, members };
  } catch (error) {
    if (error instanceof AdminRefusal && error.code === "organization-not-found") return undefined;
    throw error;
  }
}
