import { expect, it } from 'bun:test';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { createLayer } from './layer.ts';

const compiled = (source: Record<string, string>) =>
  Object.fromEntries(Object.entries(source).map(([id, text]) => [id, compileMessageOrThrow(text)]));

it('adds an area catalog to the source language at once and reads its other languages when one is chosen', async () => {
  const read: string[] = [];
  const layer = createLayer<string, 'en' | 'cy'>('en', compiled({ 'menu.open': 'Menu' }), async (locale) => {
    read.push(`root:${locale}`);
    return compiled({ 'menu.open': 'Dewislen' });
  });
  layer.extend(compiled({ 'orders.title': 'Orders: {count}' }), async (locale) => {
    read.push(`orders:${locale}`);
    return compiled({ 'orders.title': 'Archebion: {count}' });
  });
  expect(layer.t('orders.title', { count: 3 })).toBe('Orders: 3');
  expect(read).toEqual([]);
  await layer.activate('cy');
  expect([layer.t('menu.open'), layer.t('orders.title', { count: 3 })]).toEqual(['Dewislen', 'Archebion: 3']);
  // An area opened while Welsh is active is read in Welsh too; nothing is read twice.
  let changed = 0;
  layer.subscribe(() => changed++);
  layer.extend(compiled({ 'jobs.title': 'Jobs' }), async () => compiled({ 'jobs.title': 'Tasgau' }));
  expect(layer.t('jobs.title')).toBe('Jobs');
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect([layer.t('jobs.title'), changed]).toEqual(['Tasgau', 1]);
  await layer.activate('en');
  await layer.activate('cy');
  expect(read).toEqual(['root:cy', 'orders:cy']);
  expect(layer.t('orders.title', { count: 1 })).toBe('Archebion: 1');
});

it('shows an area without a file in the chosen language in the source words, and never changes the source catalog', async () => {
  const english = compiled({ 'menu.open': 'Menu' });
  const layer = createLayer<string, 'en' | 'cy'>('en', english, async () => compiled({ 'menu.open': 'Dewislen' }));
  layer.extend(compiled({ 'audit.title': 'Audit trail' }));
  await layer.activate('cy');
  expect([layer.t('menu.open'), layer.t('audit.title')]).toEqual(['Dewislen', 'Audit trail']);
  await layer.activate('en');
  expect([layer.t('menu.open'), layer.t('audit.title')]).toEqual(['Menu', 'Audit trail']);
  // The catalog it was given (a module's export in a front end) holds its own words alone.
  expect(Object.keys(english)).toEqual(['menu.open']);
});
