// Build-time stand-in for `openclaw/plugin-sdk/plugin-entry` (the host provides the real module at
// run time; the `openclaw` package is 600+ MB, so it is not a dev dependency). It declares only
// what src/index.ts uses. scripts/plugin-e2e.sh type-checks src/ against the real SDK as well.
import type { HostApi } from "../src/host.js";

export interface PluginEntryDefinition {
  id: string;
  name: string;
  description: string;
  register: (api: HostApi) => void;
}

export declare function definePluginEntry<T extends PluginEntryDefinition>(entry: T): T;
