import type { BusinessFeatureSettings } from '@medlocker/core';

/** What each fieldset of a business's feature settings is given: the settings, their change, read-only. */
export type FeatureFieldsetProps = {
  s: BusinessFeatureSettings;
  update: (patch: Partial<BusinessFeatureSettings>) => void;
  /** Read-only (an archived business). */
  ro: boolean;
};
