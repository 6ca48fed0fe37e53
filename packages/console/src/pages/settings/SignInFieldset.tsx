import { Switch } from '../../ui/Switch.tsx';
import type { FeatureFieldsetProps } from './feature-fieldsets.tsx';

/** Whether the business's users must sign in with a second factor (docs/SECURITY.md "Second factor"). */
export function SignInFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Sign-in</legend>
      <Switch isSelected={s.secondFactorRequired} onChange={(v) => update({ secondFactorRequired: v })} isDisabled={ro}>
        Require a second factor of this business's users
      </Switch>
    </fieldset>
  );
}
