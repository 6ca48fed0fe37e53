import { Checkbox } from '../../ui/Checkbox.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

/** The person given a role, by email (read-only when adding a role to a known user). */
export function RoleEmailField({
  value,
  onChange,
  isReadOnly = false,
}: {
  value: string;
  onChange: (value: string) => void;
  isReadOnly?: boolean;
}) {
  return (
    <TextField
      label={t('users.addRole.email')}
      name="email"
      type="email"
      autoComplete="off"
      value={value}
      onChange={onChange}
      isRequired
      isReadOnly={isReadOnly}
      autoFocus={!isReadOnly}
    />
  );
}

/** A Business or Group role with the Admin access level (SPEC §6). */
export function AdminCheckbox({
  roleName,
  isSelected,
  onChange,
}: {
  roleName: string;
  isSelected: boolean;
  onChange: (selected: boolean) => void;
}) {
  return (
    <Checkbox isSelected={isSelected} onChange={onChange}>
      {t('users.addRole.asAdmin', { role: roleName })}
    </Checkbox>
  );
}
