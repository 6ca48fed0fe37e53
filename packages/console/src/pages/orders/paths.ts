const base = (businessId: string) => `/businesses/${encodeURIComponent(businessId)}/orders`;

/** The order pages' URLs (the top bar's search and the patient page link here too). */
export const orderPaths = {
  list: base,
  add: (businessId: string) => `${base(businessId)}/add`,
  order: (businessId: string, orderId: string) => `${base(businessId)}/${encodeURIComponent(orderId)}`,
};
