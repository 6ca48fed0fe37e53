import type { Key } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { type CurrentBusiness, switchedPath } from '../state/current-business.ts';
import { Select } from '../ui/Select.tsx';
import { t } from './i18n/index.ts';

/**
 * The side menu's business: a picker when the user reaches several, else the one business's name.
 * Switching keeps the section open (orders stay orders) and is remembered for the next visit.
 */
export function BusinessSwitcher({ reach }: { reach: CurrentBusiness }) {
  const navigate = useNavigate();
  const { businesses, current, choose } = reach;
  if (!current) return null;
  if (businesses.length < 2) {
    return (
      <p className="business-switcher business-switcher--single">
        <span className="business-switcher__caption">{t('shell.business')}</span>
        <span className="business-switcher__name">{current.name}</span>
      </p>
    );
  }
  const onChange = (key: Key | null) => {
    if (key === null || key === current.id) return;
    const id = String(key);
    choose(id);
    // The address the browser is at, not the one rendered: a page still loading (its code, its data)
    // keeps the last page on screen, and switching then must follow the page asked for, not that one.
    const to = switchedPath(window.location.pathname, id);
    if (to) navigate(to);
  };
  return (
    <div className="business-switcher">
      <Select
        label={t('shell.business')}
        selectedKey={current.id}
        onSelectionChange={onChange}
        options={businesses.map((b) => ({ id: b.id, label: b.name }))}
      />
    </div>
  );
}
