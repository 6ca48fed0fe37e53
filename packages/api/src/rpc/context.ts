export type CookieOptions = {
  maxAgeSeconds?: number;
  expires?: number;
  /** Strict unless told: the patient cookie is Lax, so a patient coming back from the payment page keeps it. */
  sameSite?: 'strict' | 'lax';
};

/**
 * The HTTP exchange, for the few controllers that set cookies or headers (login, logout) or read the
 * request itself. Given to controllers only: services take `(deps, actor, input)` and never see it.
 */
export type HttpExchange = {
  request: Request;
  /** True when the request came over https (directly or via a proxy saying so). */
  secure: boolean;
  setCookie(name: string, value: string, options?: CookieOptions): void;
  clearCookie(name: string, options?: CookieOptions): void;
  setHeader(name: string, value: string): void;
};
