import { afterAll, beforeAll, expect, it } from 'bun:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

/*
 * The sign-in page (main.ts) in happy-dom, against a stand-in server: what a person sees and hears
 * through the steps of signing in. A DOM for this file only, taken down after it.
 */

type Answer = (input: Record<string, unknown>) => unknown;
const answers: Record<string, Answer> = {};
const asked: string[] = [];

beforeAll(async () => {
  GlobalRegistrator.register({ url: 'http://localhost/auth/nowhere?from=%2Fusers', width: 1280, height: 800 });
  document.body.innerHTML = '<div id="root"></div>';
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const method = new URL(url, 'http://localhost').pathname.replace('/api/', '');
    asked.push(method);
    const answer = answers[method];
    if (!answer) return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No' } }), { status: 404 });
    return Response.json(answer(JSON.parse(String(init.body))));
  }) as typeof fetch;
  answers['auth/config'] = () => ({ allowRegistration: true, productName: 'PharmaBox' });
  await import('./main.ts');
});
afterAll(() => GlobalRegistrator.unregister());

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
const heading = () => document.querySelector('h1')?.textContent;
const input = (label: string) => {
  const l = [...document.querySelectorAll('label')].find((el) => el.textContent === label);
  return document.getElementById(l?.getAttribute('for') ?? '') as HTMLInputElement | null;
};
const submit = async () => {
  document.querySelector('form')?.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }));
  await settle();
};

it('takes any other /auth path to login, keeping the return path, and asks nothing of a first visitor', async () => {
  await settle();
  expect(window.location.pathname).toBe('/auth/login');
  expect(window.location.search).toBe('?from=%2Fusers');
  expect(heading()).toBe('Log in');
  expect(document.title).toBe('Log in | PharmaBox');
  expect(document.querySelector('.auth__footer')?.textContent).toBe('PharmaBox support console');
  expect(document.activeElement).toBe(input('Email address'));
  expect([...document.querySelectorAll('nav a')].map((a) => a.textContent)).toEqual([
    'I forgot my password',
    'Register',
  ]);
  expect(asked).toEqual(['auth/config']);
});

it('shows the server’s message beside the field it names, gone once the field is typed in', async () => {
  answers['auth/getIdentityProviderAuthUrl'] = () => ({
    error: { code: 'INVALID_FORMAT', message: 'Invalid', details: [{ path: 'username', message: 'Enter an email' }] },
  });
  globalThis.fetch = wrapStatus(globalThis.fetch, 'auth/getIdentityProviderAuthUrl', 400);
  await submit();
  const email = input('Email address');
  const error = document.getElementById(email?.getAttribute('aria-describedby') ?? '');
  expect(error?.textContent).toBe('Enter an email');
  expect(email?.getAttribute('aria-invalid')).toBe('true');
  email?.dispatchEvent(new Event('input', { bubbles: true }));
  expect(email?.hasAttribute('aria-invalid')).toBe(false);
  expect(document.querySelector('.field__error')).toBeNull();
});

it('refuses a wrong password in SPEC words, then sends a ForceReset to reset-begin with the email filled', async () => {
  restoreStatus();
  answers['auth/getIdentityProviderAuthUrl'] = () => ({ authUrl: null });
  const email = input('Email address');
  if (email) email.value = 'pat@example.com';
  await submit();
  expect(document.querySelector('.login__username-value')?.textContent).toBe('pat@example.com');
  expect(document.activeElement).toBe(input('Password'));
  answers['auth/login'] = () => ({ ok: false, reason: 'InvalidCredentials' });
  const password = input('Password');
  if (password) password.value = 'wrong';
  await submit();
  expect(document.querySelector('[role="alert"]')?.textContent).toBe('Invalid username or password');
  expect(input('Password')?.value).toBe('');

  answers['auth/login'] = () => ({ ok: false, reason: 'ForceReset' });
  await submit();
  expect(window.location.pathname).toBe('/auth/reset/begin');
  expect(heading()).toBe('Reset your password');
  expect(document.querySelector('[role="alert"]')?.textContent).toBe(
    'You need to set a new password before you can log in.',
  );
  expect(input('Email address')?.value).toBe('pat@example.com');
});

let realFetch: typeof fetch | undefined;
function wrapStatus(inner: typeof fetch, method: string, status: number): typeof fetch {
  realFetch = inner;
  return (async (url: string, init: RequestInit) => {
    const response = await inner(url, init);
    if (!String(url).endsWith(method)) return response;
    return new Response(await response.text(), { status });
  }) as typeof fetch;
}
function restoreStatus() {
  if (realFetch) globalThis.fetch = realFetch;
}
