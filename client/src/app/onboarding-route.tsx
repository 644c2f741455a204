import { EmbeddedAvatarSelector } from '../features/avatar/selector/AvatarSelector.tsx';
import { OnboardingPage } from '../features/onboarding/OnboardingPage.tsx';

/** /onboarding: the steps of the onboarding feature with the avatar feature's embedded selector. */
export function OnboardingRoute() {
  return <OnboardingPage renderAvatarPicker={(props) => <EmbeddedAvatarSelector {...props} />} />;
}
