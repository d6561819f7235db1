import type { AccessAdmin, AccessAdminDeps } from "../access-admin.js";
import { createKey, listKeys, revokeKey, setKeyDisabled } from "./api-keys.js";
import { ensureDevelopmentAccess } from "./development-access.js";
import { createOrganization, listOrganizations, showOrganization } from "./organizations.js";
import {
  addProjectOrigin,
  createProject,
  removeProjectOrigin,
  setProjectOrigins,
  showProject,
} from "./projects.js";

/** Organizations, their project and keys: every rule behind the CLI and the dashboard. */
export function createAccessAdmin(deps: AccessAdminDeps): AccessAdmin {
  return {
    createOrganization: (input) => createOrganization(deps, input),
    listOrganizations: (input) => listOrganizations(deps, input),
    showOrganization: (input) => showOrganization(deps, input),
    createProject: (input) => createProject(deps, input),
    showProject: (input) => showProject(deps, input),
    setProjectOrigins: (input) => setProjectOrigins(deps, input),
    addProjectOrigin: (input) => addProjectOrigin(deps, input),
    removeProjectOrigin: (input) => removeProjectOrigin(deps, input),
    createKey: (input) => createKey(deps, input),
    revokeKey: (input) => revokeKey(deps, input),
    setKeyDisabled: (input) => setKeyDisabled(deps, input),
    listKeys: (input) => listKeys(deps, input),
    ensureDevelopmentAccess: (input) => ensureDevelopmentAccess(deps, input),
  };
}
