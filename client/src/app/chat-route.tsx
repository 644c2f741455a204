import { StageAvatar } from '../features/avatar/StageAvatar.tsx';
import { useCustomAvatarName } from '../features/avatar/use-avatar-name.ts';
import { AvatarSelectorModal } from '../features/avatar/selector/AvatarSelector.tsx';
import { ChatPage } from '../features/chat/ChatPage.tsx';
import { VoicePickerModal } from '../features/voice/VoicePicker.tsx';
import '../styles/choices.css';

/** /chat: the chat screen with the avatar feature's 3D stage and selector, and the voice picker, composed in. */
export function ChatRoute() {
  const customName = useCustomAvatarName();
  return (
    <ChatPage
      avatarName={customName}
      renderAvatar={(drive) => <StageAvatar {...drive} />}
      renderAvatarPicker={(onClose) => <AvatarSelectorModal onClose={onClose} />}
      renderVoicePicker={(onClose, sessionId) => <VoicePickerModal onClose={onClose} sessionId={sessionId} />}
    />
  );
}
