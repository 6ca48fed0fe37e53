/**
 * A business's section pages, for the shell's links. The pages' own path helpers live beside their
 * routes (pages/machines/MachineRoutes.tsx, pages/patients/PatientRoutes.tsx), which load lazily: the
 * shell does not import them, or every page would come with the first download.
 */
export function businessSectionPaths(businessId: string) {
  const base = `/businesses/${encodeURIComponent(businessId)}`;
  return {
    patients: `${base}/patients`,
    machines: `${base}/machines`,
    users: `${base}/users`,
    settings: `${base}/settings`,
  };
}
