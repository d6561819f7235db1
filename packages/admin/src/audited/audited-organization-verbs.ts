import type { AccessAdmin } from "../access-admin.js";
import type { AdminActionRecorder } from "../admin-action-recorder.js";

type OrganizationVerbs = Pick<
  AccessAdmin,
  "createOrganization" | "createProject" | "setProjectOrigins" | "addProjectOrigin" | "removeProjectOrigin"
>;

/** The organization and project verbs, each recorded once it succeeded. */
export function auditedOrganizationVerbs(
  access: AccessAdmin,
  record: AdminActionRecorder,
): OrganizationVerbs {
  return {
    async createOrganization(input) {
      const result = await access.createOrganization(input);
      const { orgId, name } = result.organization;
      await record({ action: "organization.create", orgId, target: orgId, detail: { name } });
      return result;
    },

    async createProject(input) {
      const result = await access.createProject(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.create", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async setProjectOrigins(input) {
      const result = await access.setProjectOrigins(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.set-origins", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async addProjectOrigin(input) {
      const result = await access.addProjectOrigin(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.add-origin", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async removeProjectOrigin(input) {
      const result = await access.removeProjectOrigin(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.remove-origin", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },
  };
}
