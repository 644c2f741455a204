import { EmbeddedAvatarSelector } from '../features/avatar/selector/AvatarSelector.tsx';
import { OnboardingPage } from '../features/onboarding/OnboardingPage.tsx';
import { EmbeddedVoicePicker } from '../features/voice/EmbeddedVoicePicker.tsx';
import '../styles/choices.css';

/** /onboarding: the steps of the onboarding feature with the avatar and voice features' embedded pickers. */
export function OnboardingRoute() {
  return (
    <OnboardingPage
      renderAvatarPicker={(props) => <EmbeddedAvatarSelector {...props} />}
      renderVoicePicker={(props) => <EmbeddedVoicePicker {...props} />}
    />
  );
}
