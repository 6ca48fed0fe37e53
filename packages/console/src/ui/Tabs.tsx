import type { ReactNode } from 'react';
import { Tabs as AriaTabs, type TabsProps as AriaTabsProps, Link, Tab, TabList, TabPanel } from 'react-aria-components';

export type TabItem = { id: string; label: string; content: ReactNode };

export type TabsProps = Omit<AriaTabsProps, 'children'> & { label: string; tabs: TabItem[] };

/** Tabs (arrow keys move between them); only the selected panel is rendered. */
export function Tabs({ label, tabs, className, ...props }: TabsProps) {
  return (
    <AriaTabs {...props} className={['tabs', className].filter(Boolean).join(' ')}>
      <TabList aria-label={label} className="tabs__list">
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} className="tabs__tab">
            {t.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id} className="tabs__panel">
          {t.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}

export type TabLink = { id: string; label: string; href: string };

/**
 * Tabs that are pages (a business's Details, Users, Machines…): each tab is a link to its own URL,
 * the selected one given by the caller, so Back and deep links work. The content is the page's Outlet.
 * A navigation landmark of links (the selected one `aria-current="page"`), not an ARIA tab list: a tab
 * must control a tab panel, and these control whole pages (a tab list here named panels that never
 * exist, which axe reports as critical).
 */
export function TabLinks({ label, tabs, selectedId }: { label: string; tabs: TabLink[]; selectedId: string }) {
  return (
    <nav aria-label={label} className="tabs">
      <div className="tabs__list">
        {tabs.map((t) => (
          <Link
            key={t.id}
            href={t.href}
            className="tabs__tab"
            aria-current={t.id === selectedId ? 'page' : undefined}
            data-selected={t.id === selectedId || undefined}
          >
            {t.label}
          </Link>
        ))}
      </div>
    </nav>
  );
}
