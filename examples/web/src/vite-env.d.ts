/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The gateway's base URL, ending in /v1 (dev.json `baseUrl`). */
  readonly VITE_HUB_BASE_URL: string;
  /** The project id: a public credential, checked against the page's origin. */
  readonly VITE_HUB_PROJECT_ID: string;
}
