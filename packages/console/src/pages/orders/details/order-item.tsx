import type { ReactNode } from 'react';
import { DetailsItem } from '../../../ui/Details.tsx';
import { t } from './i18n/index.ts';

/** One term of an order page's details, its value or, when it is blank, a dash (orderPage.noValue). */
export const orderItem = (label: string, value: ReactNode) => (
  <DetailsItem term={label}>
    {value === '' || value === null || value === undefined ? t('orderPage.noValue') : value}
  </DetailsItem>
);
