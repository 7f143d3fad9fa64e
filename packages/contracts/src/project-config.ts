/** GET /project.config.json (SPEC §7): settings the console loads before it starts. */
export interface ProjectConfig {
  siteTitle: string;
  /** Shared cloud header micro-frontend (SPEC §1); empty when none is configured. */
  header: {
    globalScript: string;
    chinaScript: string;
    /** Host names (suffixes) served from the China static host. */
    chinaHosts: string[];
    /** Milliseconds to wait for the header before the built-in one is shown. */
    timeoutMs: number;
  };
  defaultLocale: string;
  realmId: string;
}
