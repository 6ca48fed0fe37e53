import {
  AppError,
  defaultOpeningHours,
  londonDayStart,
  londonIsoDate,
  type UsageStats,
  usageBusinessMonths,
  usageEstateDays,
  usageMachineListMax,
} from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { countBagsToRemove } from '../bags/index.ts';
import { requireBusiness } from '../business-settings/index.ts';
import {
  activeMachines,
  bagsByMachine,
  collectingPatientAges,
  collectionsByHour,
  countLiveOrders,
  loadedByMachine,
  messagesWaiting,
} from './usage-repository.ts';

/*
 * reports/getUsageStats: the estate now (support, no businessId) or a business now. The
 * answer holds counts only, never a patient: nothing in it is a read of patient data to audit.
 * docs/decisions/reports.md, "Usage stats".
 */

/** The analyses' period: a business's last 12 London calendar months, the estate's last 7 London days. */
export function usagePeriod(now: number, estate: boolean): { from: number; to: number; months: string[] } {
  const today = londonIsoDate(now);
  const [year, month] = today.split('-').map(Number) as [number, number];
  if (estate) {
    const from = londonDayStart(today, 1 - usageEstateDays);
    const first = londonIsoDate(from).slice(0, 7);
    const last = today.slice(0, 7);
    return { from, to: now, months: first === last ? [last] : [first, last] };
  }
  const months: string[] = [];
  for (let back = usageBusinessMonths - 1; back >= 0; back--) {
    const index = year * 12 + (month - 1) - back;
    months.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return { from: londonDayStart(`${months[0]}-01`), to: now, months };
}

/** Whether a London weekday (ISO: 1 Monday … 7 Sunday) and hour fall in the default opening hours. */
export const isOpen = (isoDow: number, hour: number): boolean =>
  (defaultOpeningHours.days as readonly number[]).includes(isoDow) &&
  hour >= defaultOpeningHours.fromHour &&
  hour < defaultOpeningHours.toHour;

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
const isoDays: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The London ISO weekday (1 Monday … 7 Sunday), hour (0–23) and month (YYYY-MM) of an hour since the epoch. */
export function londonHour(epochHour: number): { isoDow: number; hour: number; month: string } {
  const parts = Object.fromEntries(londonParts.formatToParts(epochHour * 3_600_000).map((p) => [p.type, p.value]));
  return {
    isoDow: isoDays[parts.weekday ?? ''] ?? 0,
    hour: Number(parts.hour),
    month: `${parts.year}-${parts.month}`,
  };
}

/** SPEC §3's age buckets: 18–29, 30–39 … 60–69, 70 and over (under 18 is in none). */
function ageBucket(age: number): keyof UsageStats['ageRange'] | null {
  if (age < 18) return null;
  if (age < 30) return 'age18To30';
  if (age < 40) return 'age30To40';
  if (age < 50) return 'age40To50';
  if (age < 60) return 'age50To60';
  if (age < 70) return 'age60To70';
  return 'age70plus';
}

type Machines = Awaited<ReturnType<typeof activeMachines>>;
type Machine = Machines[number];

/** The eight bounded reads: on PostgreSQL at once on the pool's connections, on PGlite (one connection) in turn. */
async function readUsage(deps: AppDeps, businessId: string | null, range: { from: number; to: number }, now: number) {
  // The estate's answer comes in about the time of its slowest read (bench/reports/run.ts).
  let queue: Promise<unknown> = Promise.resolve();
  const read = <T>(f: () => Promise<T>): Promise<T> => {
    if (deps.dbKind === 'postgres') return f();
    const next = queue.then(f);
    queue = next.catch(() => {});
    return next;
  };
  const scoped = { businessId, ...range };
  const [live, loaded, bags, toRemove, machines, waiting, hours, ages] = await Promise.all([
    read(() => countLiveOrders(deps.db, businessId)),
    read(() => loadedByMachine(deps.db, businessId)),
    read(() => bagsByMachine(deps.db, businessId)),
    read(() => countBagsToRemove(deps.db, { businessId, now })),
    read(() => activeMachines(deps.db, businessId)),
    read(() => messagesWaiting(deps.db, businessId)),
    read(() => collectionsByHour(deps.db, scoped)),
    read(() => collectingPatientAges(deps.db, { ...scoped, onDay: londonIsoDate(now) })),
  ]);
  return { live, loaded, bags, toRemove, machines, waiting, hours, ages };
}

const ident = (m: Machine) => ({
  machineId: m.id,
  machineName: m.name,
  businessId: m.businessId,
  businessName: m.businessName,
});
const byName = (a: Machine, b: Machine) =>
  a.businessName.localeCompare(b.businessName) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** The lockers fullest first (by the bags inside), and those offline or out of order (out of order first). */
function lockers(machines: Machines, bags: { machineId: string | null; count: number }[]) {
  const used = new Map(bags.map((r) => [r.machineId, r.count]));
  const occupancy = machines
    .map((m) => ({ m, slotsUsed: used.get(m.id) ?? 0 }))
    .sort((a, b) => b.slotsUsed / b.m.numberOfSlots - a.slotsUsed / a.m.numberOfSlots || byName(a.m, b.m));
  const down = machines
    .filter((m) => !m.online || m.outOfOrderAt !== null)
    .sort((a, b) => Number(b.outOfOrderAt !== null) - Number(a.outOfOrderAt !== null) || byName(a, b));
  return {
    occupancy: {
      machineCount: machines.length,
      slotsTotal: machines.reduce((sum, m) => sum + m.numberOfSlots, 0),
      slotsUsed: occupancy.reduce((sum, o) => sum + o.slotsUsed, 0),
      machines: occupancy
        .slice(0, usageMachineListMax)
        .map((o) => ({ ...ident(o.m), slotsUsed: o.slotsUsed, numberOfSlots: o.m.numberOfSlots })),
    },
    machinesDown: {
      total: down.length,
      offline: machines.filter((m) => !m.online).length,
      outOfOrder: machines.filter((m) => m.outOfOrderAt !== null).length,
      machines: down.slice(0, usageMachineListMax).map((m) => ({
        ...ident(m),
        online: m.online,
        lastSeen: m.lastSeen,
        outOfOrderSince: m.outOfOrderAt,
      })),
    },
  };
}

/** Collecting patients by age band. */
function ageRangeOf(ages: { age: number; count: number }[]): UsageStats['ageRange'] {
  const ageRange: UsageStats['ageRange'] = {
    age18To30: 0,
    age30To40: 0,
    age40To50: 0,
    age50To60: 0,
    age60To70: 0,
    age70plus: 0,
  };
  for (const { age, count } of ages) {
    const bucket = ageBucket(age);
    if (bucket) ageRange[bucket] += count;
  }
  return ageRange;
}

/** Collections by day of the week and hour (in and out of opening hours), and by month's channel size. */
function collectionTimes(hours: { hour: number; count: number }[], months: string[]) {
  const zeros = (n: number) => Array.from({ length: n }, () => 0);
  const dayOfWeekAnalysis = { duringOpeningHours: zeros(7), outOfHours: zeros(7) };
  const timeOfDayAnalysis = { duringOpeningHours: zeros(24), outOfHours: zeros(24) };
  const channelSizeUsage: UsageStats['channelSizeUsage'] = Object.fromEntries(
    months.map((m) => [m, { small: 0, medium: 0, large: 0, other: 0 }]),
  );
  for (const { hour: epochHour, count } of hours) {
    const { isoDow, hour, month } = londonHour(epochHour);
    const side = isOpen(isoDow, hour) ? 'duringOpeningHours' : 'outOfHours';
    dayOfWeekAnalysis[side][isoDow - 1] = (dayOfWeekAnalysis[side][isoDow - 1] ?? 0) + count;
    timeOfDayAnalysis[side][hour] = (timeOfDayAnalysis[side][hour] ?? 0) + count;
    // Lockers record no slot sizes: every collection is 'other' (docs/decisions/reports.md, "Usage stats").
    const sizes = channelSizeUsage[month] ?? { small: 0, medium: 0, large: 0, other: 0 };
    sizes.other += count;
    channelSizeUsage[month] = sizes;
  }
  return { dayOfWeekAnalysis, timeOfDayAnalysis, channelSizeUsage };
}

export const getUsageStats: Service<'reports/getUsageStats'> = async (deps, actor, input) => {
  const businessId = input.businessId ?? null;
  if (businessId === null && actor.kind !== 'support') {
    // The estate is support's; a pharmacy user asks for one of their businesses.
    throw new AppError('VALIDATION', 'Choose a business', [
      { path: 'businessId', id: 'REQUIRED', message: 'Please choose a business' },
    ]);
  }
  if (businessId !== null) await requireBusiness(deps.db, businessId);
  const now = deps.now();
  const period = usagePeriod(now, businessId === null);
  const { live, loaded, bags, toRemove, machines, waiting, hours, ages } = await readUsage(
    deps,
    businessId,
    period,
    now,
  );
  const inMachines = loaded.reduce((sum, r) => sum + r.count, 0);
  return {
    businessId,
    from: period.from,
    to: period.to,
    liveOrders: { total: live, awaitingLoad: Math.max(0, live - inMachines), inMachines },
    // A slot is used while a bag is in it, whatever became of its order.
    ...lockers(machines, bags),
    bagsToRemove: { ...toRemove, expired: toRemove.total - toRemove.cancelled },
    messagesWaiting: waiting,
    ageRange: ageRangeOf(ages),
    ...collectionTimes(hours, period.months),
  };
};
